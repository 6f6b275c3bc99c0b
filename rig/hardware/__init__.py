"""Hardware adapters: camera sources and toss inputs.

The only layer that imports gpiozero and picamera2, and only inside its modules
(:mod:`rig.hardware.tosses`, :mod:`rig.hardware.camera`, ...): importing this package
touches no hardware and imports neither library.
"""
