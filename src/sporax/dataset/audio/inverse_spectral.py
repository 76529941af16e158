"""``InverseSpectrogram``: a waveform back from a complex spectrogram (..., freq, time, 2).

The inverse STFT: each frame is inverse-FFT'd (``n_fft`` points; real for ``onesided``), windowed,
overlap-added every ``hop_length`` samples and divided by the summed squared window; ``center``
drops ``n_fft // 2`` samples at each end, ``pad`` removes the padding the forward transform added,
and ``length`` trims or zero-pads the result. ``normalized`` undoes the forward transform's division
by the window's L2 norm. sporax inverts centred spectrograms without extra padding (``center=True``,
``pad=0``, the defaults); other settings raise NotImplementedError.
"""
import numpy as np

from sporax.dataset.audio.pointwise import BorderType
from sporax.dataset.audio.spectral import Spectrogram, WindowType
from sporax.dataset.transforms.base import TensorOperation


class InverseSpectrogram(TensorOperation):
    """Invert a complex spectrogram (..., n_fft // 2 + 1, time, 2) to a waveform (..., samples).

    Args:
        length (int): the output length; None for what the frames give. Default: None.
        n_fft (int), win_length (int), hop_length (int), pad (int), window (WindowType), normalized (bool),
        center (bool), pad_mode (BorderType), onesided (bool): those of the forward ``Spectrogram``.
    """

    def __init__(self, length=None, n_fft=400, win_length=None, hop_length=None, pad=0, window=WindowType.HANN,
                 normalized=False, center=True, pad_mode=BorderType.REFLECT, onesided=True):
        if length is not None and (isinstance(length, bool) or not isinstance(length, int) or length < 0):
            raise ValueError(f"InverseSpectrogram: length must be a non-negative int or None, but got {length!r}.")
        if not center or pad:
            raise NotImplementedError("InverseSpectrogram: only center=True with pad=0 is supported by sporax.")
        # The forward transform validates and keeps the shared settings (and builds the padded window).
        forward = Spectrogram(n_fft, win_length, hop_length, pad, window, 2.0, normalized, center, pad_mode,
                              onesided)
        self.length, self.n_fft, self.win_length = length, n_fft, forward.win_length
        self.hop_length, self.pad, self.window = forward.hop_length, pad, window
        self.normalized, self.center, self.pad_mode, self.onesided = normalized, center, pad_mode, onesided
        self._window = forward._window

    def __call__(self, spectrogram):
        array = np.asarray(spectrogram)
        if array.ndim < 3 or array.shape[-1] != 2:
            raise RuntimeError(f"InverseSpectrogram: the input must be a complex spectrogram (..., freq, time, 2), "
                               f"but got shape {array.shape}.")
        dtype = array.dtype if np.issubdtype(array.dtype, np.floating) else np.float32
        spectrum = array[..., 0].astype(np.float64) + 1j * array[..., 1].astype(np.float64)
        expected = self.n_fft // 2 + 1 if self.onesided else self.n_fft
        if spectrum.shape[-2] != expected:
            raise RuntimeError(f"InverseSpectrogram: expected {expected} frequency bins for n_fft {self.n_fft}, but "
                               f"got {spectrum.shape[-2]}.")
        if self.normalized:
            spectrum = spectrum * np.sqrt(np.sum(self._window ** 2))
        frames_axis_last = np.swapaxes(spectrum, -1, -2)                       # (..., time, freq)
        if self.onesided:
            frames = np.fft.irfft(frames_axis_last, n=self.n_fft, axis=-1)
        else:
            frames = np.fft.ifft(frames_axis_last, n=self.n_fft, axis=-1).real
        frames = frames * self._window
        count = frames.shape[-2]
        total = self.n_fft + self.hop_length * (count - 1)
        signal = np.zeros(frames.shape[:-2] + (total,))
        envelope = np.zeros(total)
        for index in range(count):
            start = index * self.hop_length
            signal[..., start:start + self.n_fft] += frames[..., index, :]
            envelope[start:start + self.n_fft] += self._window ** 2
        begin = self.n_fft // 2 if self.center else 0
        requested = None if self.length is None else self.length + 2 * self.pad
        end = total - (self.n_fft // 2 if self.center else 0) if requested is None else begin + requested
        signal, envelope = signal[..., begin:end], envelope[begin:end]
        signal = np.where(envelope > 1e-11, signal / np.where(envelope > 1e-11, envelope, 1.0), signal)
        if requested is not None and signal.shape[-1] < requested:
            signal = np.pad(signal, [(0, 0)] * (signal.ndim - 1) + [(0, requested - signal.shape[-1])])
        if self.pad:
            signal = signal[..., self.pad:signal.shape[-1] - self.pad]
        return signal.astype(dtype)
