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


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16])
def test_output_dtypes_are_mindspores(dtype):
    # MindSpore 2.10: MFCC, LFCC and DetectPitchFrequency answer float32 for every float waveform;
    # MuLawDecoding keeps float64 and gives float32 otherwise.
    wave = (np.random.RandomState(0).random_sample([3, 500]) * 10).astype(dtype)
    assert audio.MFCC(4000, 128, 2)(wave).dtype == np.float32
    assert audio.LFCC()(wave).dtype == np.float32
    assert audio.DetectPitchFrequency(30, 0.1, 3, 5, 25)(wave).dtype == np.float32
    assert audio.MuLawDecoding()(wave).dtype == (np.float64 if dtype == np.float64 else np.float32)


def test_spectral_centroid_keeps_float64():
    # MindSpore 2.10's SpectralCentroid keeps a Float64 waveform's dtype (unlike MFCC/LFCC).
    wave = np.random.RandomState(0).random_sample([1, 400])
    assert audio.SpectralCentroid(44100)(wave).dtype == np.float64
