"""audio.MFCC, audio.LFCC and audio.SpectralCentroid against MindSpore 2.10
(tests/fixtures/dataset_audio/record_cepstral.py)."""
import importlib.util
import os

import numpy as np
import pytest

import sporax.dataset.audio as audio

FIXTURES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures", "dataset_audio")
_spec = importlib.util.spec_from_file_location("record_cepstral", os.path.join(FIXTURES, "record_cepstral.py"))
RECORDER = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(RECORDER)


def test_matches_mindspore():
    expected = np.load(os.path.join(FIXTURES, "cepstral.npz"))
    for index, got in enumerate(RECORDER.outputs(audio)):
        want = expected[f"case{index}"]
        assert got.shape == want.shape and got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-3)


def test_errors():
    with pytest.raises(ValueError, match="n_mfcc"):
        audio.MFCC(n_mfcc=200)
    with pytest.raises(ValueError, match="dct_type"):
        audio.LFCC(dct_type=3)
    with pytest.raises(ValueError, match="sample_rate"):
        audio.SpectralCentroid(0)
