"""dataset.audio filters and level transforms against MindSpore 2.10 (tests/fixtures/dataset_audio/audio.npz)."""
import os
import sys

import numpy as np
import pytest

from sporax.dataset import audio

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "fixtures", "dataset_audio"))
from record_audio import WAVE, run  # noqa: E402  (the recorders import mindspore only when run as scripts)
from record_audio_pointwise import run as run_pointwise  # noqa: E402
from record_mel import run as run_mel  # noqa: E402
from record_spectrogram import run as run_spectrogram  # noqa: E402

FIXTURES = os.path.join(HERE, "..", "fixtures", "dataset_audio")
ORACLE, GOT = {}, {}
for _file, _run in (("audio", run), ("audio_pointwise", run_pointwise), ("spectrogram", run_spectrogram), ("mel", run_mel)):
    for _key, _value in np.load(os.path.join(FIXTURES, _file + ".npz")).items():
        ORACLE[f"{_file}:{_key}"] = _value
    GOT.update({f"{_file}:{key}": value for key, value in _run(audio).items()})


@pytest.mark.parametrize("key", sorted(ORACLE))
def test_matches_oracle(key):
    assert GOT[key].dtype == ORACLE[key].dtype and GOT[key].shape == ORACLE[key].shape
    np.testing.assert_allclose(GOT[key], ORACLE[key], rtol=1e-4, atol=1e-6)


def test_float64_and_pipeline():
    import sporax.dataset as ds

    out = audio.LowpassBiquad(8000, 1000.0)(WAVE.astype(np.float64))
    assert out.dtype == np.float64
    np.testing.assert_allclose(out, ORACLE["audio:lowpass"], rtol=1e-5, atol=1e-6)
    data = ds.NumpySlicesDataset({"wave": WAVE}, shuffle=False).map(audio.BassBiquad(8000, 6.0), ["wave"])
    rows = [row[0] for row in data.create_tuple_iterator(output_numpy=True)]
    np.testing.assert_allclose(np.stack(rows), ORACLE["audio:bass"], rtol=1e-5, atol=1e-6)


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


def test_filter_banks_hold_exact_positive_zeros():
    # MindSpore 2.10 prints these banks with plain 0. (no -0., no 1e-16 residue at the f_max bin)
    mel = audio.melscale_fbanks(5, 0.0, 8000.0, 3, 16000)
    recorded = [[0.0, 0.0, 0.0], [0.0, 0.89278233, 0.10721768], [0.0, 0.0, 0.983659], [0.0, 0.0, 0.4918294],
                [0.0, 0.0, 0.0]]
    np.testing.assert_allclose(mel, recorded, rtol=1e-5, atol=0)
    linear = audio.linear_fbanks(5, 0.0, 8000.0, 3, 16000)
    np.testing.assert_array_equal(linear, np.vstack([np.zeros(3), np.eye(3), np.zeros(3)]))
    for bank in (mel, linear):
        assert not np.signbit(bank).any()
