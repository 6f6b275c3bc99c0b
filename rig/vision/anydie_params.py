"""The thresholds of the colour-agnostic die finder and counter (:mod:`rig.vision.anydie`).

A module of their own, so the pip parameters (:mod:`rig.vision.pips`, which hold an ``[anydie]``
table) and the finder (which uses the pip counter) do not import each other.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class AnyDieParams:
    """Thresholds of the colour-agnostic finder and counter (the ``[anydie]`` table)."""

    work_px: int = 320          # the frame is searched at this longer side
    background: float = 0.3     # the floor: median over this fraction of the frame
    contrast: float = 22.0      # Lab distance from the floor for a die pixel
    chroma_weight: float = 1.5  # a and b count this much more than L (shadows change L only)
    close: float = 0.012        # closing kernel, fraction of the work frame
    open: float = 0.03          # opening kernel (drops bands thinner than a die: walls), fraction
    min_side: float = 0.025     # die side range, fraction of the frame's longer side
    max_side: float = 0.16
    max_aspect: float = 2.2     # bounding-box aspect of one die
    min_fill: float = 0.45      # region area / box area
    resegment: bool = True      # segment a region larger than a die again against its own colour
    split_aspect: float = 1.4   # ... and kept split when it is this elongated and every part reads
    split_area: float = 1.6     # a region this many times the frame's typical die is several dice
    face_px: int = 64           # a die crop is scaled to this side before counting
    fill_floor: bool = False    # count pips against a face whose surroundings are the face's colour
    grow: float = 0.0           # the die's box and mask are grown by this fraction of its side
    inner: float = 0.06         # the inner face: body eroded by this fraction of its side
    local: float = 0.4          # a pip's face: the median over this fraction of the die around it
    pip_chroma: float = 2.0     # weight of a and b (squared) against L in a pip's contrast
    pip_contrast: float = 30.0  # Lab distance of a pip from its face, at least
    pip_otsu: float = 0.6       # ... and at least this fraction of the Otsu threshold
    pip_min: float = 0.06       # pip diameter range, fraction of the die's side
    pip_max: float = 0.32
    pip_max_aspect: float = 1.8
    pip_min_fill: float = 0.5
    pip_solidity: float = 0.0     # a pip is convex: its area / its hull's area
    pip_size_ratio: float = 0.45  # a pip's area vs the larger pips' median
    pip_link: float = 4.5         # pips of one face within this many pip diameters
    pattern_tolerance: float = 0.35
    centre_slack: float = 0.2     # a lone pip lies within this fraction of the die from its middle
    min_confidence: float = 0.6
    learned: bool = True          # find and read with the learned nets (calibration/dicenet_*.onnx)
    find_floor: float = 0.2       # a heat-map peak this high is a candidate die ...
    find_keep: float = 0.45       # ... kept (flagged "faint") from this high, read with confidence from find_ok
    find_ok: float = 0.6
    faint_keep: float = 0.2       # a peak from this high below find_keep is kept, flagged "faint", when the reader is read_ok
                                  # sure of its count and the game's dice count is not yet found (rig.vision.diefaint;
                                  # issue 25, round 15); 0: never
    faint_fill_read: float = 0.7  # ... or, the dice count known and dice missing, read this surely (big dice the finder
                                  # scores faintly in a box off their size; issue 25, round 34; read_ok before)
    touch_reach: float = 1.1      # ... and, the dice count not known, kept when read as 2-6 and touching a die found (its
                                  # centre within this many sides), the frame asking already (rig.vision.dietouch; issue
                                  # 25, round 33: dice in clusters); 0: never
    lone_ask: float = 0.55        # the dice count not known, a peak below find_keep of the dice's size on none of them
                                  # scoring this share of the surest die makes the frame ask (rig.vision.dielone;
                                  # issue 25, round 36: a shadowed die beside dice scored faintly); 0: never
    read_ok: float = 0.9          # the reader's probability of its pip count, for an ok die
    check_ok: float = 0.52        # the second opinion (calibration/diecheck.npz): an ok die it rates below this is flagged
                                  # (0.365 until issue 25's "no drawn thing called ok at any seed": drawn things at 0.44-0.51)
    one_check_ok: float = 0.52    # ... a die read as 1 from this second opinion (knots, card corners, rated near check_ok)
    alone_read_ok: float = 0.97   # a die the finder's second pass alone found: ok from this reader probability ...
    alone_check_ok: float = 0.6   # ... and this second opinion (a card corner the first pass never saw)
    face_same: float = 8.0        # an ok die's face going on past its box (8-bit Lab, median of a band) on two sides that
    face_ends: float = 15.0       # meet and ending on the other two (farther than this) is flagged: a card's corner, a
                                  # coin's glint (rig.vision.dieface; issue 25, round 12); 0: not looked at
    merged_same: float = 20.0     # an ok die whose face is within this of all its surroundings (8-bit Lab, every band
    merged_scale: float = 0.4     # near and far) and inside which the finder, dice this many of its side, finds two
    merged_find: float = 0.5      # dice (from this score) a side apart is flagged: two small dice found as one
                                  # (rig.vision.diesplit; issue 25, round 13); merged_same 0: not looked at
    merged_fine: float = 0.0      # ... the finder looking once more as if dice were this many of its side, the two
                                  # looks' dice pooled (issue 25, round 20: 16-20 px dice in an 80 px box; 0.2 with K3,
                                  # the twin-trained finder; on main's nets it mends nothing); 0: one look
    one_round: float = 1.55       # an ok die read as 1 whose outline is more elongated than this (rig.vision.dieface.
                                  # outline_elongation: 1 for a square, 1.67 an ellipse 1 x 0.6) is flagged: a knot
                                  # (issue 25, round 13); 0: not looked at
    one_circle: float = 0.75      # an ok die read as 1 filling more of its smallest enclosing circle than this (a square
                                  # 0.64, a disk 1) with a glint for its pip, or cut by the frame's edge, is flagged: a
                                  # bead (rig.vision.dieone; issue 25, round 33); 0: not looked at
    turned_ok: float = 0.3        # an ok die whose crop turned half round the reader gives less than this for its number
                                  # is flagged (rig.vision.dieturn; issue 25, round 14); 0: not looked at
    big_box: float = 2.0          # an ok die whose box side is more than this times the median of the frame's other dice
                                  # is flagged: one box around two or more dice (rig.vision.diebig; issue 25, round 19);
                                  # 0: not looked at
    wide_grow: float = 1.2        # an ok die read again in a crop this many times wider, the reader giving less than
    wide_ok: float = 0.6          # this for its number, is flagged: a box on a part of a die or between two
                                  # (rig.vision.diewide; issue 25, round 21; on since round 25: the pip twin's two
                                  # silent dice, 9746 and 9863, were boxes on a part of a die); either 0: not looked at
    body_grow: float = 1.3        # an unsure die's box (32 px or more) read again in its body's box, the patch of its top's
                                  # colour, when that is this many times its side or more (rig.vision.diebody; issue 25,
                                  # round 35: the pip twin's big dice boxed on their pips); 0: not looked at
    body_other: float = 0.6       # ... and an ok die (32 px or more) whose body that big the reader reads as another
                                  # count this sure is flagged (rig.vision.diebodyread; issue 25, round 36: the pip
                                  # twin 12501's 3 read 2 in a box on part of its top, its body read 3 0.72); 0: never
    body_wide: float = 0.8        # ... looked at only when its wider crop (wide_grow) read its number less surely than
                                  # this (issue 25, round 37: 12501's 0.66; 9 of 152 twin and 10 of 383 speed-corpus
                                  # ok dice under 0.8: finding a body costs 0.2-0.7 ms a die); above 1: every ok die
    relit_ok: float = 0.45        # an ok die whose crop, its light evened out, the reader gives less than this for its
                                  # number is flagged: pips in a shadow across the face (rig.vision.dierelit; issue 25,
                                  # round 26: the pip twin 9762's half-shadowed 4 read 2); 0: not looked at
    settled_read: float = 0.95    # an ok die whose turned crop (turned_ok) the reader gives at least this for its number
                                  # is not read evened out (relit_ok): its crop saved (issue 25, round 33; also the
                                  # wider crop left out turned a wrong die silent); 0: every ok die read in all three
    one_ok: float = 0.78          # a die read as 1 is ok only from this finder score (a coin, a knot read as a 1)
    blank_read: float = 0.4       # a faint die (finder below find_ok) the reader gives below this for its number and on
                                  # which the classical counter finds no pip is no die: a binder's punched hole (issue
                                  # 25, round 31; real faint dice so read had 0.5 or more); 0: none dropped
    blank_find: float = 0.75      # ... the finder scoring it below this (find_ok until round 32: holes scored 0.6-0.75 stayed,
                                  # flagged "pips unclear"; the real dice so read and counted had 0.83 or more); from
                                  # find_ok the reader's "no die" below blank_read too and the pip net's no die
    agree_turned: float = 0.75    # a die flagged only "pips unclear" is ok when the reader gives its number this much on
    agree_pipnet: float = 0.8     # average over its crop turned and mirrored, the classical counter counts as many and
                                  # the pip net reads it so this sure (rig.vision.dieagree; issue 25, round 32); 0: never
    agree_sized: float = 0.8      # ... or, a small die, when the reader gives its number this much on average over its box
                                  # 0.9-1.25 times as wide, turned each quarter (rig.vision.diesized; issue 25, round 35;
                                  # wrong dice so flagged on the coloured tuning photos had 0.73 or less); 0: never
    square_rect: float = 0.85     # a die flagged by the second opinion (check_ok) alone is ok when the thing in its box
    square_circle: float = 0.9    # fills its smallest rotated rectangle this much, its smallest enclosing circle at most
                                  # this, sides alike, no glint: a die's square body (rig.vision.diesquare; issue 25,
                                  # round 34: real coloured dice showing 1); square_rect 0: never
    use_net: bool = True          # check each die with the learned counter (calibration/pipnet.npz)
    die_px: float = 0.0           # the dice's side in frame px, for the learned finder (0: about 1/16 of the
                                  # frame's longer side, as in its photos; set it when the camera is nearer)
    net_reject: float = 0.8       # the net's "not a die" at least this sure drops an unreadable candidate
    net_drop: float = 0.97        # ... this sure drops any candidate (a knot in the wood read as pips)
    net_agree: float = 0.9        # net and counter agree: ok if the counter was sure or the net this sure
    net_alone: float = 1.01       # the counter unsure, the net this sure: the net's reading, ok (above 1: never)
    net_sure: float = 0.8         # they disagree: the net's number (flagged) when this sure
