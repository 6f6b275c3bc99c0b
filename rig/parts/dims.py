"""The measurements the printed parts are built around (mm), and where each comes from.

Plain numbers, no CAD: the tests check the generated solids against these, and
``docs/building.md`` quotes them.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Raspberry Pi Camera Module 3 (the board outline and holes of Camera Module 2): board 25 x 24 mm,
#: four M2 holes (2.2 mm) 21 mm apart across, 12.5 mm apart down, 2 mm in from the side edges and from
#: the top edge; the lens on the centre line about 9.5 mm below the top edge. Checked against
#: NopSCADlib's ``rpi_camera_v2_pcb`` (vitamins/cameras.scad: 25 mm wide, holes at 2 mm and 14.5 mm
#: from the top edge, 2 mm from the sides, 2.2 mm across); the lens opening is generous (12 mm) so a
#: board a little off still sees through it.
CM3_BOARD = (25.0, 24.0)
CM3_HOLE_PITCH = (21.0, 12.5)
CM3_HOLE_D = 2.2
CM3_HOLE_FROM_TOP = 2.0
CM3_LENS_FROM_TOP = 9.5
CM3_LENS_OPENING = 12.0  # the lens barrel (8.5 mm square) with room to tilt the board a little
#: a webcam's tripod socket takes a 1/4"-20 UNC screw (6.35 mm)
TRIPOD_SCREW_HOLE = 6.6

#: arcade buttons: the hole is the nominal size plus clearance
BUTTON_CLEARANCE = 0.2
#: depth a button with its microswitch needs under the panel (30 mm: about 33 mm; 24 mm: about 30 mm)
BUTTON_DEPTH = {30: 36.0, 24: 32.0}

#: IR break-beam pairs with 5 mm LED housings (Adafruit 2167/2168: 5 mm emitter and receiver)
BEAM_HOLE = 5.3
#: the box rim the beam clips slide onto: game-box card walls are 2-3 mm thick
RIM_GAP = 3.4

#: the arm's poles: 16 mm aluminium tube or hardwood dowel, held in printed sockets
POLE_D = 16.0
POLE_HOLE = 16.4
#: a thumbscrew (M8) closes the clamp; an M4 bolt and wing nut hold the camera holder's tilt joint
CLAMP_SCREW_HOLE = 8.6
TILT_BOLT_HOLE = 4.4
SET_SCREW_HOLE = 3.4  # M3 grub/bolt to lock a pole in its socket (self-taps into the print)


@dataclass(frozen=True)
class CutList:
    """Lengths of bought poles, from the plan (mm)."""

    upright: float
    reach: float
    count_upright: int = 1
    count_reach: int = 1
