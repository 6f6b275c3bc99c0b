"""Path-tracing a shot of the twin with Mitsuba 3, and developing it as a Pi camera does.

:func:`radiance` builds the Mitsuba scene of one shot (the box floor with its print, four walls,
one or two area lamps of a colour temperature, the dice as glossy rough-plastic cubes whose six
faces carry their printed icons) and path-traces it into linear RGB (cached by the caller).
:func:`develop` is the camera after the lens: exposure, the lamp's drift, a locked white balance,
the Bayer mosaic with shot and read noise, demosaic, sRGB, JPEG — a BGR frame like the rig's.

``scalar_rgb`` runs anywhere; ``llvm_ad_rgb`` is about twice as fast but needs an LLVM that works
with Dr.Jit (Debian's libllvm19, ``DRJIT_LIBLLVM_PATH`` pointing at it; older LLVMs crash):
``RIG_TWIN_VARIANT=llvm_ad_rgb``.
"""

from __future__ import annotations

import math
import os

import cv2
import numpy as np

from rig.errors import RigError
from rig.twin.physics import DIE, NORMALS

#: the Camera Module 3's horizontal field of view (degrees) over its whole 4608 px sensor
FULL_HFOV = 66.0
CARD_SIZE = (0.063, 0.088)  # a player card (m)
SKIN = (140.0, 168.0, 222.0)  # a hand's albedo (sRGB, BGR)


def _mitsuba():
    try:
        import mitsuba as mi
    except ImportError:
        raise RigError("the twin needs Mitsuba 3: pip install -e '.[twin]'") from None
    variant = os.environ.get("RIG_TWIN_VARIANT", "scalar_rgb")
    if mi.variant() != variant:
        try:
            mi.set_variant(variant)
        except Exception as exc:  # noqa: BLE001 - Mitsuba raises plain errors for a variant it cannot run
            raise RigError(f"Mitsuba variant {variant}: {exc}") from None
    return mi


def kelvin_rgb(kelvin: float) -> np.ndarray:
    """Linear RGB of a black body at ``kelvin`` (2700-6500 K), green normalised to 1 (T. Helland's fit)."""
    t = kelvin / 100.0
    r = 255.0 if t <= 66 else 329.698727446 * (t - 60) ** -0.1332047592
    g = 99.4708025861 * math.log(t) - 161.1195681661 if t <= 66 else 288.1221695283 * (t - 60) ** -0.0755148492
    b = 255.0 if t >= 66 else (0.0 if t <= 19 else 138.5177312231 * math.log(t - 10) - 305.0447927307)
    srgb = np.clip(np.array([r, g, b]) / 255.0, 1e-3, 1.0)
    lin = np.where(srgb <= 0.04045, srgb / 12.92, ((srgb + 0.055) / 1.055) ** 2.4)
    return lin / lin[1]


def to_linear(bgr: np.ndarray) -> np.ndarray:
    """An sRGB BGR uint8 image as linear RGB float32 (for a texture)."""
    s = bgr[..., ::-1].astype(np.float32) / 255.0
    return np.ascontiguousarray(np.where(s <= 0.04045, s / 12.92, ((s + 0.055) / 1.055) ** 2.4), np.float32)


def _frame(mi, centre, x_axis, y_axis, normal):
    m = np.eye(4)
    m[:3, 0], m[:3, 1], m[:3, 2], m[:3, 3] = x_axis, y_axis, normal, centre
    return mi.ScalarTransform4f(m.tolist())


def camera_pose(table) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(origin, target, up) of the camera in the tray's frame (m)."""
    c = table.camera
    origin = np.array([c["x"], c["y"], c["height"]])
    tx, ty = math.radians(c["tilt_x"]), math.radians(c["tilt_y"])
    target = origin + np.array([math.sin(ty), math.sin(tx), -1.0]) * c["height"]
    target[2] = 0.0
    return origin, target, np.array([0.0, 1.0, 0.0])


def project(table, points: np.ndarray) -> np.ndarray:
    """Image pixels (x right, y down) of world points (N x 3) through the twin's camera."""
    origin, target, up = camera_pose(table)
    fwd = target - origin
    fwd /= np.linalg.norm(fwd)
    left = np.cross(up, fwd)
    left /= np.linalg.norm(left)
    cam_up = np.cross(fwd, left)
    w, h = table.size
    f = (w / 2) / math.tan(math.radians(table.camera["fov"]) / 2)
    rel = np.asarray(points, float) - origin
    z = rel @ fwd
    x = -(rel @ left) / z * f + w / 2
    y = -(rel @ cam_up) / z * f + h / 2
    return np.stack([x, y], axis=1)


