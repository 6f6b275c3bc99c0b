"""Calibration profiles: TOML round trip and refusals."""

import pytest

from rig.vision.errors import ProfileError
from rig.vision.profile import FORMAT, ColourModel, Profile, default_profile_path


@pytest.fixture(scope="module")
def shipped():
    return Profile.load(default_profile_path())


def test_shipped_virtual_profile_loads(shipped):
    assert shipped.format == FORMAT
    assert 30 < shipped.die_px(640) < 80
    assert set(shipped.frog_fraction) == {"blue", "pink", "yellow"}
    assert shipped.blue.separation(shipped.pink) > 3


def test_round_trip(tmp_path, shipped):
    import dataclasses

    glare = (((0, 0, 0), (40, 41, 42)), ((3, 2, 1), (0, 0, 9)))
    p = dataclasses.replace(shipped, exposure_us=8000, analogue_gain=2.5, colour_gains=(1.9, 1.6), name='a "b"',
                            glare=glare)
    path = p.save(tmp_path / "sub" / "p.toml")
    q = Profile.load(path)
    assert q.exposure_us == 8000 and q.analogue_gain == 2.5 and q.colour_gains == (1.9, 1.6)
    assert q.name == 'a "b"'
    assert q.thresholds == p.thresholds
    assert q.body.mean == pytest.approx(p.body.mean, abs=1e-5)
    assert len(q.background) == len(p.background)
    assert q.glare == glare


def test_newer_format_is_refused(tmp_path, shipped):
    text = shipped.to_toml().replace(f"format = {FORMAT}", f"format = {FORMAT + 1}", 1)
    path = tmp_path / "new.toml"
    path.write_text(text)
    with pytest.raises(ProfileError, match=f"format {FORMAT + 1}, newer"):
        Profile.load(path)


def test_missing_bad_and_incomplete_profiles(tmp_path, shipped):
    with pytest.raises(ProfileError, match="profile not found"):
        Profile.load(tmp_path / "nope.toml")
    (tmp_path / "bad.toml").write_text("format = [")
    with pytest.raises(ProfileError, match="not valid TOML"):
        Profile.load(tmp_path / "bad.toml")
    (tmp_path / "noformat.toml").write_text("name = 'x'\n")
    with pytest.raises(ProfileError, match="no integer 'format'"):
        Profile.load(tmp_path / "noformat.toml")
    text = shipped.to_toml().replace("[colours.pink]", "[colours.pinkish]")
    with pytest.raises(ProfileError, match="missing key 'pink'"):
        Profile.parse(text)
    text = shipped.to_toml().replace("[thresholds]", "[thresholds]\nsharpness = 3")
    with pytest.raises(ProfileError, match="unknown threshold"):
        Profile.parse(text)


def test_colour_model_fit_and_separation():
    a = ColourModel.fit([[100, 150, 90], [110, 152, 88], [90, 149, 91], [101, 151, 92]])
    b = ColourModel.fit([[100, 180, 90], [110, 182, 88], [90, 179, 91], [101, 181, 92]])
    assert a.separation(b) > 5 and a.separation(a) == 0
    with pytest.raises(ProfileError):
        ColourModel.fit([[1, 2, 3]])


@pytest.mark.parametrize("table", ["spots", "sheen"])
def test_a_grid_table_round_trips_and_a_bad_one_is_refused_by_its_name(tmp_path, shipped, table):
    import dataclasses

    grid = ((True, False, False), (False, False, True))
    p = dataclasses.replace(shipped, **{table: grid})
    assert getattr(Profile.load(p.save(tmp_path / "p.toml")), table) == grid
    text = p.to_toml().replace('"100"', '"1x0"', 1)
    with pytest.raises(ProfileError, match=rf"bad value \({table}\.cells must be strings"):
        Profile.parse(text, source="bad.toml")
