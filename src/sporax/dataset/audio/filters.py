"""Audio filters of ``mindspore.dataset.audio``: the RBJ-cookbook biquads, ``Biquad``, ``LFilter``,
``Filtfilt`` and ``RiaaBiquad``.

Every filter is a direct-form IIR ``a[0] y[n] = sum_k b[k] x[n-k] - sum_{k>=1} a[k] y[n-k]`` run along
the last axis of a NumPy waveform ``(..., time)`` in float64, optionally clamped to [-1, 1], and
returned in the input's float dtype. The biquad coefficients are the Audio-EQ-Cookbook formulas
(w0 = 2 pi f / sample_rate, alpha = sin(w0) / (2 Q)), which MindSpore (like torchaudio/SoX) uses.

``Filtfilt`` (zero-phase IIR) runs ``lfilter`` forward (unclamped), then over the reversed result
(clamped when ``clamp``), and reverses again, so the phase shifts cancel. ``RiaaBiquad`` is the RIAA
vinyl playback equalisation as a biquad with SoX's zeros and poles for 44.1, 48, 88.2 and 96 kHz,
scaled to 0 dB at 1 kHz.
"""
import math
import numbers

import numpy as np

from sporax.dataset.transforms.base import TensorOperation


def lfilter(waveform, a_coeffs, b_coeffs, clamp=True):
    """Filter ``waveform`` (..., time) with denominator ``a_coeffs`` and numerator ``b_coeffs``."""
    a = np.asarray(a_coeffs, np.float64)
    b = np.asarray(b_coeffs, np.float64)
    order = max(len(a), len(b))
    b = np.pad(b, (0, order - len(b))) / a[0]
    a = np.pad(a, (0, order - len(a))) / a[0]
    x = np.asarray(waveform, np.float64)
    flat = x.reshape(-1, x.shape[-1])
    padded = np.concatenate([np.zeros((flat.shape[0], order - 1)), flat], axis=1)
    # The feed-forward part is one correlation; the feedback part is the recursion below.
    forward = sum(b[k] * padded[:, order - 1 - k: padded.shape[1] - k] for k in range(order))
    output = np.zeros((flat.shape[0], flat.shape[1] + order - 1))
    for n in range(flat.shape[1]):
        past = output[:, n: n + order - 1][:, ::-1]
        output[:, n + order - 1] = forward[:, n] - past @ a[1:]
    result = output[:, order - 1:]
    if clamp:
        result = np.clip(result, -1.0, 1.0)
    return result.reshape(x.shape)


def waveform_array(name, waveform, error=TypeError):
    """``waveform`` as a numeric array of shape (..., time), and the float dtype the transform
    ``name`` returns (the input's, float32 for integers); raises ``error`` for anything else."""
    array = np.asarray(waveform)
    if array.ndim < 1 or not np.issubdtype(array.dtype, np.number):
        raise error(f"{name}: the input must be a numeric waveform of shape (..., time), but got "
                    f"{array.dtype} of shape {array.shape}.")
    return array, (array.dtype if np.issubdtype(array.dtype, np.floating) else np.float32)


def _number(name, arg, value, low=None, high=None, low_open=True, high_open=False):
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name}: Argument {arg} with value {value!r} is not of type [<class 'float'>, "
                        f"<class 'int'>].")
    if low is not None and (value <= low if low_open else value < low) or \
            high is not None and (value >= high if high_open else value > high):
        raise ValueError(f"{name}: Input {arg} is not within the required interval of "
                         f"{'(' if low_open else '['}{low}, {high}{')' if high_open else ']'}.")
    return float(value)


class _Filter(TensorOperation):
    """A transform that runs ``lfilter`` with the coefficients ``_coefficients()`` gives."""

    clamp = True

    def __call__(self, waveform):
        array, out_dtype = waveform_array(type(self).__name__, waveform)
        b, a = self._coefficients()
        return lfilter(array, a, b, self.clamp).astype(out_dtype)


class _Cookbook(_Filter):
    """A biquad at ``central_freq`` for ``sample_rate`` with quality ``Q`` in (0, 1]."""

    def _setup(self, sample_rate, central_freq, Q):
        name = type(self).__name__
        if isinstance(sample_rate, bool) or not isinstance(sample_rate, int):
            raise TypeError(f"{name}: Argument sample_rate with value {sample_rate!r} is not of type [<class 'int'>].")
        if sample_rate == 0:
            raise ValueError(f"{name}: Input sample_rate can not be 0.")
        self.sample_rate = sample_rate
        self.central_freq = _number(name, "central_freq", central_freq)
        self.Q = _number(name, "Q", Q, 0, 1)

    def _terms(self):
        w0 = 2 * math.pi * self.central_freq / self.sample_rate
        return w0, math.cos(w0), math.sin(w0) / 2 / self.Q