def radiance(table, dice, *, spp: int, seed: int = 0, cards=(), hand=None, props=()) -> np.ndarray:
    """Path-trace one shot: linear RGB float32 (H x W x 3) of ``dice`` (:class:`~rig.twin.physics.DiePose`) in
    ``table``; ``props``: ``add(mi, scene, key)`` callables for other things on the floor."""
    mi = _mitsuba()
    w, h = table.size
    origin, target, up = camera_pose(table)
    tw, th = table.tray
    scene = {
        "type": "scene",
        "integrator": {"type": "path", "max_depth": 5},
        "sensor": {
            "type": "perspective", "fov": table.camera["fov"], "fov_axis": "x",
            "to_world": mi.ScalarTransform4f().look_at(origin=origin.tolist(), target=target.tolist(), up=up.tolist()),
            "film": {"type": "hdrfilm", "width": w, "height": h, "rfilter": {"type": "gaussian"}},
            "sampler": {"type": "independent", "sample_count": spp, "seed": seed},
        },
        "floor": {
            "type": "rectangle", "to_world": mi.ScalarTransform4f().scale([tw / 2, th / 2, 1.0]),
            "bsdf": _floor_bsdf(table),
        },
        "outside": {
            "type": "rectangle",
            "to_world": mi.ScalarTransform4f().translate([0, 0, table.wall + 0.0005]).scale([1.0, 1.0, 1.0]),
            "bsdf": {"type": "diffuse", "reflectance": {"type": "rgb", "value": table.outside}},
        },
    }
    # the table top around the box (a hole where the box is: four strips at the walls' height)
    t = 0.012  # the walls' thickness
    big = 1.0
    strips = [((tw / 2 + t + big) / 2, 0, (big - tw / 2 - t) / 2, big), (-(tw / 2 + t + big) / 2, 0, (big - tw / 2 - t) / 2, big),
              (0, (th / 2 + t + big) / 2, tw / 2 + t, (big - th / 2 - t) / 2), (0, -(th / 2 + t + big) / 2, tw / 2 + t, (big - th / 2 - t) / 2)]
    del scene["outside"]
    for i, (x, y, hx, hy) in enumerate(strips):
        scene[f"table{i}"] = {"type": "rectangle",
                              "to_world": mi.ScalarTransform4f().translate([x, y, table.wall]).scale([hx, hy, 1.0]),
                              "bsdf": {"type": "diffuse", "reflectance": {"type": "rgb", "value": table.outside}}}
    wall_bsdf = {"type": "diffuse", "reflectance": {"type": "rgb", "value": table.wall_colour}}
    for i, (x, y, hx, hy) in enumerate(((tw / 2 + t / 2, 0, t / 2, th / 2 + t), (-tw / 2 - t / 2, 0, t / 2, th / 2 + t),
                                        (0, th / 2 + t / 2, tw / 2, t / 2), (0, -th / 2 - t / 2, tw / 2, t / 2))):
        scene[f"wall{i}"] = {"type": "cube", "bsdf": wall_bsdf,
                             "to_world": mi.ScalarTransform4f().translate([x, y, table.wall / 2]).scale([hx, hy, table.wall / 2])}
    for i, lamp in enumerate(table.lamps):
        colour = (kelvin_rgb(lamp["kelvin"]) * lamp["power"]).tolist()
        scene[f"lamp{i}"] = {
            "type": "rectangle",
            "to_world": mi.ScalarTransform4f().look_at(origin=lamp["at"], target=[lamp["at"][0] * 0.5, lamp["at"][1] * 0.5, 0],
                                                       up=[0, 1, 0]).scale([lamp["size"] / 2, lamp["size"] / 2, 1.0]),
            "emitter": {"type": "area", "radiance": {"type": "rgb", "value": colour}},
        }
    scene["sky"] = {"type": "constant", "radiance": {"type": "rgb", "value": [table.ambient] * 3}}
    for k, die in enumerate(dice):
        _add_die(mi, scene, k, die, table)
    for k, card in enumerate(cards):
        _add_card(mi, scene, k, card, table)
    if hand is not None:
        _add_hand(mi, scene, hand, table)
    for k, add in enumerate(props):
        add(mi, scene, f"prop{k}")
    # (Mitsuba's scene optimisation merges shapes in an order that changes from load to load, and with it the lamps'
    # order in emitter sampling: the same shot came out with other noise in every process, and calibrated
    # differently; unmerged, the scene keeps the order it is described in)
    img = mi.render(mi.load_dict(scene, optimize=False), spp=spp, seed=seed)
    return np.asarray(img, np.float32)[..., :3]


def _floor_bsdf(table) -> dict:
    mi = _mitsuba()
    tex = {"type": "bitmap", "bitmap": mi.Bitmap(to_linear(table.floor_print)), "raw": True, "filter_type": "bilinear"}
    if table.varnished:
        return {"type": "roughplastic", "alpha": 0.06, "diffuse_reflectance": tex}
    return {"type": "diffuse", "reflectance": tex}


