"""`rig build-parts --out DIR`: the files for each part, parts.txt, and one line without the CAD packages."""

from __future__ import annotations

import sys

import pytest

from rig.cli import main


def test_without_the_cad_packages_one_line_and_exit_2(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "build123d", None)  # import build123d now raises ImportError
    assert main(["build-parts", "--out", str(tmp_path / "parts")]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "pip install -e '.[parts]'" in err
    assert not (tmp_path / "parts").exists()


def test_writes_stl_step_3mf_png_and_the_list(tmp_path, capsys):
    pytest.importorskip("build123d")
    import locale

    encoding = locale.getpreferredencoding(False)
    trimesh = pytest.importorskip("trimesh")
    config = tmp_path / "rig.toml"
    config.write_text('[build]\nseats = 3\nbutton_mm = 24\n'
                      '[[players]]\nname = "Ada"\npin = "GPIO17"\n'
                      '[[players]]\nname = "Ben"\npin = "GPIO27"\nkind = "beam"\n'
                      '[[players]]\nname = "Cleo"\npin = "GPIO22"\n', encoding="utf-8")
    out = tmp_path / "parts"
    assert main(["build-parts", "--config", str(config), "--out", str(out), "--3mf"]) == 0
    printed = capsys.readouterr().out
    assert "parts in" in printed and " s)" in printed  # the time it took
    names = {"camera-holder", "clamp", "arm-elbow", "arm-end", "button-box-1-ada", "button-box-3-cleo",
             "button-base", "beam-clip", "cable-tidy"}
    for name in names:
        for suffix in (".stl", ".step", ".3mf", ".png"):
            assert (out / f"{name}{suffix}").stat().st_size > 0, name + suffix
        assert trimesh.load(out / f"{name}.stl", force="mesh").is_volume
    assert not (out / "button-box-2-ben.stl").exists()  # Ben tosses through a beam
    assert (out / "assembly.png").stat().st_size > 0  # the clamp mount put together
    listing = (out / "parts.txt").read_text()
    assert "beam-clip x2" in listing and "button-base x2" in listing and "upright pole" in listing
    assert (out / "camera-holder.step").read_text(errors="replace").startswith("ISO-10303-21")
    # lib3mf switches the process to the C locale; the rig puts it back (else open() turns ASCII)
    assert locale.getpreferredencoding(False) == encoding


def test_out_must_be_a_folder(tmp_path, capsys):
    pytest.importorskip("build123d")
    target = tmp_path / "file"
    target.write_text("x")
    assert main(["build-parts", "--out", str(target)]) == 2
    assert "is a file" in capsys.readouterr().err
