"""Cepstral features of ``mindspore.dataset.audio``: ``MFCC``, ``LFCC``, ``SpectralCentroid`` (NumPy).

MFCC: ``MelSpectrogram(sample_rate, **melkwargs)``, then ``log(x + 1e-6)`` (``log_mels``) or
``AmplitudeToDB`` (power, 80 dB range), then the DCT-II (``create_dct``) over the mel axis:
(..., n_mfcc, time). LFCC: the same with a ``Spectrogram(**speckwargs)`` projected on ``n_filter``
linearly spaced triangular filters. SpectralCentroid: the magnitude-weighted mean frequency of
each frame of ``Spectrogram(power=1)``: (..., 1, time).
"""
import numpy as np

from sporax.dataset.audio.amplitude import AmplitudeToDB, ScaleType
from sporax.dataset.audio.mel import MelSpectrogram, linear_fbanks
from sporax.dataset.audio.pointwise import NormMode, create_dct
from sporax.dataset.audio.spectral import Spectrogram, WindowType
from sporax.dataset.transforms.base import TensorOperation


def _cepstrum(features, dct, log, dtype):
    if log:
        features = np.log(features.astype(np.float64) + 1e-6)
    else:
        features = AmplitudeToDB(ScaleType.POWER, 1.0, 1e-10, 80.0)(features.astype(np.float64))
    coefficients = np.swapaxes(np.swapaxes(features, -1, -2) @ dct.astype(np.float64), -1, -2)
    return coefficients.astype(dtype)


def _check_common(name, n_coefficients, dct_type, norm):
    if isinstance(n_coefficients, bool) or not isinstance(n_coefficients, int) or n_coefficients <= 0:
        raise ValueError(f"{name}: the number of coefficients must be a positive int, but got {n_coefficients!r}.")
    if dct_type != 2:
        raise ValueError(f"{name}: dct_type must be 2, but got {dct_type!r}.")
    if not isinstance(norm, NormMode):
        raise TypeError(f"{name}: norm must be NormMode, but got {type(norm).__name__}.")


def _dtype(waveform):
    array = np.asarray(waveform)
    return array, (array.dtype if np.issubdtype(array.dtype, np.floating) else np.float32)


class MFCC(TensorOperation):
    """Mel-frequency cepstral coefficients of a waveform (..., time).

    Args:
        sample_rate (int): Default: 16000.
        n_mfcc (int): the coefficients kept, <= n_mels. Default: 40.
        dct_type (int): 2. Default: 2.
        norm (NormMode): the DCT's normalisation. Default: NormMode.ORTHO.
        log_mels (bool): log of the mel spectrogram instead of decibels. Default: False.
        melkwargs (dict): arguments of ``MelSpectrogram`` (n_fft, n_mels, hop_length ...). Default: None.
    """

    def __init__(self, sample_rate=16000, n_mfcc=40, dct_type=2, norm=NormMode.ORTHO, log_mels=False,
                 melkwargs=None):
        _check_common("MFCC", n_mfcc, dct_type, norm)
        melkwargs = dict(melkwargs or {})
        self.sample_rate, self.n_mfcc, self.dct_type, self.norm = sample_rate, n_mfcc, dct_type, norm
        self.log_mels, self.melkwargs = bool(log_mels), melkwargs
        self._mel = MelSpectrogram(sample_rate=sample_rate, **melkwargs)
        if n_mfcc > self._mel.n_mels:
            raise ValueError(f"MFCC: n_mfcc ({n_mfcc}) must not exceed n_mels ({self._mel.n_mels}).")
        self._dct = create_dct(n_mfcc, self._mel.n_mels, norm)

    def __call__(self, waveform):
        # MindSpore 2.10's MFCC answers Float32 whatever the waveform's dtype (Float64 included).
        array = np.asarray(waveform)
        return _cepstrum(self._mel(array.astype(np.float32)), self._dct, self.log_mels, np.float32)


class LFCC(TensorOperation):
    """Linear-frequency cepstral coefficients of a waveform (..., time).

    Args:
        sample_rate (int): Default: 16000.
        n_filter (int): the linear filters. Default: 128.
        n_lfcc (int): the coefficients kept, <= n_filter. Default: 40.
        f_min (float): Default: 0.0. f_max (float): Default: sample_rate // 2.
        dct_type (int): 2. Default: 2.
        norm (NormMode): Default: NormMode.ORTHO.
        log_lf (bool): log of the filter outputs instead of decibels. Default: False.
        speckwargs (dict): arguments of ``Spectrogram``. Default: None.
    """

    def __init__(self, sample_rate=16000, n_filter=128, n_lfcc=40, f_min=0.0, f_max=None, dct_type=2,
                 norm=NormMode.ORTHO, log_lf=False, speckwargs=None):
        _check_common("LFCC", n_lfcc, dct_type, norm)
        if n_lfcc > n_filter:
            raise ValueError(f"LFCC: n_lfcc ({n_lfcc}) must not exceed n_filter ({n_filter}).")
        speckwargs = dict(speckwargs or {})
        self.sample_rate, self.n_filter, self.n_lfcc = sample_rate, n_filter, n_lfcc
        self.f_min = float(f_min)
        self.f_max = float(sample_rate // 2 if f_max is None else f_max)
        self.dct_type, self.norm, self.log_lf, self.speckwargs = dct_type, norm, bool(log_lf), speckwargs
        self._spectrogram = Spectrogram(**speckwargs)
        self._bank = linear_fbanks(self._spectrogram.n_fft // 2 + 1, self.f_min, self.f_max, n_filter, sample_rate)
        self._dct = create_dct(n_lfcc, n_filter, norm)

    def __call__(self, waveform):
        array, dtype = np.asarray(waveform), np.float32  # Float32 whatever the waveform's dtype, as MFCC
        spectrum = self._spectrogram(array.astype(np.float32)).astype(np.float64)
        filtered = np.swapaxes(np.swapaxes(spectrum, -1, -2) @ self._bank.astype(np.float64), -1, -2)
        return _cepstrum(filtered.astype(np.float32), self._dct, self.log_lf, dtype)


class SpectralCentroid(TensorOperation):
    """The spectral centroid (Hz) of each frame of a waveform (..., time): (..., 1, frames).

    Args:
        sample_rate (int): the sampling rate.
        n_fft (int), win_length (int), hop_length (int), pad (int), window (WindowType): as ``Spectrogram``.
    """

    def __init__(self, sample_rate, n_fft=400, win_length=None, hop_length=None, pad=0, window=WindowType.HANN):
        if isinstance(sample_rate, bool) or not isinstance(sample_rate, int) or sample_rate <= 0:
            raise ValueError(f"SpectralCentroid: sample_rate must be a positive int, but got {sample_rate!r}.")
        self.sample_rate, self.n_fft, self.win_length = sample_rate, n_fft, win_length
        self.hop_length, self.pad, self.window = hop_length, pad, window
        self._spectrogram = Spectrogram(n_fft, win_length, hop_length, pad, window, power=1.0)

    def __call__(self, waveform):
        array, dtype = _dtype(waveform)
        spectrum = self._spectrogram(array.astype(np.float32)).astype(np.float64)
        frequencies = np.linspace(0, self.sample_rate // 2, self.n_fft // 2 + 1).reshape(-1, 1)
        centroid = np.sum(frequencies * spectrum, axis=-2, keepdims=True) / np.sum(spectrum, axis=-2, keepdims=True)
        return centroid.astype(dtype)