class _Shelf(_Cookbook):
    def __init__(self, sample_rate, gain, central_freq, Q):
        self._setup(sample_rate, central_freq, Q)
        self.gain = _number(type(self).__name__, "gain", gain)

    def _shelf_terms(self):
        w0, cos_w0, alpha = self._terms()
        level = math.exp(self.gain / 40 * math.log(10))
        return level, 2 * math.sqrt(level) * alpha, (level - 1) * cos_w0, (level + 1) * cos_w0


class BassBiquad(_Shelf):
    """Boost or cut the bass below ``central_freq`` by ``gain`` dB (a low-shelf biquad).

    Args:
        sample_rate (int): the sampling rate (Hz), not 0. gain (float): dB.
        central_freq (float): Default: ``100.0``. Q (float): in (0, 1]. Default: ``0.707``.

    Example:
        >>> import numpy as np
        >>> from sporax.dataset.audio import BassBiquad
        >>> BassBiquad(44100, 10.0)(np.zeros((1, 4), np.float32)).shape
        (1, 4)
    """

    def __init__(self, sample_rate, gain, central_freq=100.0, Q=0.707):
        super().__init__(sample_rate, gain, central_freq, Q)

    def _coefficients(self):
        level, t1, t2, t3 = self._shelf_terms()
        b = [level * ((level + 1) - t2 + t1), 2 * level * ((level - 1) - t3), level * ((level + 1) - t2 - t1)]
        a = [(level + 1) + t2 + t1, -2 * ((level - 1) + t3), (level + 1) + t2 - t1]
        return b, a


class TrebleBiquad(_Shelf):
    """Boost or cut the treble above ``central_freq`` by ``gain`` dB (a high-shelf biquad).

    Args:
        sample_rate (int), gain (float), central_freq (float): Default: ``3000``. Q (float): Default: ``0.707``.
    """

    def __init__(self, sample_rate, gain, central_freq=3000, Q=0.707):
        super().__init__(sample_rate, gain, central_freq, Q)

    def _coefficients(self):
        level, t1, t2, t3 = self._shelf_terms()
        b = [level * ((level + 1) + t2 + t1), -2 * level * ((level - 1) + t3), level * ((level + 1) + t2 - t1)]
        a = [(level + 1) - t2 + t1, 2 * ((level - 1) - t3), (level + 1) - t2 - t1]
        return b, a


class LowpassBiquad(_Cookbook):
    """Two-pole low-pass filter at ``cutoff_freq``. Args: sample_rate (int), cutoff_freq (float), Q (float)."""

    def __init__(self, sample_rate, cutoff_freq, Q=0.707):
        self._setup(sample_rate, cutoff_freq, Q)
        self.cutoff_freq = self.central_freq

    def _coefficients(self):
        _, cos_w0, alpha = self._terms()
        return [(1 - cos_w0) / 2, 1 - cos_w0, (1 - cos_w0) / 2], [1 + alpha, -2 * cos_w0, 1 - alpha]


class HighpassBiquad(_Cookbook):
    """Two-pole high-pass filter at ``cutoff_freq``. Args: sample_rate (int), cutoff_freq (float), Q (float)."""

    def __init__(self, sample_rate, cutoff_freq, Q=0.707):
        self._setup(sample_rate, cutoff_freq, Q)
        self.cutoff_freq = self.central_freq

    def _coefficients(self):
        _, cos_w0, alpha = self._terms()
        return [(1 + cos_w0) / 2, -1 - cos_w0, (1 + cos_w0) / 2], [1 + alpha, -2 * cos_w0, 1 - alpha]


