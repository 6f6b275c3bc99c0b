"""What the virtual table shows: the colours of the box, dice and cards, the lamp (:class:`Lighting`),
the dice, hand and card placed (:class:`Scene`) and what is truly there (:class:`Truth`) (issue 29:
split from :mod:`rig.vision.render`, which re-exports every name).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from rig.vision.errors import VisionError
from rig.vision.profile import FACE_NAMES

CARD_NAMES = ("blue", "pink", "yellow", "blank", "gray")

# Albedo (reflectance under white light) in BGR, 0..255.
FLOOR = (128.0, 121.0, 113.0)  # grey "lunar surface" print of the box bottom
WALL = (104.0, 98.0, 93.0)
BODY = (168.0, 74.0, 124.0)  # violet die body
FROG = {
    "blue": (222.0, 122.0, 38.0),
    "pink": (160.0, 80.0, 238.0),
    "yellow": (40.0, 212.0, 244.0),
}
SKIN = (140.0, 168.0, 222.0)
CARD = {
    "blue": FROG["blue"],
    "pink": FROG["pink"],
    "yellow": FROG["yellow"],
    "blank": BODY,
    "gray": (176.0, 176.0, 172.0),
}

WALL_FRACTION = 0.055  # width of the visible box wall band, as a fraction of the frame width
DIE_SIDE = 52.0  # die side in px at 640x480 (the design's 40-100 px at the working resolution)


@dataclass(frozen=True)
class Lighting:
    """How the table is lit and seen: white balance, exposure, lamp, shadows, glare, noise, JPEG.

    ``gains`` multiply B, G, R; ``gradient`` is the brightness slope (fraction per half
    frame) along x and y; ``shadow`` is the shadow offset in die sides (dx, dy) and
    ``shadow_strength`` how much light it takes; ``glare`` spots are ``(x, y, radius,
    strength)`` with x, y, radius as fractions of the frame width/height; ``noise`` is the
    sensor noise sigma in grey levels; ``jpeg`` the JPEG quality (None: no compression).
    """

    name: str = "neutral"
    gains: tuple[float, float, float] = (1.0, 1.0, 1.0)
    brightness: float = 1.0
    gradient: tuple[float, float] = (0.08, 0.04)
    vignette: float = 0.18
    shadow: tuple[float, float] = (0.12, 0.16)
    shadow_strength: float = 0.35
    glare: tuple[tuple[float, float, float, float], ...] = ()
    noise: float = 2.5
    jpeg: int | None = 85

    def replace(self, **changes) -> Lighting:
        return dataclasses.replace(self, **changes)


#: The named lighting conditions the benchmark runs through.
LIGHTINGS: dict[str, Lighting] = {
    "neutral": Lighting("neutral"),
    "warm": Lighting("warm", gains=(0.72, 0.96, 1.18), brightness=0.95, shadow=(0.18, 0.1)),
    "cool": Lighting("cool", gains=(1.2, 1.02, 0.8), brightness=1.0, shadow=(-0.1, 0.18)),
    "dim": Lighting("dim", brightness=0.42, noise=6.0, jpeg=75, shadow_strength=0.3),
    "bright": Lighting("bright", brightness=1.38, noise=2.0, shadow=(0.08, -0.12)),
    "lamp": Lighting(
        "lamp", gains=(0.85, 0.98, 1.08), brightness=1.0, gradient=(0.42, 0.22), vignette=0.3,
        shadow=(0.32, 0.2), shadow_strength=0.5,
    ),
    "glare": Lighting(
        "glare", brightness=0.95,
        glare=((0.3, 0.35, 0.07, 150.0), (0.72, 0.62, 0.05, 120.0), (0.55, 0.2, 0.1, 70.0)),
        shadow=(0.15, 0.15),
    ),
    "mixed": Lighting(
        "mixed", gains=(0.78, 0.97, 1.12), brightness=0.6, gradient=(-0.35, 0.3), vignette=0.3,
        shadow=(-0.25, 0.25), shadow_strength=0.45, glare=((0.62, 0.4, 0.06, 110.0),), noise=4.5, jpeg=70,
    ),
}


@dataclass(frozen=True)
class PlacedDie:
    """A die on the table: the face up, the top face's centre (px), rotation (degrees).

    A ``cocked`` die leans by ``tilt`` degrees; its side face (showing ``side_face``) is
    visible next to the foreshortened top face.
    """

    face: str
    x: float
    y: float
    angle: float = 0.0
    cocked: bool = False
    tilt: float = 0.0
    side_face: str = "blank"

    def __post_init__(self) -> None:
        if self.face not in FACE_NAMES:
            raise VisionError(f"unknown die face {self.face!r} (faces: {', '.join(FACE_NAMES)})")


@dataclass(frozen=True)
class Hand:
    """A hand reaching in from the frame edge nearest (x, y), fingertips at (x, y)."""

    x: float
    y: float


@dataclass(frozen=True)
class PlacedCard:
    """A player card lying face up: colour name, centre (px), rotation (degrees)."""

    card: str
    x: float
    y: float
    angle: float = 0.0

    def __post_init__(self) -> None:
        if self.card not in CARD_NAMES:
            raise VisionError(f"unknown card {self.card!r} (cards: {', '.join(CARD_NAMES)})")


@dataclass(frozen=True)
class TrueDie:
    face: str
    x: float
    y: float
    cocked: bool = False


@dataclass(frozen=True)
class Truth:
    """What a rendered frame shows, in the rendered frame's pixels."""

    dice: tuple[TrueDie, ...]
    hand: bool = False
    card: str | None = None

    @property
    def faces(self) -> list[str]:
        return sorted(d.face for d in self.dice)

    @property
    def should_be_uncertain(self) -> bool:
        """A reader must flag this frame (cocked die, hand or card in view)."""
        return self.hand or self.card is not None or any(d.cocked for d in self.dice)

    def to_dict(self) -> dict:
        return {
            "dice": [dataclasses.asdict(d) for d in self.dice],
            "hand": self.hand,
            "card": self.card,
        }


@dataclass(frozen=True)
class Scene:
    """Everything on the table, in pixels of a ``size`` frame (rendering may rescale)."""

    dice: tuple[PlacedDie, ...] = ()
    lighting: Lighting = field(default_factory=Lighting)
    size: tuple[int, int] = (640, 480)
    die_side: float = DIE_SIDE
    hand: Hand | None = None
    card: PlacedCard | None = None
    texture_seed: int = 0
    #: cards laid before ``card`` (in a row beside it, or under it on a pile), drawn in order below it
    laid: tuple[PlacedCard, ...] = ()

    def replace(self, **changes) -> Scene:
        return dataclasses.replace(self, **changes)

    def with_die(self, die: PlacedDie) -> Scene:
        return dataclasses.replace(self, dice=self.dice + (die,))

    def truth(self, size: tuple[int, int] | None = None) -> Truth:
        k = _scale(self, size)
        return Truth(
            dice=tuple(TrueDie(d.face, d.x * k, d.y * k, d.cocked) for d in self.dice),
            hand=self.hand is not None,
            card=self.card.card if self.card else None,
        )


def _scale(scene: Scene, size: tuple[int, int] | None) -> float:
    return 1.0 if size is None else size[0] / scene.size[0]


def floor_rect(size: tuple[int, int]) -> tuple[float, float, float, float]:
    """The box bottom inside the walls: (x0, y0, x1, y1) in px."""
    b = WALL_FRACTION * size[0]
    return b, b, size[0] - b, size[1] - b
