"""``PhaseVocoder`` and ``TimeStretch``: change the speed of a complex spectrogram, keeping the pitch.

A complex spectrogram is (..., freq, time, 2) (real, imaginary). Output frame ``k`` sits at input
time ``t = k * rate``: its magnitude interpolates the frames ``floor(t)`` and ``floor(t) + 1``
(zero frames pad the end), and its phase accumulates the phase differences of those frame pairs,
unwrapped around the expected ``phase_advance`` per frame (torchaudio's algorithm, which MindSpore
follows). TimeStretch uses ``phase_advance = linspace(0, pi * hop_length, n_freq)``.
"""
import math

import numpy as np

from sporax.dataset.transforms.base import TensorOperation


def _phase_vocoder(array, rate, phase_advance):
    if rate == 1.0:
        return array
    dtype = array.dtype if np.issubdtype(array.dtype, np.floating) else np.float32
    complex_spec = array[..., 0].astype(np.float64) + 1j * array[..., 1].astype(np.float64)
    shape = complex_spec.shape
    flat = complex_spec.reshape((-1,) + shape[-2:])
    steps = np.arange(0, flat.shape[-1], rate, dtype=np.float64)
    alphas = steps % 1.0
    phase_0 = np.angle(flat[..., :1])
    padded = np.pad(flat, ((0, 0), (0, 0), (0, 2)))
    first = padded[..., steps.astype(np.int64)]
    second = padded[..., (steps + 1).astype(np.int64)]
    advance = np.asarray(phase_advance, np.float64).reshape(-1, 1)
    phase = np.angle(second) - np.angle(first) - advance
    phase = phase - 2 * math.pi * np.round(phase / (2 * math.pi)) + advance
    phase = np.cumsum(np.concatenate([phase_0, phase[..., :-1]], axis=-1), axis=-1)
    magnitude = alphas * np.abs(second) + (1 - alphas) * np.abs(first)
    stretched = magnitude * np.exp(1j * phase)
    stretched = stretched.reshape(shape[:-2] + stretched.shape[-2:])
    return np.stack([stretched.real, stretched.imag], axis=-1).astype(dtype)


def _complex_spectrogram(name, value):
    array = np.asarray(value)
    if array.ndim < 3 or array.shape[-1] != 2:
        raise RuntimeError(f"{name}: the input must be a complex spectrogram (..., freq, time, 2), but got shape "
                           f"{array.shape}.")
    return array


class PhaseVocoder(TensorOperation):
    """Speed a complex spectrogram (..., freq, time, 2) up (``rate`` > 1) or down without changing pitch.

    Args:
        rate (float): the speed-up factor, > 0.
        phase_advance (numpy.ndarray): (freq, 1) expected phase advance per frame of each bin.
    """

    def __init__(self, rate, phase_advance):
        if isinstance(rate, bool) or not isinstance(rate, (int, float)) or rate <= 0:
            raise ValueError(f"PhaseVocoder: Input rate is not within the required interval of (0, 16777216], "
                             f"but got {rate!r}.")
        if not isinstance(phase_advance, np.ndarray):
            raise TypeError(f"PhaseVocoder: phase_advance must be a numpy.ndarray, but got "
                            f"{type(phase_advance).__name__}.")
        self.rate, self.phase_advance = float(rate), phase_advance

    def __call__(self, spectrogram):
        array = _complex_spectrogram("PhaseVocoder", spectrogram)
        if self.phase_advance.dtype != array.dtype:
            raise RuntimeError(f"PhaseVocoder: data type of phase_advance should be equal to data type of input "
                               f"tensor, but got: data type of phase_advance {self.phase_advance.dtype} while data "
                               f"type of input tensor {array.dtype}.")
        if self.phase_advance.reshape(-1).shape[0] != array.shape[-3]:
            raise RuntimeError(f"PhaseVocoder: phase_advance has {self.phase_advance.size} values for "
                               f"{array.shape[-3]} frequency bins.")
        return _phase_vocoder(array, self.rate, self.phase_advance)


class TimeStretch(TensorOperation):
    """Stretch a complex spectrogram (..., n_freq, time, 2) in time by ``1 / fixed_rate``.

    Args:
        hop_length (int): the STFT hop; None means ``n_freq - 1``. Default: None.
        n_freq (int): the frequency bins. Default: 201.
        fixed_rate (float): the speed-up factor; None keeps the rate. Default: None.
    """

    def __init__(self, hop_length=None, n_freq=201, fixed_rate=None):
        if isinstance(n_freq, bool) or not isinstance(n_freq, int) or n_freq <= 0:
            raise ValueError(f"TimeStretch: Input n_freq is not within the required interval of (0, 2147483647], "
                             f"but got {n_freq!r}.")
        if hop_length is not None and (isinstance(hop_length, bool) or not isinstance(hop_length, int)
                                       or hop_length <= 0):
            raise ValueError(f"TimeStretch: hop_length must be a positive int, but got {hop_length!r}.")
        if fixed_rate is not None and (isinstance(fixed_rate, bool) or not isinstance(fixed_rate, (int, float))
                                       or fixed_rate <= 0):
            raise ValueError(f"TimeStretch: fixed_rate must be a number > 0, but got {fixed_rate!r}.")
        self.hop_length = n_freq - 1 if hop_length is None else hop_length
        self.n_freq, self.fixed_rate = n_freq, fixed_rate
        self._phase_advance = np.linspace(0, math.pi * self.hop_length, n_freq)[:, None]

    def __call__(self, spectrogram):
        array = _complex_spectrogram("TimeStretch", spectrogram)
        rate = 1.0 if self.fixed_rate is None else float(self.fixed_rate)
        if rate == 1.0:
            # MindSpore 2.10 returns the spectrogram unchanged but flattened to (batch, freq, time, 2).
            return array.reshape((-1,) + array.shape[-3:]).copy()
        phase_advance = self._phase_advance
        if array.shape[-3] != self.n_freq:
            # MindSpore takes the bin count from the input, not from n_freq (its example passes 16
            # bins with the default n_freq=201); hop_length still defaults from n_freq.
            phase_advance = np.linspace(0, math.pi * self.hop_length, array.shape[-3])[:, None]
        return _phase_vocoder(array, rate, phase_advance)
