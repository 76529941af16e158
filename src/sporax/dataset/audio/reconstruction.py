"""Pitch and phase reconstruction: ``DetectPitchFrequency`` (normalised cross-correlation),
``PitchShift`` (phase vocoder + resampling), ``GriffinLim`` (phase from a magnitude
spectrogram) and ``InverseMelScale`` (a linear spectrogram from a mel one, by projected SGD) —
the algorithms torchaudio documents, which MindSpore follows."""
import math

import numpy as np

from sporax.dataset.audio.mel import MelType, NormType, melscale_fbanks
from sporax.dataset.audio.phase_vocoder import _phase_vocoder
from sporax.dataset.audio.resample import Resample
from sporax.dataset.audio.spectral import Spectrogram, WindowType
from sporax.dataset.transforms.base import TensorOperation, random_generator

_EPSILON = 1e-9


def _waveform(name, waveform):
    array = np.asarray(waveform)
    if array.ndim < 1 or array.dtype.kind not in "fiu":
        raise RuntimeError(f"{name}: the input should be a real waveform (..., time), but got "
                           f"shape {array.shape} and dtype {array.dtype}.")
    return array, (array.dtype if array.dtype.kind == "f" else np.float32)


def _positive(name, arg, value, integer=False, allow_zero=False):
    kinds = (int,) if integer else (int, float)
    if isinstance(value, bool) or not isinstance(value, kinds) or value < 0 or \
            (value == 0 and not allow_zero):
        raise ValueError(f"{name}: Input {arg} should be a {'' if allow_zero else 'positive '}"
                         f"{'int' if integer else 'number'}, but got {value!r}.")
    return value


def _frame_lengths(name, n_fft, win_length, hop_length, hops_per_window):
    """``(n_fft, win_length, hop_length)`` checked; win_length defaults to n_fft, hop_length to a
    ``hops_per_window``-th of it."""
    n_fft = _positive(name, "n_fft", n_fft, integer=True)
    win_length = n_fft if win_length is None else _positive(name, "win_length", win_length, integer=True)
    hop_length = win_length // hops_per_window if hop_length is None else \
        _positive(name, "hop_length", hop_length, integer=True)
    return n_fft, win_length, hop_length


