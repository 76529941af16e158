"""Mel filter banks of ``mindspore.dataset.audio``: ``melscale_fbanks``, ``linear_fbanks``, ``MelScale``,
``MelSpectrogram``.

A filter bank is (n_freqs, n_filters) of triangles: filter ``k`` rises from point ``k`` to ``k + 1`` and
falls to ``k + 2`` of ``n_filters + 2`` points spaced evenly on the mel scale (HTK:
``2595 log10(1 + f / 700)``; Slaney: linear below 1 kHz, logarithmic above) or in Hz (linear banks),
over the frequencies ``linspace(0, sample_rate // 2, n_freqs)``. Slaney normalisation scales each
triangle to unit area.
"""
import enum
import math

import numpy as np

from sporax.dataset.audio.pointwise import BorderType
from sporax.dataset.audio.spectral import Spectrogram, WindowType
from sporax.dataset.transforms.base import TensorOperation


class NormType(str, enum.Enum):
    """Normalisation of mel filter banks."""

    SLANEY = "slaney"
    NONE = "none"


class MelType(str, enum.Enum):
    """The mel scale's formula."""

    HTK = "htk"
    SLANEY = "slaney"


_SLANEY_STEP = math.log(6.4) / 27.0


def _hz_to_mel(hz, mel_type):
    hz = np.asarray(hz, np.float64)
    if mel_type == MelType.HTK:
        return 2595.0 * np.log10(1.0 + hz / 700.0)
    linear = hz / (200.0 / 3)
    return np.where(hz >= 1000.0, 15.0 + np.log(np.maximum(hz, 1e-10) / 1000.0) / _SLANEY_STEP, linear)


def _mel_to_hz(mels, mel_type):
    mels = np.asarray(mels, np.float64)
    if mel_type == MelType.HTK:
        return 700.0 * (10.0 ** (mels / 2595.0) - 1.0)
    return np.where(mels >= 15.0, 1000.0 * np.exp(_SLANEY_STEP * (mels - 15.0)), mels * (200.0 / 3))


def _triangles(all_freqs, points):
    widths = points[1:] - points[:-1]
    slopes = points[None, :] - all_freqs[:, None]
    down = -slopes[:, :-2] / widths[:-1]
    up = slopes[:, 2:] / widths[1:]
    # + 0.0: a -0.0 (a zero slope negated) prints as 0., as MindSpore's bank does
    return np.maximum(0.0, np.minimum(down, up)) + 0.0


def _check_bank(name, n_freqs, f_min, f_max, n_filters, sample_rate):
    for arg, value in (("n_freqs", n_freqs), ("n_filter", n_filters), ("sample_rate", sample_rate)):
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            raise ValueError(f"{name}: Input {arg} is not within the required interval of [1, 2147483647].")
    if not 0 <= f_min < f_max:
        raise ValueError(f"{name}: f_max ({f_max}) must be greater than f_min ({f_min}) >= 0.")


def melscale_fbanks(n_freqs, f_min, f_max, n_mels, sample_rate, norm=NormType.NONE, mel_type=MelType.HTK):
    """The mel filter bank (n_freqs, n_mels) as float32."""
    _check_bank("melscale_fbanks", n_freqs, f_min, f_max, n_mels, sample_rate)
    all_freqs = np.linspace(0, sample_rate // 2, n_freqs)
    mels = np.linspace(_hz_to_mel(f_min, mel_type), _hz_to_mel(f_max, mel_type), n_mels + 2)
    points = _mel_to_hz(mels, mel_type)
    points[0], points[-1] = f_min, f_max  # exact ends: the bin at f_max weighs 0, not a rounding residue
    bank = _triangles(all_freqs, points)
    if norm == NormType.SLANEY:
        bank *= (2.0 / (points[2:n_mels + 2] - points[:n_mels]))[None, :]
    return bank.astype(np.float32)


def linear_fbanks(n_freqs, f_min, f_max, n_filter, sample_rate):
    """The linear-frequency triangular filter bank (n_freqs, n_filter) as float32."""
    _check_bank("linear_fbanks", n_freqs, f_min, f_max, n_filter, sample_rate)
    all_freqs = np.linspace(0, sample_rate // 2, n_freqs)
    return _triangles(all_freqs, np.linspace(f_min, f_max, n_filter + 2)).astype(np.float32)


class MelScale(TensorOperation):
    """Project a spectrogram (..., n_stft, time) onto ``n_mels`` mel bands: (..., n_mels, time).

    Args:
        n_mels (int): Default: ``128``. sample_rate (int): Default: ``16000``. f_min (float): Default: ``0.0``.
        f_max (float): Default: ``sample_rate // 2``. n_stft (int): Default: ``201``.
        norm (NormType): Default: ``NormType.NONE``. mel_type (MelType): Default: ``MelType.HTK``.
    """

    def __init__(self, n_mels=128, sample_rate=16000, f_min=0.0, f_max=None, n_stft=201, norm=NormType.NONE,
                 mel_type=MelType.HTK):
        if not isinstance(norm, NormType) or not isinstance(mel_type, MelType):
            raise TypeError("MelScale: norm must be NormType and mel_type MelType.")
        self.n_mels, self.sample_rate, self.f_min, self.n_stft = n_mels, sample_rate, float(f_min), n_stft
        self.f_max = float(sample_rate // 2 if f_max is None else f_max)
        self.norm, self.mel_type = norm, mel_type
        self._bank = melscale_fbanks(n_stft, self.f_min, self.f_max, n_mels, sample_rate, norm, mel_type)

    def __call__(self, spectrogram):
        array = np.asarray(spectrogram)
        dtype = array.dtype if np.issubdtype(array.dtype, np.floating) else np.float32
        if array.ndim < 2 or array.shape[-2] != self.n_stft:
            raise RuntimeError(f"MelScale: the input must be (..., {self.n_stft}, time), but got shape {array.shape}.")
        projected = np.swapaxes(array.astype(np.float64), -1, -2) @ self._bank.astype(np.float64)
        return np.swapaxes(projected, -1, -2).astype(dtype)


class MelSpectrogram(TensorOperation):
    """``Spectrogram`` followed by ``MelScale`` (with ``n_stft = n_fft // 2 + 1``); arguments as theirs."""

    def __init__(self, sample_rate=16000, n_fft=400, win_length=None, hop_length=None, f_min=0.0, f_max=None, pad=0,
                 n_mels=128, window=WindowType.HANN, power=2.0, normalized=False, center=True,
                 pad_mode=BorderType.REFLECT, onesided=True, norm=NormType.NONE, mel_scale=MelType.HTK):
        self.sample_rate, self.n_fft, self.n_mels = sample_rate, n_fft, n_mels
        self._spectrogram = Spectrogram(n_fft, win_length, hop_length, pad, window, power, normalized, center,
                                        pad_mode, onesided)
        self._mel = MelScale(n_mels, sample_rate, f_min, f_max, n_fft // 2 + 1, norm, mel_scale)

    def __call__(self, waveform):
        return self._mel(self._spectrogram(waveform))