class BandpassBiquad(_Cookbook):
    """Two-pole band-pass filter; ``const_skirt_gain`` gives constant skirt gain (peak gain = Q).

    Args: sample_rate (int), central_freq (float), Q (float): Default ``0.707``, const_skirt_gain (bool).
    """

    def __init__(self, sample_rate, central_freq, Q=0.707, const_skirt_gain=False):
        self._setup(sample_rate, central_freq, Q)
        if not isinstance(const_skirt_gain, bool):
            raise TypeError(f"BandpassBiquad: const_skirt_gain must be a bool, but got {const_skirt_gain!r}.")
        self.const_skirt_gain = const_skirt_gain

    def _coefficients(self):
        w0, cos_w0, alpha = self._terms()
        peak = math.sin(w0) / 2 if self.const_skirt_gain else alpha
        return [peak, 0.0, -peak], [1 + alpha, -2 * cos_w0, 1 - alpha]


class BandrejectBiquad(_Cookbook):
    """Two-pole band-reject (notch) filter. Args: sample_rate (int), central_freq (float), Q (float)."""

    def __init__(self, sample_rate, central_freq, Q=0.707):
        self._setup(sample_rate, central_freq, Q)

    def _coefficients(self):
        _, cos_w0, alpha = self._terms()
        return [1.0, -2 * cos_w0, 1.0], [1 + alpha, -2 * cos_w0, 1 - alpha]


class AllpassBiquad(_Cookbook):
    """Two-pole all-pass filter (phase only). Args: sample_rate (int), central_freq (float), Q (float)."""

    def __init__(self, sample_rate, central_freq, Q=0.707):
        self._setup(sample_rate, central_freq, Q)

    def _coefficients(self):
        _, cos_w0, alpha = self._terms()
        return [1 - alpha, -2 * cos_w0, 1 + alpha], [1 + alpha, -2 * cos_w0, 1 - alpha]


class EqualizerBiquad(_Cookbook):
    """A peaking equalizer: ``gain`` dB around ``center_freq``. Args: sample_rate, center_freq, gain, Q."""

    def __init__(self, sample_rate, center_freq, gain, Q=0.707):
        self._setup(sample_rate, center_freq, Q)
        self.center_freq = self.central_freq
        self.gain = _number("EqualizerBiquad", "gain", gain)

    def _coefficients(self):
        _, cos_w0, alpha = self._terms()
        level = math.exp(self.gain / 40 * math.log(10))
        return ([1 + alpha * level, -2 * cos_w0, 1 - alpha * level],
                [1 + alpha / level, -2 * cos_w0, 1 - alpha / level])


class Biquad(_Filter):
    """A biquad with the given coefficients ``b0, b1, b2`` (numerator) and ``a0, a1, a2`` (a0 != 0)."""

    def __init__(self, b0, b1, b2, a0, a1, a2):
        values = [_number("Biquad", name, value) for name, value in
                  (("b0", b0), ("b1", b1), ("b2", b2), ("a0", a0), ("a1", a1), ("a2", a2))]
        if values[3] == 0:
            raise ValueError("Biquad: Input a0 can not be 0.")
        self.b0, self.b1, self.b2, self.a0, self.a1, self.a2 = values

    def _coefficients(self):
        return [self.b0, self.b1, self.b2], [self.a0, self.a1, self.a2]


class LFilter(_Filter):
    """An IIR filter given by its coefficient lists (same length; ``a_coeffs[0]`` != 0), clamped if ``clamp``."""

    def __init__(self, a_coeffs, b_coeffs, clamp=True):
        if len(a_coeffs) != len(b_coeffs):
            raise ValueError("LFilter: the size of a_coeffs should be the same as that of b_coeffs.")
        self.a_coeffs = [_number("LFilter", "a_coeffs", value) for value in a_coeffs]
        self.b_coeffs = [_number("LFilter", "b_coeffs", value) for value in b_coeffs]
        if not isinstance(clamp, bool):
            raise TypeError(f"LFilter: clamp must be a bool, but got {clamp!r}.")
        self.clamp = clamp

    def _coefficients(self):
        return self.b_coeffs, self.a_coeffs


class BandBiquad(_Cookbook):
    """SoX's two-pole band filter around ``central_freq`` (bandwidth ``central_freq / Q``).

    Args: sample_rate (int), central_freq (float), Q (float): Default ``0.707``,
        noise (bool): tune the gain for unpitched audio. Default: ``False``.
    """

    def __init__(self, sample_rate, central_freq, Q=0.707, noise=False):
        self._setup(sample_rate, central_freq, Q)
        if not isinstance(noise, bool):
            raise TypeError(f"BandBiquad: noise must be a bool, but got {noise!r}.")
        self.noise = noise

    def _coefficients(self):
        w0 = 2 * math.pi * self.central_freq / self.sample_rate
        a2 = math.exp(-2 * math.pi * (self.central_freq / self.Q) / self.sample_rate)
        a1 = -4 * a2 / (1 + a2) * math.cos(w0)
        b0 = math.sqrt(1 - a1 * a1 / (4 * a2)) * (1 - a2)
        if self.noise:
            b0 *= math.sqrt(((1 + a2) ** 2 - a1 * a1) * (1 - a2) / (1 + a2)) / b0
        return [b0, 0.0, 0.0], [1.0, a1, a2]


