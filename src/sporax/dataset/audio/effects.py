"""Audio effects of ``mindspore.dataset.audio``: ``Overdrive`` and the spectrogram masks
``MaskAlongAxis``, ``MaskAlongAxisIID``, ``TimeMasking``, ``FrequencyMasking`` (NumPy).

Overdrive (torchaudio/SoX's): ``t = x * 10 ** (gain / 20) + color / 200``, soft-clipped
(``t - t**3 / 3`` inside [-1, 1], ±2/3 outside), then per channel a DC-blocking filter
``y[n] = t[n] - t[n-1] + 0.995 * y[n-1]`` mixed as ``0.5 * x + 0.75 * y`` and clamped to [-1, 1].
MaskAlongAxis: the columns [mask_start, mask_start + mask_width) of the frequency (axis 1, the
second-to-last) or time (axis 2, the last) axis of a spectrogram take ``mask_value``.
MaskAlongAxisIID draws the band as MindSpore 2.10's kernel under a dataset seed (an integer width in
[0, mask_param], then a start in [0, length - width], GCC's uniform_int_distribution over the op's
``std::mt19937``); unseeded, width ``w = u1 * mask_param``, start ``s = u2 * (length - w)``, masking
``[floor(s), floor(s + w))`` (u1, u2 uniform in [0, 1)). Time/FrequencyMasking mask the
time/frequency axis: with ``iid_masks`` a random band as MaskAlongAxisIID, otherwise the fixed
band ``[mask_start, mask_start + mask_param)``.
"""
import numpy as np

from sporax.dataset.audio.filters import waveform_array
from sporax.dataset.core.random import eager_call, eager_words
from sporax.dataset.engine.sampler_order import below
from sporax.dataset.transforms.base import TensorOperation, random_generator


def _number(name, arg, value, low=None, high=None):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"Argument {arg} with value {value} is not of type [<class 'int'>, <class 'float'>], "
                        f"but got {type(value)}.")
    if (low is not None and value < low) or (high is not None and value > high):
        raise ValueError(f"Input {arg} is not within the required interval of [{low}, {high}].")
    return float(value)


class Overdrive(TensorOperation):
    """Apply an overdrive (soft clipping plus DC blocking) to a waveform (..., time).

    Args:
        gain (float): the gain in dB, in [0, 100]. Default: 20.0.
        color (float): the amount of even harmonics, in [0, 100]. Default: 20.0.
    """

    def __init__(self, gain=20.0, color=20.0):
        self.gain = _number("Overdrive", "gain", gain, 0, 100)
        self.color = _number("Overdrive", "color", color, 0, 100)

    def __call__(self, waveform):
        array, dtype = waveform_array("Overdrive", waveform)
        flat = array.reshape(-1, array.shape[-1]).astype(np.float64)
        driven = flat * 10 ** (self.gain / 20) + self.color / 200
        shaped = np.where(driven < -1, -2.0 / 3.0, np.where(driven > 1, 2.0 / 3.0, driven - driven ** 3 / 3))
        output = np.empty_like(flat)
        last_in = np.zeros(flat.shape[0])
        last_out = np.zeros(flat.shape[0])
        for index in range(flat.shape[1]):
            last_out = shaped[:, index] - last_in + 0.995 * last_out
            last_in = shaped[:, index]
            output[:, index] = flat[:, index] * 0.5 + last_out * 0.75
        return np.clip(output, -1, 1).reshape(array.shape).astype(dtype)


class MaskAlongAxis(TensorOperation):
    """Set a band of a spectrogram (..., freq, time) to ``mask_value``.

    Args:
        mask_start (int): the first masked column, >= 0.
        mask_width (int): the band width, > 0.
        mask_value (float): the value the band takes.
        axis (int): 1 for frequency, 2 for time.
    """

    def __init__(self, mask_start, mask_width, mask_value, axis):
        for arg, value, low in (("mask_start", mask_start, 0), ("mask_width", mask_width, 1)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"Argument {arg} with value {value} is not of type [<class 'int'>], but got "
                                f"{type(value)}.")
            if value < low:
                raise ValueError(f"Input {arg} is not within the required interval of [{low}, 2147483647].")
        if axis not in (1, 2) or isinstance(axis, bool):
            raise ValueError(f"Input axis is not within the required interval of [1, 2], but got {axis!r}.")
        self.mask_start, self.mask_width, self.axis = mask_start, mask_width, axis
        self.mask_value = _number("MaskAlongAxis", "mask_value", mask_value)

    def __call__(self, spectrogram):
        array = np.array(spectrogram)
        if array.ndim < 2:
            raise ValueError(f"MaskAlongAxis: the input must be at least 2-D (..., freq, time), but got shape "
                             f"{array.shape}.")
        axis = -2 if self.axis == 1 else -1
        if self.mask_start + self.mask_width > array.shape[axis]:
            raise RuntimeError(f"MaskAlongAxis: the sum of mask_start {self.mask_start} and mask_width "
                             f"{self.mask_width} is larger than the length {array.shape[axis]} of the axis.")
        index = [slice(None)] * array.ndim
        index[axis] = slice(self.mask_start, self.mask_start + self.mask_width)
        array[tuple(index)] = self.mask_value
        return array