class _STFT:
    """Centred (reflect-padded) STFT and its inverse with a window of ``win_length``."""

    def __init__(self, n_fft, win_length, hop_length, window):
        forward = Spectrogram(n_fft, win_length, hop_length, 0, window, 2.0)
        self.n_fft, self.hop = n_fft, forward.hop_length
        self.window = forward._window

    def forward(self, x):
        padded = np.pad(x, [(0, 0)] * (x.ndim - 1) + [(self.n_fft // 2, self.n_fft // 2)],
                        mode="reflect")
        frames = 1 + (padded.shape[-1] - self.n_fft) // self.hop
        starts = np.arange(frames) * self.hop
        windows = padded[..., starts[:, None] + np.arange(self.n_fft)] * self.window
        return np.swapaxes(np.fft.rfft(windows, axis=-1), -1, -2)  # (..., freq, frames)

    def inverse(self, spectrum, length=None):
        frames = np.fft.irfft(np.swapaxes(spectrum, -1, -2), n=self.n_fft, axis=-1) * self.window
        count = frames.shape[-2]
        total = self.n_fft + self.hop * (count - 1)
        signal = np.zeros(frames.shape[:-2] + (total,))
        norm = np.zeros(total)
        for k in range(count):
            signal[..., k * self.hop:k * self.hop + self.n_fft] += frames[..., k, :]
            norm[k * self.hop:k * self.hop + self.n_fft] += self.window ** 2
        start = self.n_fft // 2
        end = total - self.n_fft // 2 if length is None else start + length
        signal, norm = signal[..., start:end], norm[start:end]
        signal = signal / np.where(norm > 1e-11, norm, 1.0)
        if length is not None and signal.shape[-1] < length:
            signal = np.pad(signal, [(0, 0)] * (signal.ndim - 1) +
                            [(0, length - signal.shape[-1])])
        return signal


class DetectPitchFrequency(TensorOperation):
    """Estimate the pitch of each frame: the lag of the best normalised cross-correlation,
    median-smoothed over ``win_length`` frames.

    Args:
        sample_rate (int): sampling rate of the waveform (not 0).
        frame_time (float, optional): frame duration in seconds. Default 0.01.
        win_length (int, optional): frames of the median smoothing. Default 30.
        freq_low (int, optional): lowest detectable frequency in Hz. Default 85.
        freq_high (int, optional): highest detectable frequency in Hz. Default 3400.

    Inputs:
        waveform (numpy.ndarray): (..., time).

    Outputs:
        numpy.ndarray, (..., frames) pitch in Hz.

    Examples:
        >>> import numpy as np
        >>> import sporax.dataset.audio as audio
        >>> wave = np.sin(2 * np.pi * 200 * np.arange(8000) / 8000).astype(np.float32)
        >>> audio.DetectPitchFrequency(8000)(wave).shape
        (85,)
    """

    def __init__(self, sample_rate, frame_time=0.01, win_length=30, freq_low=85, freq_high=3400):
        name = "DetectPitchFrequency"
        if isinstance(sample_rate, bool) or not isinstance(sample_rate, int) or sample_rate == 0:
            raise ValueError(f"{name}: Input sample_rate should be a non-zero int.")
        self.sample_rate = sample_rate
        self.frame_time = _positive(name, "frame_time", frame_time)
        self.win_length = _positive(name, "win_length", win_length, integer=True)
        self.freq_low = _positive(name, "freq_low", freq_low)
        self.freq_high = _positive(name, "freq_high", freq_high)

    def __call__(self, waveform):
        array, _ = _waveform("DetectPitchFrequency", waveform)
        shape = array.shape
        x = array.reshape(-1, shape[-1]).astype(np.float64)
        lags = int(math.ceil(self.sample_rate / self.freq_low))
        frame_size = int(math.ceil(self.sample_rate * self.frame_time))
        frames = int(math.ceil(x.shape[-1] / frame_size))
        x = np.pad(x, ((0, 0), (0, lags + frames * frame_size - x.shape[-1])))
        nccf = np.empty((x.shape[0], frames, lags))
        for lag in range(1, lags + 1):
            s1 = x[:, :frames * frame_size].reshape(x.shape[0], frames, frame_size)
            s2 = x[:, lag:lag + frames * frame_size].reshape(x.shape[0], frames, frame_size)
            nccf[:, :, lag - 1] = ((s1 * s2).sum(-1) /
                                   (_EPSILON + np.linalg.norm(s1, axis=-1)) ** 2 /
                                   (_EPSILON + np.linalg.norm(s2, axis=-1)) ** 2)
        lag_min = int(math.ceil(self.sample_rate / self.freq_high))
        best = nccf[..., lag_min:]
        best_value, best_index = best.max(-1), best.argmax(-1)
        half = nccf[..., lag_min:lags // 2]
        if half.shape[-1]:
            half_value, half_index = half.max(-1), half.argmax(-1)
            prefer_half = half_value > 0.99 * best_value
            best_index = np.where(prefer_half, half_index, best_index)
        indices = best_index + lag_min + 1
        pad = (self.win_length - 1) // 2
        indices = np.concatenate([np.repeat(indices[:, :1], pad, axis=1), indices], axis=1) \
            if pad else indices
        windows = np.lib.stride_tricks.sliding_window_view(indices, self.win_length, axis=-1)
        # the lower median of each window, as torch.median gives
        smoothed = np.sort(windows, axis=-1)[..., (self.win_length - 1) // 2]
        pitch = self.sample_rate / (_EPSILON + smoothed.astype(np.float64))
        # Float32 whatever the waveform's dtype, as MindSpore 2.10's.
        return pitch.astype(np.float32).reshape(shape[:-1] + pitch.shape[-1:])


class PitchShift(TensorOperation):
    """Shift the pitch of a waveform by ``n_steps`` steps of an octave split in
    ``bins_per_octave``: time-stretch with a phase vocoder, then resample to the original
    length.

    Args:
        sample_rate (int): sampling rate of the waveform.
        n_steps (int): steps to shift (negative: down).
        bins_per_octave (int, optional): steps per octave. Default 12.
        n_fft (int, optional): FFT size. Default 512.
        win_length (int, optional): window size. Default None: n_fft.
        hop_length (int, optional): hop. Default None: win_length // 4.
        window (WindowType, optional): HANN (default), HAMMING, BLACKMAN or BARTLETT.

    Inputs:
        waveform (numpy.ndarray): (..., time).

    Outputs:
        numpy.ndarray, the same shape.

    Examples:
        >>> import numpy as np
        >>> import sporax.dataset.audio as audio
        >>> audio.PitchShift(8000, 2)(np.zeros(800, np.float32)).shape
        (800,)
    """

    def __init__(self, sample_rate, n_steps, bins_per_octave=12, n_fft=512, win_length=None,
                 hop_length=None, window=WindowType.HANN):
        name = "PitchShift"
        self.sample_rate = _positive(name, "sample_rate", sample_rate, integer=True)
        if isinstance(n_steps, bool) or not isinstance(n_steps, int):
            raise TypeError(f"{name}: n_steps should be an int.")
        if isinstance(bins_per_octave, bool) or not isinstance(bins_per_octave, int) or \
                bins_per_octave == 0:
            raise ValueError(f"{name}: Input bins_per_octave should be a non-zero int.")
        self.n_steps, self.bins_per_octave = n_steps, bins_per_octave
        self.n_fft, self.win_length, self.hop_length = _frame_lengths(name, n_fft, win_length, hop_length, 4)
        if not isinstance(window, WindowType):
            raise TypeError(f"{name}: window should be a WindowType.")
        self.window = window

    def __call__(self, waveform):
        array, dtype = _waveform("PitchShift", waveform)
        shape = array.shape
        x = array.reshape(-1, shape[-1]).astype(np.float64)
        length = x.shape[-1]
        rate = 2.0 ** (-float(self.n_steps) / self.bins_per_octave)
        stft = _STFT(self.n_fft, self.win_length, self.hop_length, self.window)
        spectrum = stft.forward(x)
        advance = np.linspace(0, math.pi * self.hop_length, spectrum.shape[-2])
        stacked = np.stack([spectrum.real, spectrum.imag], axis=-1)
        stretched = _phase_vocoder(stacked, rate, advance).astype(np.float64)
        stretched = stretched[..., 0] + 1j * stretched[..., 1]
        stretched_wave = stft.inverse(stretched, int(round(length / rate)))
        shifted = Resample(int(self.sample_rate / rate), self.sample_rate)(stretched_wave)
        if shifted.shape[-1] > length:
            shifted = shifted[..., :length]
        else:
            shifted = np.pad(shifted, ((0, 0), (0, length - shifted.shape[-1])))
        return shifted.astype(dtype).reshape(shape)


class GriffinLim(TensorOperation):
    """Recover a waveform from a magnitude spectrogram (..., n_fft // 2 + 1, frames) with the
    fast Griffin-Lim algorithm (phase estimated over ``n_iter`` iterations with momentum).

    Args:
        n_fft (int, optional): FFT size. Default 400.
        n_iter (int, optional): iterations. Default 32.
        win_length (int, optional): window size. Default None: n_fft.
        hop_length (int, optional): hop. Default None: win_length // 2.
        window_type (WindowType, optional): HANN (default), HAMMING, BLACKMAN or BARTLETT.
        power (float, optional): the spectrogram's exponent of the magnitude. Default 2.0.
        momentum (float, optional): the fast Griffin-Lim momentum in [0, 1). Default 0.99.
        length (int, optional): the output length. Default None: what the frames give.
        rand_init (bool, optional): start from random phases (else zero phase). Default True.

    Inputs:
        spectrogram (numpy.ndarray): (..., freq, frames).

    Outputs:
        numpy.ndarray, the waveform (..., time).

    Examples:
        >>> import numpy as np
        >>> import sporax.dataset.audio as audio
        >>> audio.GriffinLim(n_fft=16, n_iter=2, rand_init=False)(np.ones((9, 5), np.float32)).shape
        (32,)
    """

    def __init__(self, n_fft=400, n_iter=32, win_length=None, hop_length=None,
                 window_type=WindowType.HANN, power=2.0, momentum=0.99, length=None,
                 rand_init=True):
        name = "GriffinLim"
        self.n_fft, self.win_length, self.hop_length = _frame_lengths(name, n_fft, win_length, hop_length, 2)
        self.n_iter = _positive(name, "n_iter", n_iter, integer=True)
        if not isinstance(window_type, WindowType):
            raise TypeError(f"{name}: window_type should be a WindowType.")
        self.window_type = window_type
        self.power = _positive(name, "power", power)
        if isinstance(momentum, bool) or not isinstance(momentum, (int, float)) or \
                not 0 <= momentum < 1:
            raise ValueError(f"{name}: Input momentum is not within the required interval of "
                             "[0, 1).")
        self.momentum = momentum
        self.length = None if length is None else _positive(name, "length", length, integer=True,
                                                            allow_zero=True)
        if not isinstance(rand_init, bool):
            raise TypeError(f"{name}: rand_init should be a bool.")
        self.rand_init = rand_init

    @property
    def random(self):
        return self.rand_init

    def __call__(self, spectrogram):
        array = np.asarray(spectrogram)
        if array.ndim < 2 or array.shape[-2] != self.n_fft // 2 + 1:
            raise RuntimeError(f"GriffinLim: the input should be a spectrogram (..., "
                               f"{self.n_fft // 2 + 1}, frames) for n_fft {self.n_fft}, but got "
                               f"shape {array.shape}.")
        dtype = array.dtype if array.dtype.kind == "f" else np.float32
        shape = array.shape
        magnitude = array.reshape((-1,) + shape[-2:]).astype(np.float64) ** (1 / self.power)
        stft = _STFT(self.n_fft, self.win_length, self.hop_length, self.window_type)
        if self.rand_init:
            rng = random_generator()
            angles = rng.random(magnitude.shape) + 1j * rng.random(magnitude.shape)
        else:
            angles = np.ones(magnitude.shape, np.complex128)
        previous = 0
        for _ in range(self.n_iter):
            # the iterations keep the frames' own length; ``length`` shapes the final waveform
            inverse = stft.inverse(magnitude * angles)
            rebuilt = stft.forward(inverse)
            angles = rebuilt
            if self.momentum:
                angles = angles - previous * (self.momentum / (1 + self.momentum))
            angles = angles / (np.abs(angles) + 1e-16)
            previous = rebuilt
        waveform = stft.inverse(magnitude * angles, self.length)
        return waveform.astype(dtype).reshape(shape[:-2] + waveform.shape[-1:])


class InverseMelScale(TensorOperation):
    """Estimate a linear-frequency spectrogram from a mel one: minimise
    ``|| mel - fbanks^T spec ||^2`` over non-negative ``spec`` with SGD (momentum), from a
    random start.

    Args:
        n_stft (int): frequency bins of the linear spectrogram (n_fft // 2 + 1).
        n_mels (int, optional): mel bins. Default 128.
        sample_rate (int, optional): sampling rate. Default 16000.
        f_min (float, optional): lowest frequency. Default 0.0.
        f_max (float, optional): highest frequency. Default None: sample_rate // 2.
        max_iter (int, optional): SGD steps at most. Default 100000.
        tolerance_loss (float, optional): stop below this loss. Default 1e-5.
        tolerance_change (float, optional): stop when the loss changes less. Default 1e-8.
        sgdargs (dict, optional): {'sgd_lr': 0.1, 'sgd_momentum': 0.9} by default.
        norm (NormType, optional): the mel filter bank's norm. Default NONE.
        mel_type (MelType, optional): HTK (default) or SLANEY.

    Inputs:
        mel_specgram (numpy.ndarray): (..., n_mels, time).

    Outputs:
        numpy.ndarray, (batch, n_stft, time) as MindSpore gives it (a 2-D input gets a leading 1).

    Examples:
        >>> import numpy as np
        >>> import sporax.dataset.audio as audio
        >>> audio.InverseMelScale(n_stft=9, n_mels=4, sample_rate=8000, max_iter=5)(
        ...     np.ones((4, 3), np.float32)).shape
        (1, 9, 3)
    """

    def __init__(self, n_stft, n_mels=128, sample_rate=16000, f_min=0.0, f_max=None,
                 max_iter=100000, tolerance_loss=1e-5, tolerance_change=1e-8, sgdargs=None,
                 norm=NormType.NONE, mel_type=MelType.HTK):
        name = "InverseMelScale"
        self.n_stft = _positive(name, "n_stft", n_stft, integer=True)
        self.n_mels = _positive(name, "n_mels", n_mels, integer=True)
        self.sample_rate = _positive(name, "sample_rate", sample_rate, integer=True)
        self.f_min = float(f_min)
        self.f_max = float(sample_rate // 2 if f_max is None else f_max)
        self.max_iter = _positive(name, "max_iter", max_iter, integer=True, allow_zero=True)
        self.tolerance_loss = _positive(name, "tolerance_loss", tolerance_loss, allow_zero=True)
        self.tolerance_change = _positive(name, "tolerance_change", tolerance_change,
                                          allow_zero=True)
        self.sgdargs = {"sgd_lr": 0.1, "sgd_momentum": 0.9} if sgdargs is None else dict(sgdargs)
        self.norm, self.mel_type = norm, mel_type
        self._banks = melscale_fbanks(self.n_stft, self.f_min, self.f_max, self.n_mels,
                                      self.sample_rate, norm, mel_type).astype(np.float64)

    random = True

    def __call__(self, mel_specgram):
        array = np.asarray(mel_specgram)
        if array.ndim < 2 or array.shape[-2] != self.n_mels:
            raise RuntimeError(f"InverseMelScale: the input should be a mel spectrogram (..., "
                               f"{self.n_mels}, time), but got shape {array.shape}.")
        dtype = array.dtype if array.dtype.kind == "f" else np.float32
        shape = array.shape
        mel = np.swapaxes(array.reshape((-1,) + shape[-2:]).astype(np.float64), -1, -2)
        spec = random_generator().random(mel.shape[:-1] + (self.n_stft,))
        lr = self.sgdargs.get("sgd_lr", 0.1)
        momentum = self.sgdargs.get("sgd_momentum", 0.9)
        velocity = None
        loss = float("inf")
        rows = mel.shape[0] * mel.shape[1]
        for _ in range(self.max_iter):
            difference = mel - spec @ self._banks
            new_loss = float((difference ** 2).sum(-1).mean())
            gradient = -2.0 * difference @ self._banks.T / rows
            velocity = gradient if velocity is None else momentum * velocity + gradient
            spec = np.maximum(spec - lr * velocity, 0)
            if new_loss < self.tolerance_loss or abs(loss - new_loss) < self.tolerance_change:
                break
            loss = new_loss
        out = np.swapaxes(spec, -1, -2)
        leading = shape[:-2] if len(shape) > 2 else (1,)
        return out.reshape(leading + out.shape[-2:]).astype(dtype)