class DeemphBiquad(_Filter):
    """The CD de-emphasis filter (ISO 908) for ``sample_rate`` 44100 or 48000 (a shelving biquad)."""

    _DESIGNS = {44100: (5283.0, 0.4845, -9.477), 48000: (5356.0, 0.479, -9.62)}

    def __init__(self, sample_rate):
        if sample_rate not in self._DESIGNS or isinstance(sample_rate, bool):
            raise ValueError("DeemphBiquad: Argument sample_rate should be 44100 or 48000, but got "
                             f"{sample_rate!r}.")
        self.sample_rate = sample_rate

    def _coefficients(self):
        central_freq, slope, gain = self._DESIGNS[self.sample_rate]
        w0 = 2 * math.pi * central_freq / self.sample_rate
        level = math.exp(gain / 40 * math.log(10))
        alpha = math.sin(w0) / 2 * math.sqrt((level + 1 / level) * (1 / slope - 1) + 2)
        t1, t2, t3 = 2 * math.sqrt(level) * alpha, (level - 1) * math.cos(w0), (level + 1) * math.cos(w0)
        b = [level * ((level + 1) + t2 + t1), -2 * level * ((level - 1) + t3), level * ((level + 1) + t2 - t1)]
        a = [(level + 1) - t2 + t1, 2 * ((level - 1) - t3), (level + 1) - t2 - t1]
        return b, a


# SoX's RIAA zeros and poles per sampling rate.
_RIAA = {44100: ((-0.2014898, 0.9233820), (0.7083149, 0.9924091)),
         48000: ((-0.1766069, 0.9321590), (0.7396325, 0.9931330)),
         88200: ((-0.1168735, 0.9648312), (0.8590646, 0.9964002)),
         96000: ((-0.1141486, 0.9676817), (0.8699137, 0.9966946))}


class Filtfilt(LFilter):
    """Zero-phase IIR filtering (forward, then backward) of a waveform (..., time).

    Args:
        a_coeffs (Sequence[float]): the denominator, ``a_coeffs[0]`` != 0.
        b_coeffs (Sequence[float]): the numerator, as long as ``a_coeffs``.
        clamp (bool): clamp the result to [-1, 1]. Default: True.
    """

    def __call__(self, waveform):
        array, out_dtype = waveform_array("Filtfilt", waveform)
        forward = lfilter(array, self.a_coeffs, self.b_coeffs, clamp=False)
        backward = lfilter(forward[..., ::-1], self.a_coeffs, self.b_coeffs, clamp=self.clamp)[..., ::-1]
        return np.ascontiguousarray(backward).astype(out_dtype)


class RiaaBiquad(_Filter):
    """RIAA playback equalisation of a waveform (..., time).

    Args:
        sample_rate (int): 44100, 48000, 88200 or 96000.
    """

    def __init__(self, sample_rate):
        if sample_rate not in _RIAA or isinstance(sample_rate, bool):
            raise ValueError(f"RiaaBiquad: sample_rate should be one of [44100, 48000, 88200, 96000], but got "
                             f"{sample_rate!r}.")
        self.sample_rate = sample_rate

    def _coefficients(self):
        zeros, poles = _RIAA[self.sample_rate]
        b = [1.0, -(zeros[0] + zeros[1]), zeros[0] * zeros[1]]
        a = [1.0, -(poles[0] + poles[1]), poles[0] * poles[1]]
        angle = 2 * math.pi * 1000 / self.sample_rate

        def response(coefficients):
            real = sum(c * math.cos(-k * angle) for k, c in enumerate(coefficients))
            imaginary = sum(c * math.sin(-k * angle) for k, c in enumerate(coefficients))
            return real * real + imaginary * imaginary

        gain = 1 / math.sqrt(response(b) / response(a))
        return [value * gain for value in b], a
