"""A small preview renderer: a triangle mesh to a shaded PNG (orthographic, a z-buffer in NumPy, Pillow).

No OpenGL, no display: good enough to see what a part looks like in the building guide.

>>> import numpy as np
>>> cube = np.array([[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)], float)
>>> faces = np.array([[0, 1, 3], [0, 3, 2], [4, 6, 7], [4, 7, 5], [0, 4, 5], [0, 5, 1],
...                   [2, 3, 7], [2, 7, 6], [0, 2, 6], [0, 6, 4], [1, 5, 7], [1, 7, 3]])
>>> image = render_mesh(cube, faces, size=64)
>>> image.size, image.getpixel((32, 32)) != image.getpixel((0, 0))
((64, 64), True)
"""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw

BACKGROUND = (246, 246, 244)
COLOUR = np.array([64.0, 132.0, 214.0])  # PLA blue
LIGHT = np.array([-0.5, 0.7, 0.6])  # from the upper left, behind the viewer


def _view(azimuth: float, elevation: float) -> np.ndarray:
    """Rows: the screen's right, up and towards-the-viewer axes in model coordinates."""
    a, e = np.radians(azimuth), np.radians(elevation)
    right = np.array([np.cos(a), np.sin(a), 0.0])
    forward = np.array([-np.sin(a) * np.cos(e), np.cos(a) * np.cos(e), -np.sin(e)])  # from the eye into the scene
    up = np.cross(right, forward)
    return np.stack([right, up, -forward])


def render_mesh(vertices: np.ndarray, faces: np.ndarray, *, size: int = 480, azimuth: float = -35.0,
                elevation: float = 28.0, supersample: int = 2, title: str = "",
                face_colours: np.ndarray | None = None) -> Image.Image:
    """Shaded view of a mesh (vertices N x 3, faces M x 3 indices), the part filling ``size`` px;
    ``face_colours`` (M x 3 RGB) colours each face, else all are PLA blue."""
    verts = np.asarray(vertices, dtype=float)
    tris = verts[np.asarray(faces, dtype=int)]  # M x 3 x 3
    base = np.broadcast_to(COLOUR, (len(tris), 3)) if face_colours is None else np.asarray(face_colours, float)
    normals = np.cross(tris[:, 1] - tris[:, 0], tris[:, 2] - tris[:, 0])
    lengths = np.linalg.norm(normals, axis=1)
    keep = lengths > 1e-12
    tris, normals, base = tris[keep], normals[keep] / lengths[keep, None], base[keep]
    view = _view(azimuth, elevation)
    facing = normals @ view[2] > 0  # back faces point away from the viewer
    tris, normals, base = tris[facing], normals[facing], base[facing]
    screen = tris @ view.T  # M x 3 x (right, up, depth)
    light = view.T @ (LIGHT / np.linalg.norm(LIGHT))  # light fixed to the viewer
    shade = 0.45 + 0.55 * np.clip(normals @ light, 0.0, 1.0)
    full = size * supersample
    lo = screen[..., :2].reshape(-1, 2).min(axis=0) if len(screen) else np.zeros(2)
    hi = screen[..., :2].reshape(-1, 2).max(axis=0) if len(screen) else np.ones(2)
    margin = 0.06 * full
    scale = (full - 2 * margin) / max(float((hi - lo).max()), 1e-9)
    centre = (lo + hi) / 2
    xs = (screen[..., 0] - centre[0]) * scale + full / 2
    ys = full / 2 - (screen[..., 1] - centre[1]) * scale
    zs = screen[..., 2]
    colours = np.clip(base * shade[:, None] * 1.15, 0, 255)
    depth = np.full((full, full), -np.inf)
    pixels = np.empty((full, full, 3))
    pixels[:] = BACKGROUND
    for i in range(len(xs)):  # a z-buffer: each triangle's pixels, nearest wins
        x, y, z = xs[i], ys[i], zs[i]
        x0, x1 = max(int(np.floor(x.min())), 0), min(int(np.ceil(x.max())), full - 1)
        y0, y1 = max(int(np.floor(y.min())), 0), min(int(np.ceil(y.max())), full - 1)
        if x1 < x0 or y1 < y0:
            continue
        det = (y[1] - y[2]) * (x[0] - x[2]) + (x[2] - x[1]) * (y[0] - y[2])
        if abs(det) < 1e-12:
            continue
        gx, gy = np.meshgrid(np.arange(x0, x1 + 1) + 0.5, np.arange(y0, y1 + 1) + 0.5)
        a = ((y[1] - y[2]) * (gx - x[2]) + (x[2] - x[1]) * (gy - y[2])) / det
        b = ((y[2] - y[0]) * (gx - x[2]) + (x[0] - x[2]) * (gy - y[2])) / det
        c = 1.0 - a - b
        inside = (a >= -1e-9) & (b >= -1e-9) & (c >= -1e-9)
        if not inside.any():
            continue
        zz = a * z[0] + b * z[1] + c * z[2]
        window = depth[y0:y1 + 1, x0:x1 + 1]
        nearer = inside & (zz > window)
        window[nearer] = zz[nearer]
        pixels[y0:y1 + 1, x0:x1 + 1][nearer] = colours[i]
    image = Image.fromarray(pixels.astype(np.uint8))
    if supersample > 1:
        image = image.resize((size, size), Image.LANCZOS)
    if title:
        ImageDraw.Draw(image).text((8, 6), title, fill=(40, 40, 40))
    return image
