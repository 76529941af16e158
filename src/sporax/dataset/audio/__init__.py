"""``mindspore.dataset.audio``: transforms of NumPy waveforms (..., time) and spectrograms (..., freq, time)."""
from sporax.dataset.audio.amplitude import AmplitudeToDB, DBToAmplitude, Gain, ScaleType
from sporax.dataset.audio.filters import (AllpassBiquad, BandBiquad, BandpassBiquad, BandrejectBiquad, BassBiquad,
                                          Biquad, DeemphBiquad, EqualizerBiquad, HighpassBiquad, LFilter,
                                          LowpassBiquad, TrebleBiquad)
from sporax.dataset.audio.pointwise import (Angle, BorderType, ComplexNorm, ComputeDeltas, Contrast, DCShift, Fade,
                                            FadeShape, GainType, Magphase, MuLawDecoding, MuLawEncoding, NormMode,
                                            Vol, create_dct)
from sporax.dataset.audio.spectral import Spectrogram, WindowType
from sporax.dataset.audio.mel import MelScale, MelSpectrogram, MelType, NormType, linear_fbanks, melscale_fbanks

__all__ = [
    "AllpassBiquad", "AmplitudeToDB", "Angle", "BandBiquad", "BandpassBiquad", "BandrejectBiquad", "BassBiquad",
    "Biquad", "BorderType", "ComplexNorm", "ComputeDeltas", "Contrast", "DBToAmplitude", "DCShift", "DeemphBiquad",
    "EqualizerBiquad", "Fade", "FadeShape", "Gain", "GainType", "HighpassBiquad", "LFilter", "LowpassBiquad",
    "Magphase", "MuLawDecoding", "MuLawEncoding", "NormMode", "ScaleType", "Spectrogram", "TrebleBiquad", "Vol",
    "WindowType", "create_dct", "MelScale", "MelSpectrogram", "MelType", "NormType", "linear_fbanks",
    "melscale_fbanks",
]
from sporax.dataset.audio.effects import MaskAlongAxis, Overdrive  # noqa: E402
__all__ += ["MaskAlongAxis", "Overdrive"]
from sporax.dataset.audio.cepstral import LFCC, MFCC, SpectralCentroid  # noqa: E402
__all__ += ["LFCC", "MFCC", "SpectralCentroid"]
from sporax.dataset.audio.filters import Filtfilt, RiaaBiquad  # noqa: E402
__all__ += ["Filtfilt", "RiaaBiquad"]
from sporax.dataset.audio.effects import FrequencyMasking, MaskAlongAxisIID, TimeMasking  # noqa: E402
__all__ += ["FrequencyMasking", "MaskAlongAxisIID", "TimeMasking"]
from sporax.dataset.audio.resample import Resample, ResampleMethod  # noqa: E402
__all__ += ["Resample", "ResampleMethod"]
from sporax.dataset.audio.phase_vocoder import PhaseVocoder, TimeStretch  # noqa: E402
__all__ += ["PhaseVocoder", "TimeStretch"]
from sporax.dataset.audio.inverse_spectral import InverseSpectrogram  # noqa: E402
__all__ += ["InverseSpectrogram"]
from sporax.dataset.audio.cmn import SlidingWindowCmn  # noqa: E402
__all__ += ["SlidingWindowCmn"]
from sporax.dataset.audio.modulation import DensityFunction, Dither, Flanger, Interpolation, Modulation, Phaser  # noqa: E402
__all__ += ["DensityFunction", "Dither", "Flanger", "Interpolation", "Modulation", "Phaser"]
from sporax.dataset.audio.reconstruction import (DetectPitchFrequency, GriffinLim, InverseMelScale,  # noqa: E402
                                                 PitchShift)
__all__ += ["DetectPitchFrequency", "GriffinLim", "InverseMelScale", "PitchShift"]
from sporax.dataset.audio.voice_activity import Vad  # noqa: E402
__all__ += ["Vad"]
