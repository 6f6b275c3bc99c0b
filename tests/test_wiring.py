"""rig.wiring: the wiring table and the generated diagram, checked as geometry (and looked at as a PNG)."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from rig.config import BCM_PINS, RigConfig
from rig.wiring import GROUND_PINS, HEADER, POWER_3V3_PINS, markdown_table, pin_name, render_svg, wiring_table

ROOT = Path(__file__).resolve().parents[1]
NS = {"svg": "http://www.w3.org/2000/svg"}

ODD_AND_EVEN = "".join(
    f'[[players]]\nname = "{name}"\npin = "{pin}"\nkind = "{kind}"\n'
    for name, pin, kind in [
        ("Ada", "GPIO23", "button"),  # even row: needs the detour round the header
        ("Ben", "GPIO24", "beam"),
        ("Cleo", "GPIO17", "button"),
        ("Dev", "GPIO12", "button"),
        ("Eli", "GPIO26", "beam"),
        ("Fay", "GPIO13", "beam"),
        ("Gus", "GPIO16", "button"),
        ("Hannelore-Maximiliane", "GPIO5", "beam"),
    ]
)


def parse(svg: str):
    return ET.fromstring(svg)


def wires(root) -> dict[str, list[list[tuple[float, float]]]]:
    found: dict[str, list] = {}
    for line in root.iterfind(".//svg:polyline[@class='wire']", NS):
        points = [tuple(map(float, p.split(","))) for p in line.get("points").split()]
        found.setdefault(line.get("data-net"), []).append(points)
    return found


def pins(root) -> dict[int, tuple[float, float]]:
    return {int(c.get("data-pin")): (float(c.get("cx")), float(c.get("cy")))
            for c in root.iterfind(".//svg:circle[@class='pin']", NS)}


def terminals(root) -> list[tuple[str, float, float]]:
    return [(r.get("data-net"), float(r.get("x")) + 5, float(r.get("y")) + 2)
            for r in root.iterfind(".//svg:rect[@class='terminal']", NS)]


def segments(points):
    return list(zip(points, points[1:]))


def overlap(a, b) -> bool:
    """Two axis-parallel segments lying on one line and sharing more than a point."""
    (ax1, ay1), (ax2, ay2) = a
    (bx1, by1), (bx2, by2) = b
    if ax1 == ax2 and bx1 == bx2 and abs(ax1 - bx1) < 1:
        lo, hi = max(min(ay1, ay2), min(by1, by2)), min(max(ay1, ay2), max(by1, by2))
        return hi - lo > 1
    if ay1 == ay2 and by1 == by2 and abs(ay1 - by1) < 1:
        lo, hi = max(min(ax1, ax2), min(bx1, bx2)), min(max(ax1, ax2), max(bx1, bx2))
        return hi - lo > 1
    return False


def on_segment(point, seg, tolerance=3.0) -> bool:
    (x, y), ((x1, y1), (x2, y2)) = point, seg
    if x1 == x2:
        return abs(x - x1) <= tolerance and min(y1, y2) - tolerance <= y <= max(y1, y2) + tolerance
    return abs(y - y1) <= tolerance and min(x1, x2) - tolerance <= x <= max(x1, x2) + tolerance


# --------------------------------------------------------------------------- the header and the table


def test_the_header_has_the_pi_pinout():
    names = [name for _, name in HEADER]
    assert len(HEADER) == 40
    assert names.count("GND") == 8 and names.count("3V3") == 2 and names.count("5V") == 2
    assert sorted(int(n[4:]) for n in names if n.startswith("GPIO")) == list(range(28))
    assert all(pin_name(physical) == f"GPIO{bcm}" for bcm, physical in BCM_PINS.items())
    with pytest.raises(ValueError):
        pin_name(41)


def test_wiring_table_for_buttons_and_beams():
    config = RigConfig.load(ROOT / "examples" / "rig.toml")
    rows = wiring_table(config)
    assert len(rows) == 3 * 2 + 2 * 5  # 3 buttons, 2 beams
    for player in config.players:
        mine = [r for r in rows if r.player == player.name]
        signal = [r for r in mine if r.pin_name.startswith("GPIO")]
        assert [(r.pin, r.pin_name) for r in signal] == [(player.physical_pin, player.pin)]
        assert all(r.pin in GROUND_PINS for r in mine if r.pin_name == "GND")
        assert all(r.pin in POWER_3V3_PINS for r in mine if r.pin_name == "3V3")
        if player.kind == "beam":
            assert {r.part for r in mine} == {"receiver", "emitter"}
            assert sum(r.pin_name == "3V3" for r in mine) == 2  # emitter power and receiver power
        else:
            assert [r.terminal for r in mine] == ["NO", "COM"]
    table = markdown_table(config)
    assert table.count("\n") == len(rows) + 2
    assert "| Dev | receiver | signal (white) | GPIO5 | 29 |" in table
    assert "| Dev | emitter | + (red) | 3V3 rail | 17 |" in table


def test_beams_are_never_powered_from_5v():
    rows = wiring_table(RigConfig.parse(ODD_AND_EVEN))
    assert "5V" not in {r.pin_name for r in rows}


# --------------------------------------------------------------------------- the diagram as geometry


@pytest.mark.parametrize("text", ["", ODD_AND_EVEN], ids=["default", "odd-and-even-pins"])
def test_every_signal_wire_runs_from_its_pin_to_its_players_terminal(text):
    config = RigConfig.parse(text)
    root = parse(render_svg(config))
    header = pins(root)
    assert sorted(header) == list(range(1, 41))
    nets = wires(root)
    ends = terminals(root)
    for player in config.players:
        (path,) = nets[f"sig:{player.name}"]
        px, py = header[player.physical_pin]
        start, end = path[0], path[-1]
        assert start[0] == px  # leaves its own pin's column...
        assert (start[1] > py) == (player.physical_pin % 2 == 1)  # ...on that pin's side of the header
        (term,) = [(x, y) for net, x, y in ends if net == f"sig:{player.name}"]
        assert end == pytest.approx(term)
        assert all(a[0] == b[0] or a[1] == b[1] for a, b in segments(path))  # right angles only


@pytest.mark.parametrize("text", ["", ODD_AND_EVEN], ids=["default", "odd-and-even-pins"])
def test_rails_hang_off_a_ground_pin_and_a_3v3_pin_and_reach_every_terminal(text):
    config = RigConfig.parse(text)
    root = parse(render_svg(config))
    header, nets = pins(root), wires(root)
    has_beam = any(p.kind == "beam" for p in config.players)
    for net, allowed in (("gnd", GROUND_PINS), ("3v3", POWER_3V3_PINS)):
        if net == "3v3" and not has_beam:
            assert net not in nets
            continue
        rail = max(nets[net], key=lambda path: abs(path[-1][0] - path[0][0]))  # the long horizontal one
        feed = [path for path in nets[net] if path[0][0] == path[-1][0] and path[0][1] < rail[0][1] - 60]
        (feed,) = feed
        (pin,) = [n for n, (x, _) in header.items() if x == feed[0][0] and n in allowed]
        assert pin in allowed
        rail_y = rail[0][1]
        xs = sorted(p[0] for p in rail)
        for term_net, x, _ in terminals(root):
            if term_net == net:
                assert xs[0] <= x <= xs[-1]
                assert any(path[0] == (x, rail_y) for path in nets[net])  # a drop from the rail to it


@pytest.mark.parametrize("text", ["", ODD_AND_EVEN], ids=["default", "odd-and-even-pins"])
def test_no_two_nets_share_a_line_or_a_junction(text):
    root = parse(render_svg(RigConfig.parse(text)))
    nets = wires(root)
    drawn = [(net, seg) for net, paths in nets.items() if not net.startswith("beam:")
             for path in paths for seg in segments(path)]
    for (net_a, a), (net_b, b) in itertools.combinations(drawn, 2):
        if net_a != net_b:
            assert not overlap(a, b), (net_a, a, net_b, b)
    for dot in root.iterfind(".//svg:circle[@class='junction']", NS):
        point = (float(dot.get("cx")), float(dot.get("cy")))
        for net, seg in drawn:
            if net != dot.get("data-net"):
                assert not on_segment(point, seg), (dot.get("data-net"), point, net, seg)


def test_names_pins_and_reserved_jobs_are_written_on_the_diagram():
    svg = render_svg(RigConfig.parse(ODD_AND_EVEN), title="My table")
    for word in ("My table", "Hannelore-Maximiliane", "GPIO2 SDA", "GPIO14 TXD", "GND rail", "3V3 rail",
                 "receiver", "emitter", "toss slot"):
        assert word in svg
    assert "Hannelore-Maximiliane &amp;" not in svg


def test_names_are_escaped():
    text = ODD_AND_EVEN.replace('"Cleo"', '"C<l>&o"')
    root = parse(render_svg(RigConfig.parse(text)))  # still well-formed XML
    assert any(t.text == "C<l>&o" for t in root.iterfind(".//svg:text", NS))


def test_docs_diagram_is_generated_from_the_example_config():
    """docs/wiring.svg is `rig config wiring examples/rig.toml -o docs/wiring.svg`, not drawn by hand."""
    shipped = (ROOT / "docs" / "wiring.svg").read_text(encoding="utf-8")
    assert shipped == render_svg(RigConfig.load(ROOT / "examples" / "rig.toml"))


def test_building_guide_embeds_the_diagram_and_the_generated_table():
    guide = (ROOT / "docs" / "building.md").read_text(encoding="utf-8")
    assert "](wiring.svg)" in guide
    assert markdown_table(RigConfig.load(ROOT / "examples" / "rig.toml")) in guide
