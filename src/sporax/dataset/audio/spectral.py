"""``Spectrogram`` of ``mindspore.dataset.audio``: the short-time Fourier transform's magnitude ** power.

The waveform (..., time) is zero-padded by ``pad``, centred (``n_fft // 2`` on each side, with
``pad_mode``) when ``center``, cut into frames of ``n_fft`` every ``hop_length`` samples, multiplied
by a periodic window of ``win_length`` (zero-padded to ``n_fft`` in the middle), and transformed with
a real FFT (``onesided``: ``n_fft // 2 + 1`` bins). ``normalized`` divides by the window's L2 norm.
"""

import numpy as np

from sporax.dataset.audio.pointwise import PAD_MODES, BorderType
from sporax.dataset.core.option_enums import string_enum
from sporax.dataset.transforms.base import TensorOperation


WindowType = string_enum("WindowType", __name__, "Window functions of the spectral transforms.",
                         "bartlett", "blackman", "hamming", "hann", "kaiser")


def _window(kind, length):
    n = np.arange(length, dtype=np.float64)
    phase = 2 * np.pi * n / length
    if kind == WindowType.HANN:
        return 0.5 - 0.5 * np.cos(phase)
    if kind == WindowType.HAMMING:
        return 0.54 - 0.46 * np.cos(phase)
    if kind == WindowType.BLACKMAN:
        return 0.42 - 0.5 * np.cos(phase) + 0.08 * np.cos(2 * phase)
    if kind == WindowType.BARTLETT:
        return 1 - np.abs(2 * n / length - 1)
    # KAISER: periodic, beta 12.0 (MindSpore 2.10's values).
    return np.kaiser(length + 1, 12.0)[:-1]




def _positive(name, value, allow_none=False, allow_zero=False):
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < (0 if allow_zero else 1):
        raise ValueError(f"Spectrogram: Input {name} is not within the required interval of "
                         f"[{0 if allow_zero else 1}, 2147483647].")
    return value


class Spectrogram(TensorOperation):
    """The spectrogram (..., n_fft // 2 + 1, frames) of a waveform (..., time).

    Args:
        n_fft (int): FFT size. Default: ``400``. win_length (int): Default: ``n_fft``.
        hop_length (int): Default: ``win_length // 2``. pad (int): zeros on both sides. Default: ``0``.
        window (WindowType): Default: ``WindowType.HANN`` (KAISER is not supported).
        power (float): exponent of the magnitude (> 0). Default: ``2.0``.
        normalized (bool): divide by the window's norm. Default: ``False``.
        center (bool): pad ``n_fft // 2`` on both sides. Default: ``True``.
        pad_mode (BorderType): the centring pad. Default: ``BorderType.REFLECT``.
        onesided (bool): keep the non-negative frequencies only. Default: ``True``.
    """

    def __init__(self, n_fft=400, win_length=None, hop_length=None, pad=0, window=WindowType.HANN, power=2.0,
                 normalized=False, center=True, pad_mode=BorderType.REFLECT, onesided=True):
        self.n_fft = _positive("n_fft", n_fft)
        self.win_length = _positive("win_length", win_length, allow_none=True) or n_fft
        if self.win_length > n_fft:
            raise ValueError(f"Spectrogram: win_length ({self.win_length}) must not exceed n_fft ({n_fft}).")
        self.hop_length = _positive("hop_length", hop_length, allow_none=True) or self.win_length // 2
        self.pad = _positive("pad", pad, allow_zero=True)
        if not isinstance(window, WindowType) or not isinstance(pad_mode, BorderType):
            raise TypeError("Spectrogram: window must be WindowType and pad_mode BorderType.")
        if isinstance(power, bool) or not isinstance(power, (int, float)) or power <= 0:
            raise ValueError(f"Spectrogram: Input power is not within the required interval of (0, 16777216], "
                             f"got {power!r}.")
        for name, value in (("normalized", normalized), ("center", center), ("onesided", onesided)):
            if not isinstance(value, bool):
                raise TypeError(f"Spectrogram: {name} must be a bool, but got {value!r}.")
        self.window, self.power, self.normalized = window, float(power), normalized
        self.center, self.pad_mode, self.onesided = center, pad_mode, onesided
        window_values = _window(window, self.win_length)
        left = (n_fft - self.win_length) // 2
        self._window = np.pad(window_values, (left, n_fft - self.win_length - left))

    def __call__(self, waveform):
        array = np.asarray(waveform)
        dtype = array.dtype if np.issubdtype(array.dtype, np.floating) else np.float32
        x = array.astype(np.float64)
        edges = [(0, 0)] * (x.ndim - 1)
        if self.pad:
            x = np.pad(x, edges + [(self.pad, self.pad)])
        if self.center:
            x = np.pad(x, edges + [(self.n_fft // 2, self.n_fft // 2)], mode=PAD_MODES[self.pad_mode])
        if x.shape[-1] < self.n_fft:
            raise RuntimeError(f"Spectrogram: the padded waveform ({x.shape[-1]} samples) is shorter than n_fft "
                               f"({self.n_fft}).")
        frames = 1 + (x.shape[-1] - self.n_fft) // self.hop_length
        starts = np.arange(frames) * self.hop_length
        windows = x[..., starts[:, None] + np.arange(self.n_fft)] * self._window  # (..., frames, n_fft)
        spectrum = np.fft.rfft(windows, axis=-1) if self.onesided else np.fft.fft(windows, axis=-1)
        if self.normalized:
            spectrum = spectrum / np.sqrt(np.sum(self._window ** 2))
        return np.swapaxes(np.abs(spectrum) ** self.power, -1, -2).astype(dtype)
