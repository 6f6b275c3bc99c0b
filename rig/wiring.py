"""The wiring of a rig, generated from its pin map: a table and an SVG diagram.

Every player's input goes to its GPIO; all grounds meet on one ground rail fed from a
header GND pin; break-beams (emitter and receiver) are powered from a 3V3 rail fed from a
header 3V3 pin. Both rails hang off the odd (inner) row of the header, so a pin map on odd
pins only (the recommended one) draws without a single detour.

>>> from rig.config import RigConfig
>>> rows = wiring_table(RigConfig.default())
>>> rows[0]
Connection(player='Ada', part='button', terminal='NO', pin=11, pin_name='GPIO17')
>>> rows[1]
Connection(player='Ada', part='button', terminal='COM', pin=25, pin_name='GND')
>>> svg = render_svg(RigConfig.default())
>>> svg.startswith("<svg") and "Ada" in svg
True
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from rig.config import BCM_PINS, RESERVED_PINS, PlayerInput, RigConfig

__all__ = ["Connection", "HEADER", "GROUND_PINS", "POWER_3V3_PINS", "pin_name", "wiring_table",
           "markdown_table", "render_svg"]

_BCM_AT = {physical: bcm for bcm, physical in BCM_PINS.items()}
GROUND_PINS = (6, 9, 14, 20, 25, 30, 34, 39)
POWER_3V3_PINS = (1, 17)
POWER_5V_PINS = (2, 4)

_SHORT_JOB = {0: "ID_SD", 1: "ID_SC", 2: "SDA", 3: "SCL", 4: "1-Wire", 7: "CE1", 8: "CE0", 9: "MISO",
              10: "MOSI", 11: "SCLK", 14: "TXD", 15: "RXD", 18: "PCM", 19: "PCM", 20: "PCM", 21: "PCM"}


def pin_name(physical: int) -> str:
    """What sits on a header pin: ``"GPIO17"``, ``"GND"``, ``"3V3"`` or ``"5V"``.

    >>> [pin_name(n) for n in (1, 2, 6, 11)]
    ['3V3', '5V', 'GND', 'GPIO17']
    """
    if physical in GROUND_PINS:
        return "GND"
    if physical in POWER_3V3_PINS:
        return "3V3"
    if physical in POWER_5V_PINS:
        return "5V"
    if physical in _BCM_AT:
        return f"GPIO{_BCM_AT[physical]}"
    raise ValueError(f"the header has pins 1 to 40, not {physical}")


HEADER = tuple((n, pin_name(n)) for n in range(1, 41))


@dataclass(frozen=True)
class Connection:
    """One wire: a player's part (``button``, ``receiver``, ``emitter``) terminal to a header pin."""

    player: str
    part: str
    terminal: str
    pin: int
    pin_name: str


def _rail_pins(config: RigConfig) -> tuple[int, int]:
    """The GND and 3V3 header pins the rails hang off: odd row, nearest to the players' pins."""
    odd = [p.physical_pin for p in config.players if p.physical_pin % 2] or [11]
    centre = sum(odd) / len(odd)
    ground = min((g for g in GROUND_PINS if g % 2), key=lambda g: (abs(g - centre), g))
    power = min(POWER_3V3_PINS, key=lambda g: (abs(g - centre), g))
    return ground, power


def wiring_table(config: RigConfig) -> list[Connection]:
    """Every wire of the rig, player by player, in the order to solder them."""
    ground, power = _rail_pins(config)
    rows: list[Connection] = []
    for player in config.players:
        gpio = Connection(player.name, "", "", player.physical_pin, player.pin)
        if player.kind == "button":
            rows += [
                Connection(player.name, "button", "NO", gpio.pin, gpio.pin_name),
                Connection(player.name, "button", "COM", ground, "GND"),
            ]
        else:
            rows += [
                Connection(player.name, "receiver", "signal (white)", gpio.pin, gpio.pin_name),
                Connection(player.name, "receiver", "+ (red)", power, "3V3"),
                Connection(player.name, "receiver", "- (black)", ground, "GND"),
                Connection(player.name, "emitter", "+ (red)", power, "3V3"),
                Connection(player.name, "emitter", "- (black)", ground, "GND"),
            ]
    return rows


