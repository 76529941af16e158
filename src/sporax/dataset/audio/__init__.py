"""``mindspore.dataset.audio``: transforms of NumPy waveforms (..., time) and spectrograms (..., freq, time)."""
from sporax.dataset.audio.amplitude import AmplitudeToDB, DBToAmplitude, Gain, ScaleType
from sporax.dataset.audio.filters import (AllpassBiquad, BandpassBiquad, BandrejectBiquad, BassBiquad, Biquad,
                                          EqualizerBiquad, HighpassBiquad, LFilter, LowpassBiquad, TrebleBiquad)

__all__ = [
    "AllpassBiquad", "AmplitudeToDB", "BandpassBiquad", "BandrejectBiquad", "BassBiquad", "Biquad", "DBToAmplitude",
    "EqualizerBiquad", "Gain", "HighpassBiquad", "LFilter", "LowpassBiquad", "ScaleType", "TrebleBiquad",
]
