"""Vision: pure functions on numpy BGR frames — the virtual table, dice and card readers,
calibration profiles. Import the submodules you need (``rig.vision.dice``, ``.cards``,
``.profile``, ``.calibrate``, ``.render``); this package imports nothing heavy itself.
"""
