"""audio.Overdrive, MaskAlongAxis, Filtfilt and RiaaBiquad against MindSpore 2.10 (tests/fixtures/dataset_audio/record_effects.py)."""
import importlib.util
import os

import numpy as np
import pytest

import sporax.dataset.audio as audio

FIXTURES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures", "dataset_audio")
_spec = importlib.util.spec_from_file_location("record_effects", os.path.join(FIXTURES, "record_effects.py"))
RECORDER = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(RECORDER)
EXPECTED = np.load(os.path.join(FIXTURES, "effects.npz"))


@pytest.mark.parametrize("index", range(len(RECORDER.CASES)))
def test_matches_mindspore(index):
    name, args = RECORDER.CASES[index]
    got = getattr(audio, name)(*args)(RECORDER.inputs()[name])
    want = EXPECTED[f"case{index}"]
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_errors():
    spectrogram = np.zeros((2, 5, 6), np.float32)
    with pytest.raises(RuntimeError, match="mask_start"):
        audio.MaskAlongAxis(4, 3, 0.0, 1)(spectrogram)
    with pytest.raises(ValueError, match="mask_width"):
        audio.MaskAlongAxis(0, 0, 1.0, 1)
    with pytest.raises(ValueError, match="axis"):
        audio.MaskAlongAxis(0, 1, 1.0, 3)
    with pytest.raises(ValueError, match="gain"):
        audio.Overdrive(gain=120.0)
