"""More filters of ``mindspore.dataset.audio``: ``Filtfilt`` (zero-phase IIR) and ``RiaaBiquad``.

Filtfilt runs ``lfilter`` forward (unclamped), then over the reversed result (clamped when
``clamp``), and reverses again, so the phase shifts cancel. RiaaBiquad is the RIAA vinyl playback
equalisation as a biquad with SoX's zeros and poles for 44.1, 48, 88.2 and 96 kHz, scaled to 0 dB
at 1 kHz.
"""
import math

import numpy as np

from sporax.dataset.audio.filters import LFilter, _Filter, _waveform, lfilter

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
        array = _waveform("Filtfilt", waveform)
        out_dtype = array.dtype if np.issubdtype(array.dtype, np.floating) else np.float32
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
