"""Calibration accepted on more tables (issue 24, round 13): the retries after a refusal chosen by its kind."""

import numpy as np
import pytest

import rig.vision.calibrate as calibrate
from rig.vision.errors import CalibrationError, NoFrogError, ReadBackError


def _tried(monkeypatch, first: CalibrationError) -> list[dict]:
    """The keyword arguments of every fit ``fit_profile`` tries when its first fit is refused with ``first``."""
    tries: list[dict] = []

    def fit(samples, **kw):
        tries.append({k: kw[k] for k in ("lit", "least", "clamp", "shadows") if k in kw})
        raise first if len(tries) == 1 else CalibrationError("refused again")

    monkeypatch.setattr(calibrate, "_fit_profile", fit)
    frame = np.zeros((48, 64, 3), np.uint8)
    with pytest.raises(type(first)) as refused:
        calibrate.fit_profile(dict.fromkeys(calibrate.RITUAL, frame), empty=frame)
    assert refused.value is first  # the first refusal stands, its message as it was
    return tries[1:]


def test_the_retries_are_chosen_by_the_refusals_kind_not_its_text(monkeypatch):
    few = calibrate.LAMP_FEW
    assert _tried(monkeypatch, NoFrogError("pink frame: the die at (3, 4) shows no frog; turn all six dice to pink")) \
        == [dict(lit=False, shadows=True)]
    assert _tried(monkeypatch, ReadBackError("anything at all")) == [
        dict(lit=True), dict(lit=False, least=few), dict(lit=False, least=few, clamp=True)]
    # the same words without the kind: no retry (main matched the text, and retried these)
    assert _tried(monkeypatch, CalibrationError("the fitted profile reads the blue frame back as ['blank']")) == []
    assert _tried(monkeypatch, CalibrationError("blue frame: the die at (1, 2) shows no frog; turn all six dice to ")) == []
