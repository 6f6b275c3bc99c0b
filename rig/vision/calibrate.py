"""Fit a calibration profile from the ritual frames.

The ritual: turn all six dice to blue, capture; to pink; to yellow; to blank; optionally
capture the empty box. From those frames :func:`fit_profile` finds the dice (difference to
the empty box, or to a smoothed estimate of it), learns the die body colour from the blank
frame and each frog colour from the dice in its frame, models the box bottom (shadows
included) as a few Lab clusters, and checks the result by reading the ritual frames back.

It refuses unusable samples with a :class:`CalibrationError` saying what to do: no dice
found, the wrong number of dice, two colours that overlap, an overexposed frame.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
from collections.abc import Mapping
from dataclasses import dataclass

import cv2
import numpy as np

from rig.i18n import Translator, by_pattern, core_patterns, format_number, said
from rig.vision.dice import check_frame, read_dice, shrink
from rig.vision.errors import (
    BackgroundError, BodyError, CalibrationError, FewFrogError, NoFrogError, PhantomError, ReadBackError, ReflectionError,
    WallsError,
)
from rig.vision.light import FloorModel, cells, correct, floor_grid
from rig.vision.profile import COLOURS, ColourModel, Profile, Thresholds
from rig.vision.calibrate_find import _Frame, _find_dice, _left_in_empty, ritual_dice, ritual_frames  # noqa: F401
from rig.vision.calibrate_top import frog_pixels, top_side, within_cov
from rig.vision.calibrate_frog import DIE_SHOWS, fit_mode as _fit_mode  # noqa: F401 - moved (round 20)
from rig.vision.calibrate_shade import fit_shade, fit_spots, lit_band
from rig.vision.calibrate_readback import (
    asked_about, dice_found, fit_prints, in_reflection, overlap_clear, phantoms, readback_advice, sheen_asked)
from rig.vision.calibrate_background import (  # noqa: F401 - _boxes, _overlap_advice moved (round 22)
    _boxes, _overlap_advice, body_advice, fit_background, in_box, plain_bottom, walls_advice)
from rig.vision.calibrate_glare import (  # noqa: F401 - moved (issue 29); the old import path works
    _fit_glare, _lower_floor,
)
from rig.vision.calibrate_lamp import _glare_off_shade, _lab, _lamp_from_bodies, _top_pixels, _unglared

RITUAL = ("blue", "pink", "yellow", "blank")
MIN_SEPARATION = 3.0  # below this two classes overlap and the profile is refused
#: ... but for the dice's colours and the box bottom's down to this in the last try of a :class:`BackgroundError`
#: (``overlap``), when every ritual frame then reads back right and ``ok`` (round 18: 2D table 41008, violet blank
#: dice on a wood tinted violet, body/background 2.4; every die of its turns read right, flagged no more than others)
MIN_OVERLAP = 2.0
WARN_SEPARATION = 5.0


@dataclass(frozen=True)
class CalibrationReport:
    """The fitted profile and what calibration saw (for ``rig calibrate`` to print)."""

    profile: Profile
    dice_found: dict
    separation: dict
    frog_fraction: dict
    self_test: dict  # face -> (faces read, status)
    warnings: tuple[str, ...] = ()

    def lines(self, _: Translator | None = None) -> list[str]:
        """What ``rig calibrate`` prints, in the language of ``_`` (English without it)."""
        _ = _ or Translator("en")
        p = self.profile
        w, h = p.frame_size

        def share(v: float) -> str:
            return f"{v:.1%}" if _.lang == "en" else f"{100 * v:.1f}\u00a0%".replace(".", ",")  # the same rounding

        out = [_("profile {name}: {width}x{height}, die {px} px wide", name=repr(p.name), width=w, height=h,
                 px=f"{p.die_side * w:.0f}")]
        out.append(_("dice found: {counts}", counts=", ".join(f"{_(k)} {v}" for k, v in self.dice_found.items())))
        out.append(_("frog share of a die's top: {shares}",
                     shares=", ".join(f"{_(k)} {share(v)}" for k, v in self.frog_fraction.items())))
        if p.floor_cells is not None:
            n = sum(sum(row) for row in p.floor_cells)
            lamp = _("from the die bodies") if p.floor_lamp is not None else _("from the floor")
            out.append(_("box floor (the light reference): {n} of {cells} grid cells; lamp gradient {lamp}; "
                         "perspective walls {walls}", n=n, cells=len(p.floor_cells) * len(p.floor_cells[0]),
                         lamp=lamp, walls=", ".join(f"{v:g}" for v in p.walls)))
        out.append(_("class separation (Mahalanobis, refused below {least}):",
                     least=f"{MIN_SEPARATION:.1f}" if _.lang == "en" else format_number(MIN_SEPARATION, _.lang, 1)))
        for k, v in sorted(self.separation.items(), key=lambda kv: kv[1]):
            flag = _("  <- low") if v < WARN_SEPARATION else ""
            out.append(f"  {k:<18} {v:7.1f}{flag}")
        for face, (faces, status) in self.self_test.items():
            said_status = _("uncertain") if status == "uncertain" else status
            out.append(_("read back {face}: {status} {faces}", face=_(face), status=said_status, faces=faces))
        return out + self.warning_lines(_)

    def warning_lines(self, _: Translator | None = None) -> list[str]:
        """The warnings as :meth:`lines` ends with them, in the language of ``_``."""
        _ = _ or Translator("en")
        return [_("warning: {note}", note=by_pattern(w_, _.lang, core_patterns())) for w_ in self.warnings]


#: the fewest die bodies the lamp's surface is fitted through (a plane below 16); with fewer it is taken from
#: the floor ...
LAMP_MIN = 8
#: ... and, when that read-back is refused, this few: the blank frame's six dice alone (issue 24, round 11: the
#: 2D unseen table 34006's frog prints cover the tops, so only the blank frame shows violet tops; the lamp taken
#: from its floor read the floor's dark print as shade and lifted the dice on it, one blue frog read back as
#: no frog). Not the first try: on twin 8611 (seven bodies) the plane reads more dice wrong (flagged) than the floor
LAMP_FEW = 6


def fit_profile(samples: Mapping[str, np.ndarray], *, empty: np.ndarray | None = None, n_dice: int = 6,
                name: str = "", exposure_us: int | None = None, analogue_gain: float | None = None,
                colour_gains: tuple[float, float] | None = None, thresholds: Thresholds | None = None) -> CalibrationReport:
    """Fit a profile from ``samples`` (``{"blue": frame, "pink": ..., "yellow": ..., "blank": ...}``).

    The tries after a refusal are chosen by its kind (:data:`RETRIES`, the error's class, not its text). A
    read-back refused (:class:`ReadBackError`) is tried once more with the wall's shade map narrowed where the
    ritual dice's tops stand lit (:func:`rig.vision.calibrate_shade.lit_band`), then with the lamp fitted through
    as few as :data:`LAMP_FEW` die bodies (the blank frame's alone), then with that lamp kept within the bodies'
    own brightness where it would otherwise be refused as implausible (``clamp``, :func:`_lamp_from_bodies`); the
    first refusal stands if those are refused too. The last try of a read-back refused (``asked``, round 17) takes
    the first fit with what a game asks about: a ritual die the reader cannot see on a die-coloured spot of the box
    (:func:`rig.vision.calibrate_readback.asked_about`), one frame's dice read flagged in the lamp's reflection. A
    box bottom whose colours overlap the dice's (:class:`BackgroundError`) is tried with the glare's floor fitted
    without a wall's deep shade, then (``overlap``, round 18) taken down to :data:`MIN_OVERLAP` when every ritual frame
    reads back right and ``ok``; then, on a frog colour, that colour fitted on its frog pixels' cluster farthest from
    the die body (``core``, round 20: the largest was the frog's blend with the body; when it clears the overlap, its
    own refusal stands); last (``bottom``, round 19) the box bottom alone where it is plain: told from the dice's
    colours, the profile is fitted with it as the floor and taken when every ritual die reads back right (round 20),
    else the refusal names the walls and rim (:class:`WallsError`). A frog
    colour the fitted profile finds on hardly any die (:class:`FewFrogError`) is fitted again as the colour most dice
    show (``most``, round 19), then with that fit's own refusal's tries. A ritual die showing no frog
    (:class:`NoFrogError`) is tried
    once more with the dice found apart from their coloured shadows (``shadows``,
    :func:`rig.vision.calibrate_find.ritual_dice`)."""
    kw = dict(empty=empty, n_dice=n_dice, name=name, exposure_us=exposure_us, analogue_gain=analogue_gain,
              colour_gains=colour_gains, thresholds=thresholds)
    try:
        return _fit_profile(samples, lit=False, **kw)
    except CalibrationError as exc:
        walls = cleared = None
        for retry in _retries(exc):
            if retry.get("core") and exc.colour not in COLOURS:
                continue
            retry = {**retry, "core": exc.colour} if retry.get("core") else retry
            try:
                return _fit_profile(samples, **{"lit": False, **retry}, **kw)
            except WallsError as named:
                walls = named
            except CalibrationError as again:
                apart = retry.get("shadows") and isinstance(again, FOUND_APART)
                if not (retry.get("most") or retry.get("core") or apart):
                    continue
                first = BackgroundError if isinstance(exc, BackgroundError) else type(exc)
                if retry.get("core") and not isinstance(again, first) or apart:
                    cleared = again  # the frog told from the box (the violet), or each frog found apart: this refuses
                for then in _retries(again):  # the frog colour most dice show, then that refusal's own tries
                    if then.get("core"):
                        continue
                    try:
                        return _fit_profile(samples, **{"lit": False, **retry, **then}, **kw)
                    except CalibrationError:
                        pass
        if cleared is not None:
            raise cleared from None
        if walls is not None and isinstance(exc, BackgroundError):  # the bottom is plain: name what overlaps
            raise WallsError(walls_advice(exc.colour, exc.separation, walls.separation, MIN_SEPARATION),
                             exc.colour, exc.separation) from None
        raise exc from None


#: refusals after every die and its frog were found apart from the shadows (card table 3902: two lamps' shadows)
FOUND_APART = (BackgroundError, ReadBackError, FewFrogError)


def _retries(exc: CalibrationError) -> tuple[dict, ...]:
    return next((tries for kind, tries in RETRIES.items() if isinstance(exc, kind)), ())


#: the tries after a first refusal, by its kind (the first of them that is accepted is taken; if none is, the first
#: refusal stands): a die's top holding its shadows, the dice looked for apart from those; a read-back refused, the
#: wall's shade narrowed where the dice stand lit, the lamp through the blank frame's dice, that lamp held within
#: them, then (round 13) the glare's floor fitted without a wall's deep shade — not when every die read wrong lies
#: in the lamp's reflection (twin 8211: the refusal's advice, to move the lamp, is right); a frog or the violet
#: like the box bottom, that glare's floor too (card table 2603: the rim and the table, taken for glare, lay on the
#: floor's surface once it was taken off, and passed for floor). Last of all (round 17, ``asked``) the first fit,
#: taking what the read-back misses or misreads where a game asks about it: a die on a die-coloured spot of the box
#: the reader cannot see, when the frame read with the count of dice thrown says so or finds it (card table 3509:
#: a blank die across a violet stripe of the print); one frame with at most two dice read wrong, every one of them
#: flagged in the lamp's reflection, the frame not ``ok`` and every die there (twin 8211: the blue frame's two dice
#: under the lamp's mirror image, every die of the other three frames read right). Last, so every table accepted
#: before takes the same try and fits the same profile. A box bottom the dice's colour overlaps, after the glare's
#: floor without the deep shade, is taken down to :data:`MIN_OVERLAP` when every ritual frame reads back right and
#: ``ok`` (round 18, ``overlap``: 2D table 41008); a frog colour, fitted on its cluster farthest from the die body (round
#: 20, ``core``: twin 10309, seen); then (round 19, ``bottom``) the bottom alone where it is plain, the floor and the
#: background since round 20, taken when every ritual die reads back right, else naming the walls and rim in the
#: refusal (twin 10210). A frog colour found on hardly any die, that colour as most dice show it (round 19, ``most``:
#: twin 10208), then that fit's refusal's own tries. A die read back where no ritual die lies (round 22: card twin
#: 4013, the dark table beyond the rim in a corner read as a die), before ``asked``, ``bottom`` too: the box bottom
#: inside its rim alone (:func:`rig.vision.calibrate_background.plain_bottom`) the floor and the background, taken
#: when every ritual die reads back right. A frog colour like the dice's violet (round 23, :class:`BodyError`: twin 10604,
#: the glare's floor bent by the near wall's shade, the lamp through the bodies sagging), the glare's floor without the
#: deep shade, then that colour's ``core``. A die read back where no ritual die lies, last of all (round 31, ``prints``:
#: card twin 4910, a disc of the floor's print read as a die in shade), where the empty box itself reads as a die kept as
#: the box's print (:func:`rig.vision.calibrate_readback.fit_prints`), with ``asked``.
_READ_BACK = (dict(lit=True), dict(least=LAMP_FEW), dict(least=LAMP_FEW, clamp=True), dict(deep=True))
RETRIES: dict[type[CalibrationError], tuple[dict, ...]] = {
    NoFrogError: (dict(shadows=True),),
    FewFrogError: (dict(most=True),),
    ReflectionError: (dict(lit=True), dict(least=LAMP_FEW), dict(least=LAMP_FEW, clamp=True), dict(asked=True)),
    PhantomError: (*_READ_BACK, dict(bottom=True), dict(asked=True), dict(prints=True, asked=True)),
    ReadBackError: (*_READ_BACK, dict(asked=True)),
    BackgroundError: (dict(deep=True), dict(overlap=True), dict(core=True), dict(bottom=True)),
    BodyError: (dict(deep=True), dict(core=True)),
}


def _fit_profile(samples: Mapping[str, np.ndarray], *, lit: bool, empty: np.ndarray | None, n_dice: int, name: str,
                 exposure_us: int | None, analogue_gain: float | None, colour_gains: tuple[float, float] | None,
                 thresholds: Thresholds | None, least: int = LAMP_MIN, clamp: bool = False,
                 shadows: bool = False, deep: bool = False, asked: bool = False,
                 overlap: bool = False, most: bool = False, bottom: bool = False, core: str = "",
                 prints: bool = False) -> CalibrationReport:
    missing = [f for f in RITUAL if f not in samples]
    if missing:
        raise CalibrationError(f"calibration needs a frame for each of {', '.join(RITUAL)}; missing {', '.join(missing)}")
    extra = sorted(set(samples) - set(RITUAL))
    if extra:
        raise CalibrationError(f"unknown calibration face(s) {', '.join(extra)} (faces: {', '.join(RITUAL)})")
    frames = {k: check_frame(samples[k]) for k in RITUAL}
    if empty is None:
        raise CalibrationError("calibration needs the empty box too: take every die out of the box and capture it "
                               "(the last step of the ritual; `rig calibrate --empty IMAGE`)")
    check_frame(empty)
    shapes = {f.shape for f in frames.values()} | {empty.shape}
    if len(shapes) != 1:
        raise CalibrationError(f"calibration frames differ in size: {sorted(s[:2] for s in shapes)}")
    h, w = next(iter(shapes))[:2]
    t = thresholds or Thresholds()

    for k, f in [*frames.items(), ("empty", empty)]:
        blown = float((f.min(axis=2) >= t.clip_level).mean())
        if blown > 0.015:
            raise CalibrationError(
                f"{k} frame is overexposed: {blown:.1%} of the pixels are blown out white; lower the exposure or the lamp"
            )

    f0 = max(1, w // 320)
    raw = {k: shrink(v, f0) for k, v in frames.items()}
    empty_raw = shrink(empty, f0)
    glare = _fit_glare(empty_raw, deep=deep)

    def unglared(img: np.ndarray) -> np.ndarray:
        return _unglared(img, glare)

    found = {}
    warnings = []
    fr: dict[str, _Frame] = ritual_frames({k: raw[k] for k in RITUAL}, empty_raw, n_dice, f0, shadows)
    for k in RITUAL:
        found[k] = len(fr[k].masks)
        if found[k] < n_dice:
            warnings.append(said(f"{k} frame: found {found[k]} of the {n_dice} dice; is one on a part of the box bottom "
                                 "as violet as the dice? the reader cannot see dice there"))

    # the box floor: its cells' colours and where it is, from the empty box (the light reference);
    # the lamp's gradient from the violet die bodies (a floor's own print would pass for light)
    lamp = _lamp_from_bodies(fr, {k: unglared(v) for k, v in raw.items()}, least, clamp)
    if lamp is None and not deep:  # the bodies give no lamp: is a wall's deep shade bending the glare's floor?
        glare, lamp = _glare_off_shade(empty_raw, glare, fr, raw, least, clamp)
    bare = unglared(empty_raw)
    floor_cells = floor_grid(bare)
    floor = cells(bare)
    if bottom:  # the box bottom alone where it is plain is the floor: not the walls, rim and table beyond of its colour
        floor_cells = plain_bottom(empty_raw, floor_cells)
        if floor_cells is None:
            raise CalibrationError("no plain box bottom")
    if clamp and lamp is None:
        raise CalibrationError("no lamp to keep within the bodies' brightness")
    model = FloorModel.build(floor, floor_cells, lamp)

    def flat(img: np.ndarray) -> np.ndarray:
        return correct(unglared(img), model)[0]

    for k in RITUAL:
        fr[k].small = flat(raw[k])
    empty_small = flat(empty_raw)

    # die size and body colour from the blank frame
    areas = [m.sum() for m in fr["blank"].masks]
    side_small = float(np.sqrt(np.median(areas)))
    top = top_side(frames["blank"], fr["blank"].masks, f0)  # the changed area holds sides and shadow too
    if top is not None:
        side_small = min(side_small, top / f0)
    blank_tops = [_top_pixels(fr["blank"].small, m, side_small) for m in fr["blank"].masks]
    within = within_cov([_lab(p).astype(np.float64) for p in blank_tops])
    body_px = np.concatenate(blank_tops)
    blown = [float((p.min(axis=1) >= t.clip_level).mean()) for p in blank_tops]
    if float((body_px.min(axis=1) >= t.clip_level).mean()) > 0.08 and max(blown) > 0.3 >= 3 * sorted(blown)[-2]:
        cx, cy = fr["blank"].centres[int(np.argmax(blown))]  # one die in the lamp's mirror image: no exposure helps it
        raise CalibrationError(f"blank frame: the lamp's reflection blows out the die at ({cx * f0:.0f}, {cy * f0:.0f}); "
                               "move the lamp farther to the side or diffuse it, or move that die")
    _check_clipped("blank", body_px, t)
    body = ColourModel.fit(_lab(body_px), trim=0.05)

    colours = {}
    fraction = {}
    body_more = [body_px]
    lows = [np.percentile(body_px.min(axis=1), 99)]
    for c in COLOURS:
        frog_px, owner = [], []
        for m, (cx, cy) in zip(fr[c].masks, fr[c].centres):
            top = _top_pixels(fr[c].small, m, side_small)
            lab = _lab(top)
            frog = frog_pixels(lab.astype(np.float64), body.mean, body.cov, within)
            d = lab - np.array(body.mean)
            d2 = np.einsum("ij,jk,ik->i", d, np.linalg.inv(np.array(body.cov)), d)
            if frog.mean() < 0.04:
                raise NoFrogError(f"{c} frame: the die at ({cx * f0:.0f}, {cy * f0:.0f}) shows no frog; turn all six "
                                  f"dice to {c}" + (" — if it is, its light differs from the others' (a second "
                                                    "lamp of another colour, a wall's shade): light the box evenly, "
                                                    "with lamps of one colour" if frog_px else ""))
            frog_px.append(top[frog])
            owner.append(np.full(int(frog.sum()), len(owner)))
            lows.append(np.percentile(top.min(axis=1), 99))
            body_more.append(top[(d2 < 9.0) & ~frog])
        px = np.concatenate(frog_px)
        _check_clipped(c, px, t, share=0.5)
        colours[c] = _fit_mode(_lab(px), np.concatenate(owner) if most else None, body if c == core else None)

    body_px = np.concatenate(body_more)
    body = ColourModel.fit(_lab(body_px), trim=0.03)
    body = dataclasses.replace(body, cov=tuple(  # the lamp lights dice unevenly: allow more L spread
        tuple(v * (1.6 if i == 0 and j == 0 else 1.0) for j, v in enumerate(row)) for i, row in enumerate(body.cov)))
    rng = np.random.default_rng(0)
    edge_bgr = np.clip(body_px.astype(np.float32) * rng.uniform(0.25, 0.68, (len(body_px), 1)), 0, 255)
    edge = ColourModel.fit(_lab(edge_bgr.astype(np.uint8)))
    background = fit_background(fr, empty_small, side_small, rng)
    if bottom:  # the box bottom's colours where it is plain, without its walls and rim: told from the dice's?
        where = in_box(floor_cells, empty_small.shape[:2], grow=False)
        background = fit_background(fr, empty_small, side_small, np.random.default_rng(0), where)
        apart = min(c.separation(m) for c in (body, *colours.values()) for m in background)
        if apart < MIN_SEPARATION:
            raise CalibrationError(f"the box bottom alone overlaps too (separation {apart:.1f})")
        warnings.append(said(f"the box's walls and rim or the table around the box look like the dice; only its "
                             f"bottom (separation {apart:.1f}) is taken as the floor: a die against the walls may be "
                             "asked about"))

    _check_order(colours)
    classes = {"body": body, **colours}
    separation = {}
    names = list(classes)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            separation[f"{a}/{b}"] = classes[a].separation(classes[b])
        separation[f"{a}/background"] = min(classes[a].separation(m) for m in background)
    if min(separation.values()) < MIN_SEPARATION and not bottom:  # the table beyond the box, lifted by the evening, is no floor
        for box in _boxes(floor_cells, empty_raw, empty_small.shape[:2]):
            background = fit_background(fr, empty_small, side_small, np.random.default_rng(0), box)
            separation.update({f"{a}/background": min(classes[a].separation(m) for m in background) for a in names})
            if min(separation.values()) >= MIN_SEPARATION:
                break
    for pair, value in separation.items():
        if value < MIN_SEPARATION and not (overlap and pair.endswith("/background") and value >= MIN_OVERLAP):
            a, b = pair.split("/")
            message = f"{a} and {b} overlap (separation {value:.1f} < {MIN_SEPARATION}): " + _overlap_advice(a, b)
            if b == "background":
                raise BackgroundError(message, a, value)
            if a == "body":
                raise BodyError(body_advice(b, value, MIN_SEPARATION, side_small * f0), b, value)
            raise CalibrationError(message)
    warnings += [said(f"{k} separation only {v:.1f}") for k, v in separation.items() if v < WARN_SEPARATION]

    if thresholds is None:
        t = dataclasses.replace(t, glare_min=int(min(254, np.max(lows) * 1.3 + 16)))
    shade = fit_shade(empty_small, floor_cells, side_small)
    if lit:  # the first fit's read-back was refused: where the ritual dice's tops stand lit, no shade is lifted
        narrowed = lit_band(shade, fr, side_small, np.array(body.mean[1:]))
        if narrowed == shade:
            raise CalibrationError("the shade map is the same")
        shade = narrowed
        warnings.append(said("the wall's shade map narrowed where the ritual dice's tops stand in the lamp's light"))
    profile = Profile(
        name=name, frame_size=(w, h), die_side=side_small * f0 / w, top_area=0.8,
        background=background, body=body, edge=edge, frog_fraction={},
        thresholds=t, exposure_us=exposure_us, analogue_gain=analogue_gain, colour_gains=colour_gains,
        separation={k: round(v, 2) for k, v in separation.items()},
        created=_dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat(),
        blue=colours["blue"], pink=colours["pink"], yellow=colours["yellow"], glare=glare,
        floor=tuple(tuple(tuple(round(float(v), 1) for v in px) for px in row) for row in floor),
        floor_lamp=None if lamp is None else tuple(tuple(round(float(v), 3) for v in row) for row in lamp),
        floor_cells=tuple(tuple(bool(v) for v in row) for row in floor_cells), shade=shade,
    )
    # measure what the reader itself sees as a die top at its working scale
    profile = dataclasses.replace(profile, top_area=_measure_top_area(frames["blank"], profile))
    profile = dataclasses.replace(profile, walls=_fit_walls(frames, profile))
    for c in COLOURS:  # how much of a die top a frog covers, as the reader sees it
        shares = [d.shares[COLOURS.index(c)] for d in read_dice(frames[c], profile).dice]
        fraction[c] = float(np.median(shares)) if shares else 0.0
    for c, share in fraction.items():  # a frog the reader finds on no die would set the thresholds to 0
        if share < 0.05:
            raise FewFrogError(
                f"{c} frame: the fitted profile finds hardly any {c} frog on the dice ({share:.0%} of a top face); "
                f"redo the {c} frame with all six dice {c} frog up, evenly lit"
            )
    if thresholds is None:
        smallest = min(fraction.values())
        t = dataclasses.replace(t, colour_present=round(0.3 * smallest, 4), colour_absent=round(0.1 * smallest, 4))
    profile = dataclasses.replace(profile, thresholds=t, frog_fraction={k: round(v, 4) for k, v in fraction.items()})
    profile = dataclasses.replace(profile, spots=fit_spots(empty, profile))
    profile = fit_prints(empty, profile, warnings) if prints else profile  # the box's print read as a die (round 31)
    test = {}
    veiled = False  # one frame's dice taken as in the lamp's reflection already
    for k in RITUAL:
        reading = read_dice(frames[k], profile)
        test[k] = (reading.faces, reading.status)
        wrong = len([f for f in reading.faces if f != k]) + max(found[k] - len(reading.dice), len(reading.dice) - n_dice, 0)
        if bottom and wrong:
            raise WallsError(f"the {k} frame reads back as {reading.faces}, {reading.status}", "", apart)
        if overlap and (wrong or not overlap_clear(reading)):
            raise BackgroundError(f"the {k} frame reads back as {reading.faces}, {reading.status}")
        said_so = asked_about(k, frames[k], fr[k], f0, reading, profile, wrong, n_dice, veiled) if asked and wrong else None
        sheened = sheen_asked(k, frames[k], reading, profile, wrong, n_dice) if asked and wrong and not said_so else None
        if sheened and not veiled:  # the lamp's mirror image paled a die's top the reader reads unsure: flagged there
            profile, said_so = sheened[0], (sheened[1], True)
        if said_so:
            warnings.append(said_so[0])
            veiled = veiled or said_so[1]
            continue
        if wrong > 1 or wrong and reading.status == "ok":
            ritual = dice_found(fr[k], f0, n_dice)
            advice, faces = readback_advice(k, reading, ritual, frames[k]), reading.faces
            kind = ReflectionError if in_reflection(k, reading, ritual) else ReadBackError
            raise (PhantomError if kind is ReadBackError and phantoms(k, reading, ritual) else kind)(
                said(f"the fitted profile reads the {k} frame back as {faces}; {advice}"))
        if wrong:
            warnings.append(said(f"{k} frame reads back as {reading.faces}: {'; '.join(reading.reasons)}"))
        elif reading.status != "ok":
            warnings.append(said(f"{k} frame reads back uncertain: {'; '.join(reading.reasons)}"))
    return CalibrationReport(profile, found, separation, fraction, test, tuple(warnings))


def _check_order(colours: dict) -> None:
    """Refuse a ritual that contradicts what the dice's colours are (frames swapped or mislabelled):
    blue is bluer than pink (lower Lab b) and less red (lower a); yellow is the lightest and the
    most yellow. White balance and exposure shift all three together, so the order holds."""
    L = {c: colours[c].mean[0] for c in COLOURS}
    a = {c: colours[c].mean[1] for c in COLOURS}
    b = {c: colours[c].mean[2] for c in COLOURS}
    if b["blue"] >= b["pink"] and a["blue"] >= a["pink"]:
        raise CalibrationError("the blue and pink frames look swapped (the 'blue' faces are pinker than the 'pink' "
                               "ones): redo both, blue frog up for blue and pink frog up for pink")
    for c in ("blue", "pink"):
        if L[c] >= L["yellow"] and b[c] >= b["yellow"]:
            raise CalibrationError(f"the yellow frame's faces are not the lightest and most yellow (the {c} frame's "
                                   f"are): the yellow and {c} frames look swapped; redo both")


def _check_clipped(name: str, px: np.ndarray, t: Thresholds, share: float = 0.08) -> None:
    blown = float((px.min(axis=1) >= t.clip_level).mean())
    if blown > share:
        raise CalibrationError(f"{name} frame is overexposed on the dice ({blown:.0%} of die pixels blown out); lower the exposure")


def _fit_walls(frames: Mapping[str, np.ndarray], profile: Profile) -> tuple[float, ...]:
    """How much shaded flank the flat ritual dice show at each place: amount ~ a0 + a1 r and its
    moment ~ k (rx, ry), r the die's offset from the frame centre (perspective shows the side
    walls facing the optical centre, more of them the farther out a die lies)."""
    from rig.vision.dice import _flank, _radial, prepare, read_labels

    rows = []
    loose = dataclasses.replace(profile, thresholds=dataclasses.replace(profile.thresholds, flank_area=1e9,
                                                                         flank_moment=1e9, cocked_aspect=0.0))
    for frame in frames.values():
        work = prepare(frame, loose)
        for obs in read_labels(work, loose).dice:
            if not obs.cocked:
                rows.append((*_radial(obs, work), *_flank(obs, work), obs.aspect))
    if len(rows) < 8:
        return (0.0, 0.0, 0.0, 0.0)
    rx, ry, amount, mx, my, aspect = np.array(rows).T
    r = np.hypot(rx, ry)
    (a0, a1), *_ = np.linalg.lstsq(np.column_stack([np.ones_like(r), r]), amount, rcond=None)
    k = float((mx * rx + my * ry).sum() / max(1e-9, (rx * rx + ry * ry).sum()))
    # keep the flat dice's own spread as a margin: the fit is the middle of what flat dice show
    a0 += float(np.percentile(amount - (a0 + a1 * r), 90))
    # flat dice far out look stretched (a wall shows beside the top): the least aspect seen, per radius
    squash = float(np.clip(np.percentile((0.97 - aspect) / np.maximum(r, 0.05), 90), 0.0, 0.8))
    # how far flat dice stray from the moment model on this table (its lamps' shadows, a busy floor)
    spread = float(np.percentile(np.hypot(mx - k * rx, my - k * ry), 90))
    return (round(float(a0), 4), round(float(max(a1, 0.0)), 4), round(k, 4), round(squash, 4), round(spread, 4))


def _measure_top_area(frame: np.ndarray, profile: Profile) -> float:
    from rig.vision.dice import IS_TOP, prepare

    work = prepare(frame, profile)
    n, _, stats, _ = cv2.connectedComponentsWithStats(cv2.LUT(work.labels, IS_TOP), connectivity=4)
    areas = sorted(stats[1:, cv2.CC_STAT_AREA], reverse=True)[:6]
    if not areas:
        raise CalibrationError("the fitted profile finds no die tops in the blank frame; the samples are not usable")
    return round(float(np.median(areas)) / (work.side**2), 4)
