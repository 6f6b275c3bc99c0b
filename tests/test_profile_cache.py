"""The colour table kept with the profile (issue 28): built once, then read from the cache; the same
table either way; a changed profile or a damaged file never gives a stale table."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from rig import profile_cache
from rig.vision import dice
from rig.vision.profile import Profile, default_profile_path


@pytest.fixture
def env(tmp_path):
    return {"RIG_CACHE_DIR": str(tmp_path / "cache")}


@pytest.fixture(autouse=True)
def fresh_tables():
    dice._LUTS.clear()
    dice._BY_TABLE.clear()
    yield
    dice._LUTS.clear()
    dice._BY_TABLE.clear()


@pytest.fixture(scope="module")
def profile():
    return Profile.load(default_profile_path())


def test_built_once_then_read_from_the_cache_the_same_table(profile, env):
    assert profile_cache.warm_colour_table(profile, env) == "built"
    built = dice.colour_lut(profile).copy()
    assert profile_cache.lut_path(profile, env).exists()
    dice._LUTS.clear()
    dice._BY_TABLE.clear()
    assert profile_cache.warm_colour_table(profile, env) == "cached"
    assert np.array_equal(dice.colour_lut(profile), built)


def test_every_block_is_in_the_cached_table(profile, env):
    profile_cache.warm_colour_table(profile, env)
    cached = np.load(profile_cache.lut_path(profile, env))
    dice._LUTS.clear()
    dice._BY_TABLE.clear()
    fresh = dice.colour_lut(profile)  # built block by block, as frames need them
    builder = dice._LUTS[dice._lut_key(profile)]
    builder.ensure(range(len(builder.built)))
    assert np.array_equal(cached, fresh)


def test_another_profile_has_another_table(profile, env):
    t = profile.thresholds
    other = dataclasses.replace(profile, thresholds=dataclasses.replace(t, class_distance=t.class_distance + 1))
    assert dice.colour_lut_key(other) != dice.colour_lut_key(profile)
    # the die size alone does not change the table: the same key
    assert dice.colour_lut_key(dataclasses.replace(profile, die_side=profile.die_side * 1.1)) == dice.colour_lut_key(profile)


def test_a_damaged_cache_file_is_built_again(profile, env):
    path = profile_cache.lut_path(profile, env)
    path.parent.mkdir(parents=True)
    path.write_bytes(b"\x93NUMPY not really")
    assert profile_cache.warm_colour_table(profile, env) == "built"
    path.write_bytes(b"")
    dice._LUTS.clear()
    np.save(path, np.zeros(5, np.uint8))  # a table of the wrong size
    assert profile_cache.warm_colour_table(profile, env) == "built"
    assert np.load(path).shape == (len(dice._LUTS[dice._lut_key(profile)].built) * 64**3,)


def test_an_unwritable_cache_is_no_error(profile, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    assert profile_cache.warm_colour_table(profile, {"RIG_CACHE_DIR": str(blocker)}) == "not kept"
    assert dice._lut_key(profile) not in dice._LUTS  # nothing built ahead: block by block, as without a cache
    assert dice.colour_lut(profile).shape[0] % 64**3 == 0


def test_the_cache_folder(tmp_path):
    assert profile_cache.cache_dir({"XDG_CACHE_HOME": "/x/cache"}) == profile_cache.Path("/x/cache/rig")
    assert profile_cache.cache_dir({"CACHE_DIRECTORY": "/var/cache/rig"}) == profile_cache.Path("/var/cache/rig")
    assert profile_cache.cache_dir({"RIG_CACHE_DIR": str(tmp_path), "XDG_CACHE_HOME": "/x"}) == tmp_path
