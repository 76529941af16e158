"""Level transforms of ``mindspore.dataset.audio``: ``Gain``, ``AmplitudeToDB``, ``DBToAmplitude``."""
import enum
import math
import numbers

import numpy as np

from sporax.dataset.transforms.base import TensorOperation


class ScaleType(str, enum.Enum):
    """Whether a spectrogram holds magnitudes or powers (``AmplitudeToDB``'s ``stype``)."""

    MAGNITUDE = "magnitude"
    POWER = "power"


def _real(name, arg, value, positive=False):
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name}: Argument {arg} with value {value!r} is not of type [<class 'float'>, <class 'int'>].")
    if positive and value <= 0:
        raise ValueError(f"{name}: Input {arg} is not within the required interval of (0, 16777216].")
    return float(value)


def _float_array(value):
    array = np.asarray(value)
    return array, (array.dtype if np.issubdtype(array.dtype, np.floating) else np.float32)


class Gain(TensorOperation):
    """Multiply a waveform by ``10 ** (gain_db / 20)``. Args: gain_db (float): Default: ``1.0``."""

    def __init__(self, gain_db=1.0):
        self.gain_db = _real("Gain", "gain_db", gain_db)

    def __call__(self, waveform):
        array, dtype = _float_array(waveform)
        return (array.astype(np.float64) * 10 ** (self.gain_db / 20)).astype(dtype)


class AmplitudeToDB(TensorOperation):
    """Convert a spectrogram (..., freq, time) to decibels, floored ``top_db`` below each spectrogram's peak.

    Args:
        stype (ScaleType): ``POWER`` (10 log10) or ``MAGNITUDE`` (20 log10). Default: ``ScaleType.POWER``.
        ref_value (float): the 0 dB reference (> 0). Default: ``1.0``.
        amin (float): the floor of the input (> 0). Default: ``1e-10``.
        top_db (float): the dynamic range kept (> 0), or None. Default: ``80.0``.
    """

    def __init__(self, stype=ScaleType.POWER, ref_value=1.0, amin=1e-10, top_db=80.0):
        if not isinstance(stype, ScaleType):
            raise TypeError(f"AmplitudeToDB: stype must be ScaleType, but got {type(stype).__name__}.")
        self.stype = stype
        self.ref_value = _real("AmplitudeToDB", "ref_value", ref_value, positive=True)
        self.amin = _real("AmplitudeToDB", "amin", amin, positive=True)
        self.top_db = None if top_db is None else _real("AmplitudeToDB", "top_db", top_db, positive=True)

    def __call__(self, spectrogram):
        array, dtype = _float_array(spectrogram)
        if array.ndim < 2:
            raise RuntimeError(f"AmplitudeToDB: the input must be (..., freq, time), but got shape {array.shape}.")
        multiplier = 10.0 if self.stype == ScaleType.POWER else 20.0
        decibels = multiplier * np.log10(np.maximum(array.astype(np.float64), self.amin))
        decibels -= multiplier * math.log10(max(self.ref_value, self.amin))
        if self.top_db is not None:
            peak = decibels.max(axis=(-2, -1), keepdims=True)
            decibels = np.maximum(decibels, peak - self.top_db)
        return decibels.astype(dtype)


class DBToAmplitude(TensorOperation):
    """Convert decibels back: ``ref * (10 ** (0.1 * x)) ** power``. Args: ref (float), power (float)."""

    def __init__(self, ref, power):
        self.ref = _real("DBToAmplitude", "ref", ref)
        self.power = _real("DBToAmplitude", "power", power)

    def __call__(self, decibels):
        array, dtype = _float_array(decibels)
        return (self.ref * np.power(np.power(10.0, 0.1 * array.astype(np.float64)), self.power)).astype(dtype)
