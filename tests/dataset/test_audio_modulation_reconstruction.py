"""Phaser, Flanger, Dither, DetectPitchFrequency, PitchShift, GriffinLim and InverseMelScale
against MindSpore 2.10 (tests/fixtures/dataset_audio/modulation_reconstruction.npz)."""
import os

import numpy as np
import pytest

import sporax.dataset.audio as A

HERE = os.path.dirname(os.path.abspath(__file__))
ORACLE = np.load(os.path.join(HERE, "..", "fixtures", "dataset_audio",
                              "modulation_reconstruction.npz"))
WAVE, STEREO, SPEC = ORACLE["wave"], ORACLE["stereo"], ORACLE["spec"]

CASES = {
    "pitch": (lambda: A.DetectPitchFrequency(8000)(WAVE), 0),
    "pitch_stereo": (lambda: A.DetectPitchFrequency(8000, frame_time=0.02, win_length=5, freq_low=100,
                                                    freq_high=2000)(STEREO), 0),
    "phaser": (lambda: A.Phaser(8000)(STEREO), 1e-6),
    "phaser_tri": (lambda: A.Phaser(8000, gain_in=0.6, gain_out=0.8, delay_ms=2.0, decay=0.5,
                                    mod_speed=1.5, sinusoidal=False)(WAVE), 1e-6),
    "flanger": (lambda: A.Flanger(8000)(STEREO), 1e-6),
    "flanger_tri_quad": (lambda: A.Flanger(8000, delay=2.0, depth=3.0, regen=20.0, width=50.0, speed=1.0,
                                           phase=50.0, modulation=A.Modulation.TRIANGULAR,
                                           interpolation=A.Interpolation.QUADRATIC)(STEREO), 1e-6),
    "pitchshift": (lambda: A.PitchShift(800, 3)(WAVE), 2e-4),
    "pitchshift_down": (lambda: A.PitchShift(600, -2, n_fft=256, hop_length=64)(STEREO), 2e-4),
    "dither_tpdf": (lambda: A.Dither()(WAVE), 0),
    "dither_tpdf_ns": (lambda: A.Dither(noise_shaping=True)(WAVE), 1e-7),
    "griffinlim_no_momentum": (lambda: A.GriffinLim(n_fft=128, n_iter=2, hop_length=32, momentum=0.0,
                                                    rand_init=False)(SPEC), 1e-5),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_mindspore(name):
    run, atol = CASES[name]
    got = run()
    assert got.shape == ORACLE[name].shape and got.dtype == np.float32
    np.testing.assert_allclose(got, ORACLE[name], atol=atol, rtol=0)


def _spectral_error(waveform):
    rebuilt = A.Spectrogram(n_fft=128, hop_length=32, power=2.0)(waveform)
    return np.linalg.norm(np.sqrt(rebuilt) - np.sqrt(SPEC)) / np.linalg.norm(np.sqrt(SPEC))


def test_griffin_lim_momentum_converges():
    one = A.GriffinLim(n_fft=128, n_iter=1, hop_length=32, rand_init=False)(SPEC)
    many = A.GriffinLim(n_fft=128, n_iter=16, hop_length=32, momentum=0.99, rand_init=False)(SPEC)
    assert _spectral_error(many) < _spectral_error(one)
    assert A.GriffinLim(n_fft=128, n_iter=2, hop_length=32, length=1500)(SPEC).shape == (1500,)


def test_inverse_mel_scale_inverts_mel_scale():
    mel = A.MelScale(n_mels=16, sample_rate=8000, n_stft=65)(SPEC)
    linear = A.InverseMelScale(n_stft=65, n_mels=16, sample_rate=8000, max_iter=300)(mel)
    assert linear.shape == (1, 65, SPEC.shape[-1]) and (linear >= 0).all()
    again = A.MelScale(n_mels=16, sample_rate=8000, n_stft=65)(linear[0])
    assert np.linalg.norm(again - mel) / np.linalg.norm(mel) < 0.05


def test_random_dithers_and_arguments():
    noisy = A.Dither(A.DensityFunction.RPDF)(WAVE)
    assert noisy.shape == WAVE.shape and np.abs(noisy - WAVE).max() < 1e-3
    assert A.Dither(A.DensityFunction.GPDF)(STEREO).shape == STEREO.shape
    with pytest.raises(ValueError, match="delay_ms"):
        A.Phaser(8000, delay_ms=6.0)
    with pytest.raises(TypeError, match="modulation"):
        A.Flanger(8000, modulation="sine")
    with pytest.raises(RuntimeError, match="Flanger"):
        A.Flanger(8000)(WAVE)  # Flanger needs (..., channel, time)
    with pytest.raises(RuntimeError, match="GriffinLim"):
        A.GriffinLim(n_fft=64)(SPEC)


def test_vad_trims_leading_silence():
    # SoX's algorithm as torchaudio writes it down; MindSpore 2.10's kernel keeps more of the
    # silence (it starts 2200 samples earlier on this input), see the module notes
    speech = np.concatenate([np.zeros(4000, np.float32), WAVE, WAVE, WAVE, np.zeros(1000, np.float32)])
    trimmed = A.Vad(8000)(speech)
    start = speech.shape[0] - trimmed.shape[0]
    assert 2400 <= start <= 4000  # within a measure window (800 samples) of the speech start
    np.testing.assert_array_equal(trimmed, speech[start:])
    earlier = A.Vad(8000, pre_trigger_time=0.05)(speech)
    assert earlier.shape[0] == trimmed.shape[0] + 400
    assert A.Vad(8000)(np.stack([speech, speech])).shape == (2, trimmed.shape[0])


def test_vad_without_activity_returns_the_buffered_tail():
    # Recorded on MindSpore 2.10: where nothing triggers, the last pre_trigger_time + search_time
    # seconds plus one measure window (the whole recording when it is shorter), not SoX's empty one.
    recorded = [((8000, {}, np.zeros(4000, np.float32)), (4000,)),
                ((8000, {}, np.zeros((2, 9000), np.float32)), (2, 8800)),
                ((600, {}, np.zeros(20, np.float32)), (20,)),
                ((600, {"pre_trigger_time": 0.1}, np.zeros(1000, np.float32)), (720,)),
                ((600, {"search_time": 0.5}, np.zeros(1000, np.float32)), (360,))]
    for (rate, options, waveform), shape in recorded:
        out = A.Vad(rate, **options)(waveform)
        assert out.shape == shape
        np.testing.assert_array_equal(out, waveform[..., waveform.shape[-1] - shape[-1]:])
