"""audio.Overdrive, MaskAlongAxis, Filtfilt, RiaaBiquad, Time/FrequencyMasking, Resample, PhaseVocoder, PitchShift,
TimeStretch, InverseSpectrogram and SlidingWindowCmn against MindSpore 2.10 (tests/fixtures/dataset_audio/record_effects.py)."""
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
    got = RECORDER.make(audio, name, args)(RECORDER.inputs()[name])
    want = EXPECTED[f"case{index}"]
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)  # MindSpore accumulates in float32


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
    with pytest.raises(NotImplementedError, match="center"):
        audio.InverseSpectrogram(center=False)
    with pytest.raises(RuntimeError, match="data type of phase_advance"):
        audio.PhaseVocoder(1.2, np.zeros((9, 1)))(np.zeros((9, 4, 2), np.float32))


@pytest.mark.parametrize("transform,axis", [(audio.MaskAlongAxisIID(3, -1.0, 2), -1),
                                            (audio.TimeMasking(True, 3, 0, 2.0), -1),
                                            (audio.FrequencyMasking(True, 4, 0, 2.0), -2)])
def test_random_masks_mask_one_band(transform, axis):
    spectrogram = np.ones((2, 5, 8), np.float32)
    value = -1.0 if isinstance(transform, audio.MaskAlongAxisIID) else 2.0
    widths = set()
    for _ in range(20):
        out = transform(spectrogram)
        masked = np.moveaxis(out == value, axis, -1)
        columns = masked.reshape(-1, masked.shape[-1])
        assert (columns == columns[0]).all()  # the same band across the other axes
        band = np.flatnonzero(columns[0])
        if band.size:
            assert np.array_equal(band, np.arange(band[0], band[-1] + 1))
        widths.add(band.size)
        assert band.size <= 4
    assert len(widths) > 1  # the width is drawn


def test_time_stretch_at_rate_one_flattens_to_a_batch_as_mindspore():
    # MindSpore 2.10's TimeStretch example: 16 bins with the default n_freq=201 and no rate give the
    # input back as (1, 16, 8, 2); leading axes fold into one batch axis.
    waveform = np.random.RandomState(0).random([16, 8, 2])
    output = audio.TimeStretch()(waveform)
    assert output.shape == (1, 16, 8, 2) and output.dtype == np.float64
    np.testing.assert_array_equal(output[0], waveform)
    batch = np.random.RandomState(1).random([2, 3, 4, 5, 2]).astype(np.float32)
    folded = audio.TimeStretch(n_freq=4, fixed_rate=1.0)(batch)
    assert folded.shape == (6, 4, 5, 2) and folded.dtype == np.float32
    np.testing.assert_array_equal(folded, batch.reshape(6, 4, 5, 2))