def markdown_table(config: RigConfig) -> str:
    """The wiring table as Markdown (what ``rig config wiring --table`` prints)."""
    lines = ["| player | part | terminal | goes to | header pin |", "|---|---|---|---|---|"]
    for row in wiring_table(config):
        to = row.pin_name if row.pin_name.startswith("GPIO") else f"{row.pin_name} rail"
        lines.append(f"| {row.player} | {row.part} | {row.terminal} | {to} | {row.pin} |")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- drawing

_PLAYER_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#e67e00", "#17becf", "#e377c2", "#8c564b")
_GND_COLOUR = "#222222"
_3V3_COLOUR = "#e8590c"
_5V_COLOUR = "#c92a2a"
_FREE_COLOUR = "#3c8d40"
_RESERVED_COLOUR = "#9e9e9e"

P = 28  # header pitch on paper
X0 = 70  # x of header column 0
LABEL = 70  # length of a pin label
TRACK = 16  # spacing of horizontal wire tracks


def _pin_xy(physical: int, y_top: float) -> tuple[float, float]:
    column = (physical - 1) // 2
    return X0 + column * P, (y_top if physical % 2 == 0 else y_top + P)


class _Svg:
    def __init__(self) -> None:
        self.parts: list[str] = []

    def add(self, text: str) -> None:
        self.parts.append(text)

    def line(self, points, colour: str, width: float = 3, dash: str | None = None, net: str = "") -> None:
        path = " ".join(f"{x:g},{y:g}" for x, y in points)
        dashes = f' stroke-dasharray="{dash}"' if dash else ""
        data = f' data-net="{escape(net)}"' if net else ""
        # a white halo underneath makes crossings readable
        self.add(f'<polyline points="{path}" fill="none" stroke="white" stroke-width="{width + 4:g}" '
                 f'stroke-linejoin="round"/>')
        self.add(f'<polyline class="wire"{data} points="{path}" fill="none" stroke="{colour}" '
                 f'stroke-width="{width:g}" stroke-linejoin="round" stroke-linecap="round"{dashes}/>')

    def dot(self, x: float, y: float, colour: str, r: float = 4.5, net: str = "") -> None:
        self.add(f'<circle class="junction" data-net="{escape(net)}" cx="{x:g}" cy="{y:g}" r="{r:g}" '
                 f'fill="{colour}"/>')

    def text(self, x: float, y: float, content: str, size: float = 12, anchor: str = "start",
             colour: str = "#222", weight: str = "normal", rotate: float = 0, family: str = "sans-serif") -> None:
        transform = f' transform="rotate({rotate:g} {x:g} {y:g})"' if rotate else ""
        self.add(f'<text x="{x:g}" y="{y:g}" font-family="{family}" font-size="{size:g}" '
                 f'text-anchor="{anchor}" fill="{colour}" font-weight="{weight}"{transform}>{escape(content)}</text>')

    def rect(self, x, y, w, h, fill, stroke="none", rx=0, extra="") -> None:
        self.add(f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="{rx:g}" fill="{fill}" '
                 f'stroke="{stroke}"{extra}/>')


@dataclass(frozen=True)
class _Terminal:
    player: int
    label: str
    net: str  # "sig", "gnd", "3v3"
    x: float


