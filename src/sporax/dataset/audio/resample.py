"""``Resample`` of ``mindspore.dataset.audio``: band-limited resampling by windowed-sinc interpolation.

With ``g = gcd(orig_freq, new_freq)``, ``o = orig_freq / g`` and ``n = new_freq / g``, the waveform
is filtered by ``n`` polyphase kernels of a sinc low-pass at ``rolloff * min(o, n)`` (windowed by a
squared cosine for SINC_INTERPOLATION or a Kaiser window of ``beta`` for KAISER_WINDOW, reaching
``lowpass_filter_width`` zero crossings) and decimated by ``o``; the output has
``ceil(n * length / o)`` samples (torchaudio's algorithm, which MindSpore follows).
"""
import enum
import math

import numpy as np

from sporax.dataset.audio.filters import waveform_array
from sporax.dataset.transforms.base import TensorOperation

_KAISER_BETA = 14.769656459379492


class ResampleMethod(str, enum.Enum):
    """Resampling windows: ``SINC_INTERPOLATION`` (squared cosine) or ``KAISER_WINDOW``."""

    SINC_INTERPOLATION = "sinc_interpolation"
    KAISER_WINDOW = "kaiser_window"


def _kernel(orig, new, width_crossings, rolloff, method, beta, phases=None):
    """The first ``phases`` (default all ``new``) polyphase kernels and the filter's half width."""
    base = min(orig, new) * rolloff
    width = math.ceil(width_crossings * orig / base)
    index = np.arange(-width, width + orig, dtype=np.float64)[None, :] / orig
    phases = new if phases is None else phases
    times = (np.arange(0, -phases, -1, dtype=np.float64)[:, None] / new + index) * base
    times = np.clip(times, -width_crossings, width_crossings)
    if method == ResampleMethod.SINC_INTERPOLATION:
        window = np.cos(times * math.pi / width_crossings / 2) ** 2
    else:
        beta = _KAISER_BETA if beta is None else beta
        window = np.i0(beta * np.sqrt(1 - (times / width_crossings) ** 2)) / np.i0(beta)
    times = times * math.pi
    with np.errstate(invalid="ignore", divide="ignore"):
        kernels = np.where(times == 0, 1.0, np.sin(times) / times)
    return kernels * window * (base / orig), width


class Resample(TensorOperation):
    """Resample a waveform (..., time) from ``orig_freq`` to ``new_freq``.

    Args:
        orig_freq (float): the original sampling rate, > 0. Default: 16000.
        new_freq (float): the target sampling rate, > 0. Default: 16000.
        resample_method (ResampleMethod): the window. Default: ResampleMethod.SINC_INTERPOLATION.
        lowpass_filter_width (int): the zero crossings of the filter (its sharpness), > 0. Default: 6.
        rolloff (float): the pass band as a fraction of the lower Nyquist rate, in (0, 1]. Default: 0.99.
        beta (float): the Kaiser window's shape (KAISER_WINDOW). Default: None (14.77).
    """

    def __init__(self, orig_freq=16000, new_freq=16000, resample_method=ResampleMethod.SINC_INTERPOLATION,
                 lowpass_filter_width=6, rolloff=0.99, beta=None):
        for name, value in (("orig_freq", orig_freq), ("new_freq", new_freq)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
                raise ValueError(f"Resample: Input {name} is not within the required interval of (0, 16777216].")
        if not isinstance(resample_method, ResampleMethod):
            raise TypeError(f"Resample: resample_method must be ResampleMethod, but got "
                            f"{type(resample_method).__name__}.")
        if isinstance(lowpass_filter_width, bool) or not isinstance(lowpass_filter_width, int) or \
                lowpass_filter_width <= 0:
            raise ValueError("Resample: Input lowpass_filter_width is not within the required interval of "
                             "(0, 2147483647].")
        if isinstance(rolloff, bool) or not isinstance(rolloff, (int, float)) or not 0 < rolloff <= 1:
            raise ValueError("Resample: Input rolloff is not within the required interval of (0, 1].")
        self.orig_freq, self.new_freq, self.resample_method = orig_freq, new_freq, resample_method
        self.lowpass_filter_width, self.rolloff, self.beta = lowpass_filter_width, float(rolloff), beta

    def __call__(self, waveform):
        array, dtype = waveform_array("Resample", waveform, RuntimeError)
        if self.orig_freq == self.new_freq:
            return array.astype(dtype)
        divisor = math.gcd(int(self.orig_freq), int(self.new_freq))
        orig, new = int(self.orig_freq) // divisor, int(self.new_freq) // divisor
        length = array.shape[-1]
        needed = math.ceil(new * length / orig)
        # A waveform shorter than one period of ``orig`` samples fills only the first ``needed``
        # outputs of one frame: build only those kernels. Co-prime rates such as PitchShift's make
        # ``new`` thousands of kernels of thousands of taps each (gigabytes, seconds).
        kernels, width = _kernel(orig, new, self.lowpass_filter_width, self.rolloff, self.resample_method,
                                 self.beta, min(new, needed))
        flat = array.reshape(-1, length).astype(np.float64)
        padded = np.pad(flat, ((0, 0), (width, width + orig)))
        frames = (padded.shape[1] - kernels.shape[1]) // orig + 1
        starts = np.arange(frames) * orig
        windows = padded[:, starts[:, None] + np.arange(kernels.shape[1])[None, :]]   # (waves, frames, taps)
        resampled = np.einsum("wft,kt->wfk", windows, kernels).reshape(flat.shape[0], -1)
        resampled = resampled[:, :math.ceil(new * length / orig)]
        return resampled.reshape(array.shape[:-1] + resampled.shape[-1:]).astype(dtype)
