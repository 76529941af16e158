"""dataset.audio filters and level transforms against MindSpore 2.10 (tests/fixtures/dataset_audio/audio.npz)."""
import os
import sys

import numpy as np
import pytest

from sporax.dataset import audio

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "fixtures", "dataset_audio"))
from record_audio import CASES, WAVE, run  # noqa: E402  (imports mindspore only when run as a script)

ORACLE = np.load(os.path.join(HERE, "..", "fixtures", "dataset_audio", "audio.npz"))
GOT = run(audio)


@pytest.mark.parametrize("key", sorted(CASES))
def test_matches_oracle(key):
    assert GOT[key].dtype == ORACLE[key].dtype and GOT[key].shape == ORACLE[key].shape
    np.testing.assert_allclose(GOT[key], ORACLE[key], rtol=1e-5, atol=1e-6)


def test_float64_and_pipeline():
    import sporax.dataset as ds

    out = audio.LowpassBiquad(8000, 1000.0)(WAVE.astype(np.float64))
    assert out.dtype == np.float64
    np.testing.assert_allclose(out, ORACLE["lowpass"], rtol=1e-5, atol=1e-6)
    data = ds.NumpySlicesDataset({"wave": WAVE}, shuffle=False).map(audio.BassBiquad(8000, 6.0), ["wave"])
    rows = [row[0] for row in data.create_tuple_iterator(output_numpy=True)]
    np.testing.assert_allclose(np.stack(rows), ORACLE["bass"], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("make, error", [
    (lambda: audio.BassBiquad(0, 1.0), ValueError),
    (lambda: audio.BassBiquad(8000, 1.0, Q=1.5), ValueError),
    (lambda: audio.LowpassBiquad(8000.0, 100.0), TypeError),
    (lambda: audio.Biquad(1, 0, 0, 0, 0, 0), ValueError),
    (lambda: audio.LFilter([1.0, 0.5], [1.0]), ValueError),
    (lambda: audio.AmplitudeToDB(stype="power"), TypeError),
    (lambda: audio.AmplitudeToDB(amin=0), ValueError),
])
def test_bad_arguments(make, error):
    with pytest.raises(error):
        make()


from record_audio_more import run as run_more  # noqa: E402

ORACLE_MORE = np.load(os.path.join(HERE, "..", "fixtures", "dataset_audio", "audio_more.npz"))
GOT_MORE = run_more(audio)


@pytest.mark.parametrize("key", sorted(ORACLE_MORE))
def test_pointwise_matches_oracle(key):
    assert GOT_MORE[key].dtype == ORACLE_MORE[key].dtype and GOT_MORE[key].shape == ORACLE_MORE[key].shape
    np.testing.assert_allclose(GOT_MORE[key], ORACLE_MORE[key], rtol=1e-5, atol=1e-6)


from record_spectrogram import run as run_spectrogram  # noqa: E402

ORACLE_SPECTROGRAM = np.load(os.path.join(HERE, "..", "fixtures", "dataset_audio", "spectrogram.npz"))
GOT_SPECTROGRAM = run_spectrogram(audio)


@pytest.mark.parametrize("key", sorted(ORACLE_SPECTROGRAM))
def test_spectrogram_matches_oracle(key):
    got, expected = GOT_SPECTROGRAM[key], ORACLE_SPECTROGRAM[key]
    assert got.dtype == expected.dtype and got.shape == expected.shape
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-5)


from record_mel import run as run_mel  # noqa: E402

ORACLE_MEL = np.load(os.path.join(HERE, "..", "fixtures", "dataset_audio", "mel.npz"))
GOT_MEL = run_mel(audio)


@pytest.mark.parametrize("key", sorted(ORACLE_MEL))
def test_mel_matches_oracle(key):
    got, expected = GOT_MEL[key], ORACLE_MEL[key]
    assert got.dtype == expected.dtype and got.shape == expected.shape
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-6)