def _add_die(mi, scene: dict, k: int, die, table) -> None:
    rot = np.asarray(die.rotation)
    centre = np.asarray(die.centre)
    a = DIE / 2
    for i, (normal, face) in enumerate(zip(NORMALS, die.faces())):
        n = rot @ normal
        # the face's own axes: any two perpendicular to its normal, turned with the die
        helper = np.array([0.0, 0.0, 1.0]) if abs(normal[2]) < 0.9 else np.array([0.0, 1.0, 0.0])
        u = rot @ np.cross(helper, normal)
        v = np.cross(n, u)
        scene[f"die{k}_{i}"] = {
            "type": "rectangle",
            "to_world": _frame(mi, centre + n * a, u * a, v * a, n),
            "bsdf": {"type": "roughplastic", "alpha": table.gloss,
                     "diffuse_reflectance": {"type": "bitmap", "bitmap": mi.Bitmap(table.face_texture(face)), "raw": True}},
        }


def _add_card(mi, scene: dict, k: int, card: dict, table) -> None:
    a = math.radians(card["angle"])
    u = np.array([math.cos(a), math.sin(a), 0.0]) * CARD_SIZE[0] / 2
    v = np.array([-math.sin(a), math.cos(a), 0.0]) * CARD_SIZE[1] / 2
    scene[f"card{k}"] = {
        "type": "rectangle",
        "to_world": _frame(mi, np.array([card["x"], card["y"], card["z"]]), u, v, np.array([0.0, 0.0, 1.0])),
        "bsdf": {"type": "roughplastic", "alpha": 0.35,
                 "diffuse_reflectance": {"type": "bitmap", "bitmap": mi.Bitmap(table.card_texture(card["card"])), "raw": True}},
    }
    scene[f"cardback{k}"] = {  # its thickness: a dark edge under the print
        "type": "cube", "bsdf": {"type": "diffuse", "reflectance": {"type": "rgb", "value": [0.3, 0.3, 0.3]}},
        "to_world": _frame(mi, np.array([card["x"], card["y"], card["z"] / 2]), u, v, np.array([0.0, 0.0, card["z"] / 2 - 1e-5])),
    }


def _add_hand(mi, scene: dict, hand: dict, table) -> None:
    """A hand over the box: the palm a flat box, the forearm a cylinder to the nearest table edge."""
    skin = {"type": "diffuse", "reflectance": {"type": "rgb", "value": (to_linear(np.array([[SKIN]], np.uint8))[0, 0]).tolist()}}
    p = np.array([hand["x"], hand["y"], hand["z"]])
    w, h = table.tray
    edges = {(p[0], -h / 2 - 0.15): p[1] + h / 2, (p[0], h / 2 + 0.15): h / 2 - p[1],
             (-w / 2 - 0.15, p[1]): p[0] + w / 2, (w / 2 + 0.15, p[1]): w / 2 - p[0]}
    ex, ey = min(edges, key=edges.get)
    scene["palm"] = {"type": "cube", "bsdf": skin,  # a flat box: palm and fingers together
                     "to_world": mi.ScalarTransform4f().translate(p.tolist()).scale([0.045, 0.045, 0.012])}
    scene["arm"] = {"type": "cylinder", "radius": 0.028, "p0": p.tolist(), "p1": [ex, ey, p[2] + 0.08], "bsdf": skin}


def develop(rgb: np.ndarray, table, *, exposure: float, gains: np.ndarray, lamp: float = 1.0,
            cast: np.ndarray | None = None, seed: int = 0) -> np.ndarray:
    """The camera after the lens: ``rgb`` (linear) times ``lamp`` (the lamp dimmed or brightened) and
    ``cast`` (its colour drifting), times ``exposure`` and the locked white-balance ``gains``; then
    the sensor's Bayer mosaic with shot and read noise, demosaic, sRGB and JPEG. BGR uint8."""
    rng = np.random.default_rng([9173, seed])
    x = rgb * lamp * exposure
    if cast is not None:
        x = x * cast
    x = x * gains
    h, w = x.shape[:2]
    # the RGGB mosaic, the sensor's noise on it (photon shot noise grows with the signal)
    bayer = np.empty((h, w), np.float32)
    bayer[0::2, 0::2] = x[0::2, 0::2, 0]
    bayer[0::2, 1::2] = x[0::2, 1::2, 1]
    bayer[1::2, 0::2] = x[1::2, 0::2, 1]
    bayer[1::2, 1::2] = x[1::2, 1::2, 2]
    noise = table.noise
    bayer = bayer + rng.normal(0, 1, bayer.shape).astype(np.float32) * np.sqrt(noise * np.maximum(bayer, 0) + (noise * 0.2) ** 2)
    raw = np.clip(bayer * 1023, 0, 1023).astype(np.uint16)
    rgb_out = cv2.demosaicing(raw, cv2.COLOR_BayerRGGB2RGB).astype(np.float32) / 1023
    srgb = np.where(rgb_out <= 0.0031308, rgb_out * 12.92, 1.055 * np.power(np.maximum(rgb_out, 0), 1 / 2.4) - 0.055)
    bgr = np.clip(srgb[..., ::-1] * 255 + 0.5, 0, 255).astype(np.uint8)
    ok, jpg = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, table.jpeg])
    return cv2.imdecode(jpg, cv2.IMREAD_COLOR)