def _device_layout(players: tuple[PlayerInput, ...], start_x: float) -> tuple[list[tuple[float, float]], list[_Terminal]]:
    """x extent of each player's device box and its terminals (on the half grid, between pin columns)."""
    boxes, terminals = [], []
    x = start_x
    for index, player in enumerate(players):
        if player.kind == "button":
            nets = [("NO", "sig"), ("COM", "gnd")]
        else:
            nets = [("S", "sig"), ("+", "3v3"), ("-", "gnd"), ("+", "3v3"), ("-", "gnd")]
        width = (len(nets) + 1) * P if player.kind == "button" else (len(nets) + 2) * P
        terminal_x = [x + P / 2 + i * P for i in range(len(nets))]
        if player.kind == "beam":  # receiver (3 terminals) | gap | emitter (2)
            terminal_x = [x + P / 2 + i * P for i in range(3)] + [x + P / 2 + (i + 4) * P for i in range(2)]
        for (label, net), tx in zip(nets, terminal_x):
            terminals.append(_Terminal(index, label, net, tx))
        boxes.append((x, x + width - P))
        x += width
    return boxes, terminals


def render_svg(config: RigConfig, *, title: str | None = None) -> str:
    """The wiring diagram of ``config`` as a standalone SVG document."""
    players = config.players
    ground_pin, power_pin = _rail_pins(config)
    has_beam = any(p.kind == "beam" for p in players)
    used = {p.physical_pin: i for i, p in enumerate(players)}
    rails_used = {ground_pin: "gnd"} | ({power_pin: "3v3"} if has_beam else {})

    even_players = [i for i, p in enumerate(players) if p.physical_pin % 2 == 0]
    y_top = 200 + TRACK * len(even_players)  # top row of the header
    y_bottom = y_top + P
    label_end = y_bottom + 12 + LABEL
    tracks_y0 = label_end + 22
    track_y = {i: tracks_y0 + TRACK * i for i in range(len(players))}
    gnd_rail_y = tracks_y0 + TRACK * len(players) + 14
    v33_rail_y = gnd_rail_y + 22
    device_y = v33_rail_y + 40
    device_h = 150

    header_right = X0 + 19 * P
    # detour lanes for even-row pins, right of the header
    lane_x = {i: header_right + P * (k + 1) + P / 4 for k, i in enumerate(even_players)}
    devices_x0 = X0 - P
    boxes, terminals = _device_layout(players, devices_x0)
    rail_right = max([t.x for t in terminals] + [header_right]) + 12
    width = max(header_right + P * (len(even_players) + 2), boxes[-1][1] + P, rail_right + 140, 760) + 30
    height = device_y + device_h + 170

    svg = _Svg()
    svg.add(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" '
            f'viewBox="0 0 {width:g} {height:g}" font-family="sans-serif">')
    svg.rect(0, 0, width, height, "white")
    name = title or (f"Rig wiring: {config.path.name}" if config.path else "Rig wiring")
    svg.text(X0 - 40, 34, name, size=20, weight="bold")
    intro = [
        "Raspberry Pi 40-pin header (J8) seen from above, the board's edge at the top, pin 1 ringed in yellow.",
        f"{len(players)} players. Inputs are active low with the Pi's internal pull-up: no resistors needed.",
        "A dot joins wires; wires crossing without a dot are not connected. "
        "Grey pins have another job (I2C, SPI, UART, audio).",
    ]
    for k, line in enumerate(intro):
        svg.text(X0 - 40, 56 + 17 * k, line, size=12, colour="#555")

    # header body and pins
    svg.rect(X0 - P / 2 - 4, y_top - P / 2 - 4, 20 * P + 8, 2 * P + 8, "#2b2b2b", rx=6)
    for physical, label in HEADER:
        x, y = _pin_xy(physical, y_top)
        if physical in used:
            colour = _PLAYER_COLOURS[used[physical] % len(_PLAYER_COLOURS)]
        elif label == "GND":
            colour = _GND_COLOUR
        elif label == "3V3":
            colour = _3V3_COLOUR
        elif label == "5V":
            colour = _5V_COLOUR
        elif int(label[4:]) in RESERVED_PINS:
            colour = _RESERVED_COLOUR
        else:
            colour = _FREE_COLOUR
        outline = "#ffd43b" if physical == 1 else "white"
        svg.add(f'<circle class="pin" data-pin="{physical}" cx="{x:g}" cy="{y:g}" r="10" fill="{colour}" '
                f'stroke="{outline}" stroke-width="{2 if physical == 1 else 1}"/>')
        svg.text(x, y + 3.5, str(physical), size=9, anchor="middle", colour="white", weight="bold")
        text = label
        if label.startswith("GPIO") and int(label[4:]) in _SHORT_JOB:
            text = f"{label} {_SHORT_JOB[int(label[4:])]}"
        active = physical in used or physical in rails_used
        if active:
            owner = used.get(physical)
            tag = _PLAYER_COLOURS[owner % len(_PLAYER_COLOURS)] if owner is not None else (
                _GND_COLOUR if rails_used.get(physical) == "gnd" else _3V3_COLOUR)
            if physical % 2:
                svg.rect(x - 8, y + 12, 16, LABEL, tag, rx=3)
            else:
                svg.rect(x - 8, y - 12 - LABEL, 16, LABEL, tag, rx=3)
        fill = "white" if active else "#444"
        if physical % 2:
            svg.text(x + 4, y + 22, text, size=10, anchor="end", colour=fill, rotate=-90, weight="bold" if active else "normal")
        else:
            svg.text(x + 4, y - 22, text, size=10, anchor="start", colour=fill, rotate=-90, weight="bold" if active else "normal")

    # rails
    rail_terms = {"gnd": [t.x for t in terminals if t.net == "gnd"], "3v3": [t.x for t in terminals if t.net == "3v3"]}
    for net, pin, rail_y, colour, label in (("gnd", ground_pin, gnd_rail_y, _GND_COLOUR, "GND rail"),
                                            ("3v3", power_pin, v33_rail_y, _3V3_COLOUR, "3V3 rail")):
        if net == "3v3" and not has_beam:
            continue
        px, py = _pin_xy(pin, y_top)
        xs = rail_terms[net] + [px]
        svg.line([(min(xs) - 12, rail_y), (rail_right, rail_y)], colour, width=6, net=net)
        svg.text(rail_right + 8, rail_y + 4, f"{label} (pin {pin})", size=12, colour=colour, weight="bold")
        svg.line([(px, label_end), (px, rail_y)], colour, net=net)
        svg.dot(px, rail_y, colour, r=6, net=net)

    # signal wires, one track each
    term_by_player = {}
    for t in terminals:
        term_by_player.setdefault(t.player, []).append(t)
    for index, player in enumerate(players):
        colour = _PLAYER_COLOURS[index % len(_PLAYER_COLOURS)]
        px, py = _pin_xy(player.physical_pin, y_top)
        sig = next(t for t in term_by_player[index] if t.net == "sig")
        ty = track_y[index]
        if player.physical_pin % 2:
            points = [(px, label_end), (px, ty), (sig.x, ty), (sig.x, device_y)]
        else:  # up over the header, round its right end, back into the tracks
            up_y = y_top - 12 - LABEL - 14 - TRACK * even_players.index(index)
            lx = lane_x[index]
            points = [(px, y_top - 12 - LABEL), (px, up_y), (lx, up_y), (lx, ty), (sig.x, ty), (sig.x, device_y)]
        svg.line(points, colour, net=f"sig:{player.name}")
        svg.dot(px, label_end if player.physical_pin % 2 else y_top - 12 - LABEL, colour, r=3,
                net=f"sig:{player.name}")

    # power/ground drops from the devices to the rails
    for t in terminals:
        if t.net == "gnd":
            svg.line([(t.x, gnd_rail_y), (t.x, device_y)], _GND_COLOUR, width=2.5, net="gnd")
            svg.dot(t.x, gnd_rail_y, _GND_COLOUR, net="gnd")
        elif t.net == "3v3":
            svg.line([(t.x, v33_rail_y), (t.x, device_y)], _3V3_COLOUR, width=2.5, net="3v3")
            svg.dot(t.x, v33_rail_y, _3V3_COLOUR, net="3v3")

    # devices
    for index, (player, (x_left, x_right)) in enumerate(zip(players, boxes)):
        colour = _PLAYER_COLOURS[index % len(_PLAYER_COLOURS)]
        terms = term_by_player[index]
        for t in terms:
            net = f"sig:{player.name}" if t.net == "sig" else t.net
            svg.rect(t.x - 5, device_y - 2, 10, 12, "#bbb", stroke="#555", rx=2,
                     extra=f' class="terminal" data-net="{escape(net)}" data-player="{escape(player.name)}"')
            svg.text(t.x, device_y + 24, t.label, size=11, anchor="middle", weight="bold")
        if player.kind == "button":
            cx = (x_left + x_right) / 2
            svg.rect(x_left, device_y + 30, x_right - x_left, 78, "#f4f4f4", stroke="#888", rx=8)
            svg.add(f'<circle cx="{cx:g}" cy="{device_y + 69:g}" r="26" fill="{colour}" stroke="#333" stroke-width="2"/>')
            svg.add(f'<circle cx="{cx:g}" cy="{device_y + 69:g}" r="17" fill="white" fill-opacity="0.25"/>')
        else:
            rx_right = terms[2].x + P / 2
            ex_left = terms[3].x - P / 2
            svg.rect(x_left, device_y + 30, rx_right - x_left, 78, "#f4f4f4", stroke="#888", rx=8)
            svg.rect(ex_left, device_y + 30, x_right - ex_left, 78, "#f4f4f4", stroke="#888", rx=8)
            svg.text((x_left + rx_right) / 2, device_y + 50, "receiver", size=10, anchor="middle", colour="#555")
            svg.text((ex_left + x_right) / 2, device_y + 50, "emitter", size=10, anchor="middle", colour="#555")
            svg.add(f'<circle cx="{rx_right - 6:g}" cy="{device_y + 78:g}" r="7" fill="#333"/>')
            svg.add(f'<circle cx="{ex_left + 6:g}" cy="{device_y + 78:g}" r="7" fill="#333"/>')
            svg.line([(ex_left, device_y + 78), (rx_right, device_y + 78)], "#e03131", width=2, dash="4 3",
                     net=f"beam:{player.name}")
            svg.text((x_left + x_right) / 2, device_y + 100, "toss slot", size=9, anchor="middle", colour="#c92a2a")
        room = x_right - x_left + P - 6
        svg.text((x_left + x_right) / 2, device_y + 128, player.name, size=min(14, room / (0.62 * len(player.name))),
                 anchor="middle", weight="bold", colour=colour)
        caption = f"{player.pin}, pin {player.physical_pin}"
        svg.text((x_left + x_right) / 2, device_y + 144, caption, size=10, anchor="middle", colour="#555")

    # notes
    notes_y = device_y + device_h + 30
    notes = [
        "Buttons: the microswitch's NO (normally open) terminal to the player's GPIO, COM to the ground rail.",
        "Rails: a terminal strip (lever connectors) or one wire daisy-chained from part to part.",
        "Break-beams: receiver white (signal) to the player's GPIO, red to 3V3, black to ground;"
        " emitter red to 3V3, black to ground.",
        "Power the beams from 3V3 (pin 1 or 17), never 5V, unless the receiver's output is open collector:"
        " a GPIO takes 3.3 V at most.",
        "Check it: rig config check FILE  /  rig doctor --config FILE  /  rig tosses (press each input once).",
    ]
    for k, note in enumerate(notes):
        svg.text(X0 - 40, notes_y + 18 * k, note, size=12, colour="#333")
    svg.add("</svg>")
    return "\n".join(svg.parts) + "\n"