def _mask(array, axis, start, stop, value):
    index = [slice(None)] * array.ndim
    index[axis] = slice(start, stop)
    array[tuple(index)] = value
    return array


def _spectrogram(name, spectrogram):
    array = np.array(spectrogram)
    if array.ndim < 2:
        raise RuntimeError(f"{name}: the input must be at least 2-D (..., freq, time), but got shape {array.shape}.")
    return array


def _non_negative_int(arg, value):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"Argument {arg} with value {value} is not of type [<class 'int'>], but got {type(value)}.")
    if value < 0:
        raise ValueError(f"Input {arg} is not within the required interval of [0, 2147483647].")
    return value


def _random_band(array, axis, mask_param, value, words=None):
    length = array.shape[axis]
    if words is not None:
        # MindSpore's kernel: a width in [0, mask_param], then a start in [0, length - width], both from GCC's
        # uniform_int_distribution over the op's std::mt19937.
        width = below(words, mask_param + 1)
        start = below(words, length - width + 1)
        return _mask(array, axis, start, start + width, value) if width else array
    rng = random_generator()
    width = rng.random() * mask_param
    start = rng.random() * (length - width)
    return _mask(array, axis, int(np.floor(start)), int(np.floor(start + width)), value)


class MaskAlongAxisIID(TensorOperation):
    """Mask a random band (width up to ``mask_param``) of the frequency (1) or time (2) axis.

    Args:
        mask_param (int): the largest band width, >= 0.
        mask_value (float): the value the band takes.
        axis (int): 1 for frequency, 2 for time.
    """

    random = True
    mindspore_draws = True

    def __init__(self, mask_param, mask_value, axis):
        self.mask_param = _non_negative_int("mask_param", mask_param)
        self.mask_value = _number("MaskAlongAxisIID", "mask_value", mask_value)
        if axis not in (1, 2) or isinstance(axis, bool):
            raise ValueError(f"Input axis is not within the required interval of [1, 2], but got {axis!r}.")
        self.axis = axis

    def __call__(self, spectrogram):
        array = _spectrogram("MaskAlongAxisIID", spectrogram)
        axis = -2 if self.axis == 1 else -1
        if self.mask_param > array.shape[axis]:
            raise RuntimeError(f"MaskAlongAxisIID: mask_param {self.mask_param} exceeds the axis length "
                               f"{array.shape[axis]}.")
        return _random_band(array, axis, self.mask_param, self.mask_value, eager_words(self))


class _AxisMasking(TensorOperation):
    _axis = -1
    _param_name = "time_mask_param"

    def __init__(self, iid_masks, mask_param, mask_start, mask_value):
        name = type(self).__name__
        if not isinstance(iid_masks, bool):
            raise TypeError(f"Argument iid_masks with value {iid_masks} is not of type [<class 'bool'>], but got "
                            f"{type(iid_masks)}.")
        self.iid_masks = iid_masks
        self.mask_param = _non_negative_int(self._param_name, mask_param)
        self.mask_start = _non_negative_int("mask_start", mask_start)
        self.mask_value = _number(name, "mask_value", mask_value, 0)
        # Random only with iid_masks: then, under a dataset seed, its draws are MindSpore's kernel's.
        self.random = self.mindspore_draws = iid_masks

    def __call__(self, spectrogram):
        name = type(self).__name__
        array = _spectrogram(name, spectrogram)
        length = array.shape[self._axis]
        if self.mask_param > length:
            raise RuntimeError(f"{name}: {self._param_name} {self.mask_param} exceeds the axis length {length}.")
        if self.iid_masks:
            with eager_call():
                return _random_band(array, self._axis, self.mask_param, self.mask_value, eager_words(self))
        if self.mask_start + self.mask_param > length:
            raise RuntimeError(f"{name}: mask_start {self.mask_start} plus {self._param_name} {self.mask_param} "
                               f"exceeds the axis length {length}.")
        return _mask(array, self._axis, self.mask_start, self.mask_start + self.mask_param, self.mask_value)


class TimeMasking(_AxisMasking):
    """Mask a band of the time axis of a spectrogram (..., freq, time).

    Args:
        iid_masks (bool): a random band (width up to ``time_mask_param``) instead of the fixed one.
            Default: False.
        time_mask_param (int): the band width (or its maximum with ``iid_masks``). Default: 0.
        mask_start (int): the fixed band's start. Default: 0.
        mask_value (float): the value the band takes, >= 0. Default: 0.0.
    """

    _axis = -1
    _param_name = "time_mask_param"

    def __init__(self, iid_masks=False, time_mask_param=0, mask_start=0, mask_value=0.0):
        super().__init__(iid_masks, time_mask_param, mask_start, mask_value)


class FrequencyMasking(_AxisMasking):
    """Mask a band of the frequency axis of a spectrogram (..., freq, time).

    Args: as ``TimeMasking``, with ``freq_mask_param`` (int) the band width. Default: 0.
    """

    _axis = -2
    _param_name = "freq_mask_param"

    def __init__(self, iid_masks=False, freq_mask_param=0, mask_start=0, mask_value=0.0):
        super().__init__(iid_masks, freq_mask_param, mask_start, mask_value)
