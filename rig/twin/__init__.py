"""The twin of the table: dice thrown by Bullet physics, path-traced by Mitsuba 3 through a
Raspberry Pi Camera Module 3 model — benchmark material only (``rig bench vision --twin``).

:mod:`rig.twin.physics` throws and rests the dice (pybullet); :mod:`rig.twin.table` draws one
table (box, floor, lamps, camera) and its shots (the calibration ritual, the empty box, thrown
turns); :mod:`rig.twin.optics` path-traces a shot (Mitsuba 3) and develops it as the camera does
(exposure, white balance, sensor noise on the Bayer mosaic, demosaic, JPEG). An optional extra:
``pip install -e '.[twin]'``; renders are cached in ``~/.cache/rig/twin/``.
"""
