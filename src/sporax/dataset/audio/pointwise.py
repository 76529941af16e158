"""Pointwise and small-window audio transforms of ``mindspore.dataset.audio``.

Angle/ComplexNorm/Magphase read complex values stored as a trailing axis of 2 (real, imaginary);
MuLaw* are the ITU-T G.711 companding curves; DCShift, Vol, Fade and Contrast follow MindSpore's
kernels (SoX-derived; Fade's exponential curve is ``f * 2 ** (f - 1)``); ComputeDeltas is the
regression ``sum_n n (x[t+n] - x[t-n]) / 2 sum n^2`` over ``(win_length - 1) / 2`` frames with edge
padding; ``create_dct`` is the DCT-II matrix (n_mels, n_mfcc).
"""
import math
import numbers

import numpy as np

from sporax.dataset.core.option_enums import string_enum
from sporax.dataset.transforms.base import TensorOperation


GainType = string_enum("GainType", __name__, "How ``Vol`` reads its gain.",
                       "amplitude", "power", "db")


FadeShape = string_enum("FadeShape", __name__, "The curve of ``Fade``.",
                        "linear", "exponential", "logarithmic", "quarter_sine", "half_sine")


NormMode = string_enum("NormMode", __name__, "The normalisation of ``create_dct``.",
                       "ortho", "none")


BorderType = string_enum("BorderType", __name__, "Padding modes.", "constant", "edge", "reflect", "symmetric")
# NumPy's np.pad mode for each BorderType (ComputeDeltas and Spectrogram pad with these).
PAD_MODES = {BorderType.CONSTANT: "constant", BorderType.EDGE: "edge", BorderType.REFLECT: "reflect",
             BorderType.SYMMETRIC: "symmetric"}


def _real(name, arg, value):
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name}: Argument {arg} with value {value!r} is not of type [<class 'float'>, <class 'int'>].")
    return float(value)


def _float(value):
    array = np.asarray(value)
    dtype = array.dtype if np.issubdtype(array.dtype, np.floating) else np.float32
    return array.astype(np.float64), dtype


def _complex(name, value):
    array, dtype = _float(value)
    if array.ndim < 1 or array.shape[-1] != 2:
        raise RuntimeError(f"{name}: the input must be complex as (..., 2), but got shape {array.shape}.")
    return array[..., 0], array[..., 1], dtype


class Angle(TensorOperation):
    """The phase ``atan2(imag, real)`` of a complex (..., 2) array."""

    def __call__(self, data):
        real, imag, dtype = _complex("Angle", data)
        return np.arctan2(imag, real).astype(dtype)


class ComplexNorm(TensorOperation):
    """The norm ``|z| ** power`` of a complex (..., 2) array. Args: power (float): Default: ``1.0``."""

    def __init__(self, power=1.0):
        self.power = _real("ComplexNorm", "power", power)

    def __call__(self, data):
        real, imag, dtype = _complex("ComplexNorm", data)
        return np.power(real * real + imag * imag, self.power / 2).astype(dtype)


class Magphase(TensorOperation):
    """``(|z| ** power, angle(z))`` of a complex (..., 2) array. Args: power (float): Default: ``1.0``."""

    def __init__(self, power=1.0):
        self.power = _real("Magphase", "power", power)

    def __call__(self, data):
        real, imag, dtype = _complex("Magphase", data)
        return (np.power(real * real + imag * imag, self.power / 2).astype(dtype),
                np.arctan2(imag, real).astype(dtype))


def _channels(name, value):
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ValueError(f"{name}: Input quantization_channels is not within the required interval of [1, 2147483647].")
    return value


class MuLawEncoding(TensorOperation):
    """Mu-law companding of a waveform in [-1, 1] into ``quantization_channels`` int32 codes."""

    def __init__(self, quantization_channels=256):
        self.quantization_channels = _channels("MuLawEncoding", quantization_channels)

    def __call__(self, waveform):
        x, _ = _float(waveform)
        mu = self.quantization_channels - 1.0
        companded = np.sign(x) * np.log1p(mu * np.abs(x)) / math.log1p(mu)
        return ((companded + 1) / 2 * mu + 0.5).astype(np.int32)


