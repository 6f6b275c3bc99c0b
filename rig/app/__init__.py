"""The composition root: the one package that wires the rig's parts together (issue 29).

:mod:`rig.app.runner` (the running :class:`~rig.app.runner.Rig`, with its :mod:`~rig.app.modes`,
:mod:`~rig.app.notices` and :mod:`~rig.app.seats`), :mod:`rig.app.serve` (the web server and systemd),
:mod:`rig.app.simulator` (simulation mode's mock pins and virtual table) and
:mod:`rig.app.calibration_desk` (the calibration page's camera side). The simulator and the desk see
the rig only through the small protocols of :mod:`rig.app.protocols`; nothing below this package
(rules, engine, vision, hardware, display, league) imports it.
"""