class MuLawDecoding(TensorOperation):
    """The inverse of ``MuLawEncoding``: codes back to a float32 waveform."""

    def __init__(self, quantization_channels=256):
        self.quantization_channels = _channels("MuLawDecoding", quantization_channels)

    def __call__(self, data):
        codes = np.asarray(data)
        # Float64 codes decode to Float64, everything else to Float32 (MindSpore 2.10).
        dtype = np.float64 if codes.dtype == np.float64 else np.float32
        mu = self.quantization_channels - 1.0
        x = codes.astype(np.float64) / mu * 2 - 1.0
        return (np.sign(x) * (np.exp(np.abs(x) * math.log1p(mu)) - 1.0) / mu).astype(dtype)


class DCShift(TensorOperation):
    """Add ``shift`` (in [-2, 2]) to a waveform, with SoX's limiter when ``limiter_gain`` is given."""

    def __init__(self, shift, limiter_gain=None):
        self.shift = _real("DCShift", "shift", shift)
        if not -2.0 <= self.shift <= 2.0:
            raise ValueError("DCShift: Input shift is not within the required interval of [-2.0, 2.0].")
        self.limiter_gain = None if limiter_gain is None else _real("DCShift", "limiter_gain", limiter_gain)

    def __call__(self, waveform):
        x, dtype = _float(waveform)
        shift, gain = self.shift, self.limiter_gain
        if gain is None or shift == 0:
            return np.clip(x + shift, -1, 1).astype(dtype)
        threshold = 1.0 - (abs(shift) - gain)
        if shift > 0:
            mask = x > threshold
            limited = np.minimum((x - threshold) * gain / (1 - threshold) + threshold + shift, threshold)
        else:
            mask = x < -threshold
            # MindSpore adds the threshold back on this side too (its kernel, not SoX's mirror image).
            limited = np.maximum((x + threshold) * gain / (1 - threshold) + threshold + shift, -threshold)
        return np.where(mask, limited, np.clip(x + shift, -1, 1)).astype(dtype)


class Vol(TensorOperation):
    """Scale a waveform by ``gain`` read as ``gain_type`` (amplitude ratio, power ratio or dB); clamp to [-1, 1]."""

    def __init__(self, gain, gain_type=GainType.AMPLITUDE):
        if not isinstance(gain_type, GainType):
            raise TypeError(f"Vol: gain_type must be GainType, but got {type(gain_type).__name__}.")
        self.gain = _real("Vol", "gain", gain)
        if gain_type in (GainType.AMPLITUDE, GainType.POWER) and self.gain < 0:
            raise ValueError("Vol: Input gain is not within the required interval of [0, 16777216].")
        if gain_type == GainType.POWER and self.gain == 0:
            raise ValueError("Vol: Input gain is not within the required interval of (0, 16777216].")
        self.gain_type = gain_type

    def __call__(self, waveform):
        x, dtype = _float(waveform)
        if self.gain_type == GainType.AMPLITUDE:
            factor = self.gain
        elif self.gain_type == GainType.DB:
            factor = 10 ** (self.gain / 20)
        else:
            factor = 10 ** (10 * math.log10(self.gain) / 20)
        return np.clip(x * factor, -1, 1).astype(dtype)


def _fade_curve(shape, length, fade_in):
    ramp = np.linspace(0.0, 1.0, length) if length > 1 else np.zeros(length)
    if fade_in:
        curves = {FadeShape.LINEAR: lambda f: f, FadeShape.EXPONENTIAL: lambda f: f * 2 ** (f - 1),
                  FadeShape.LOGARITHMIC: lambda f: np.log10(0.1 + f) + 1,
                  FadeShape.QUARTER_SINE: lambda f: np.sin(f * math.pi / 2),
                  FadeShape.HALF_SINE: lambda f: np.sin(f * math.pi - math.pi / 2) / 2 + 0.5}
    else:
        curves = {FadeShape.LINEAR: lambda f: 1 - f, FadeShape.EXPONENTIAL: lambda f: (1 - f) * 2 ** (-f),
                  FadeShape.LOGARITHMIC: lambda f: np.log10(1.1 - f) + 1,
                  FadeShape.QUARTER_SINE: lambda f: np.sin(f * math.pi / 2 + math.pi / 2),
                  FadeShape.HALF_SINE: lambda f: np.sin(f * math.pi + math.pi / 2) / 2 + 0.5}
    return curves[shape](ramp)


class Fade(TensorOperation):
    """Fade a waveform in over ``fade_in_len`` samples and out over ``fade_out_len`` samples.

    Args:
        fade_in_len (int): Default: ``0``. fade_out_len (int): Default: ``0``.
        fade_shape (FadeShape): Default: ``FadeShape.LINEAR``.
    """

    def __init__(self, fade_in_len=0, fade_out_len=0, fade_shape=FadeShape.LINEAR):
        for name, value in (("fade_in_len", fade_in_len), ("fade_out_len", fade_out_len)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"Fade: Input {name} is not within the required interval of [0, 2147483647].")
        if not isinstance(fade_shape, FadeShape):
            raise TypeError(f"Fade: fade_shape must be FadeShape, but got {type(fade_shape).__name__}.")
        self.fade_in_len, self.fade_out_len, self.fade_shape = fade_in_len, fade_out_len, fade_shape

    def __call__(self, waveform):
        x, dtype = _float(waveform)
        length = x.shape[-1]
        if self.fade_in_len > length or self.fade_out_len > length:
            raise RuntimeError(f"Fade: fade lengths ({self.fade_in_len}, {self.fade_out_len}) must not exceed the "
                               f"waveform length {length}.")
        envelope = np.ones(length)
        envelope[:self.fade_in_len] *= _fade_curve(self.fade_shape, self.fade_in_len, True)
        envelope[length - self.fade_out_len:] *= _fade_curve(self.fade_shape, self.fade_out_len, False)
        return (x * envelope).astype(dtype)


class Contrast(TensorOperation):
    """SoX's contrast effect ``sin(x pi/2 + amount/750 * sin(2 pi x))``. Args: enhancement_amount in [0, 100]."""

    def __init__(self, enhancement_amount=75.0):
        self.enhancement_amount = _real("Contrast", "enhancement_amount", enhancement_amount)
        if not 0 <= self.enhancement_amount <= 100:
            raise ValueError("Contrast: Input enhancement_amount is not within the required interval of [0, 100].")

    def __call__(self, waveform):
        x, dtype = _float(waveform)
        angle = x * math.pi / 2
        return np.sin(angle + self.enhancement_amount / 750 * np.sin(angle * 4)).astype(dtype)


class ComputeDeltas(TensorOperation):
    """Delta coefficients of a spectrogram (..., freq, time) along time.

    Args:
        win_length (int): an odd window >= 3. Default: ``5``.
        pad_mode (BorderType): how the time axis is padded at both ends (CONSTANT pads zeros). Default:
            ``BorderType.EDGE``.
    """

    def __init__(self, win_length=5, pad_mode=BorderType.EDGE):
        if isinstance(win_length, bool) or not isinstance(win_length, int) or win_length < 3:
            raise ValueError("ComputeDeltas: Input win_length is not within the required interval of [3, 2147483647].")
        if pad_mode not in PAD_MODES:
            raise TypeError(f"ComputeDeltas: pad_mode must be a BorderType, but got {pad_mode!r}.")
        self.win_length, self.pad_mode = win_length, pad_mode

    def __call__(self, spectrogram):
        x, dtype = _float(spectrogram)
        half = (self.win_length - 1) // 2
        padded = np.pad(x, [(0, 0)] * (x.ndim - 1) + [(half, half)], mode=PAD_MODES[self.pad_mode])
        length = x.shape[-1]
        total = sum(n * (padded[..., half + n: half + n + length] - padded[..., half - n: half - n + length])
                    for n in range(1, half + 1))
        return (total / (half * (half + 1) * (2 * half + 1) / 3)).astype(dtype)


def create_dct(n_mfcc, n_mels, norm=NormMode.NONE):
    """The DCT-II matrix (n_mels, n_mfcc) that turns log-mel frames into MFCCs (``norm`` ORTHO: orthonormal)."""
    for name, value in (("n_mfcc", n_mfcc), ("n_mels", n_mels)):
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            raise ValueError(f"create_dct: Input {name} is not within the required interval of [1, 2147483647].")
    if not isinstance(norm, NormMode):
        raise TypeError(f"create_dct: norm must be NormMode, but got {type(norm).__name__}.")
    frequencies = np.arange(n_mels, dtype=np.float64)
    orders = np.arange(n_mfcc, dtype=np.float64)[:, None]
    dct = np.cos(math.pi / n_mels * (frequencies + 0.5) * orders)
    if norm == NormMode.NONE:
        dct *= 2.0
    else:
        dct[0] *= 1.0 / math.sqrt(2.0)
        dct *= math.sqrt(2.0 / n_mels)
    return dct.T.astype(np.float32)
