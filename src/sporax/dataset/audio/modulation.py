"""Modulated-delay effects and dither: ``Flanger``, ``Phaser``, ``Dither`` (SoX's algorithms,
as torchaudio writes them down), with their enums ``Modulation``, ``Interpolation`` and
``DensityFunction``."""
import math

import numpy as np

from sporax.dataset.core.option_enums import string_enum
from sporax.dataset.core.random import eager_words
from sporax.dataset.engine.sampler_order import below
from sporax.dataset.transforms.base import TensorOperation, random_generator


Modulation = string_enum("Modulation", __name__, "The waveform of a flanger's delay modulation.",
                         "sinusoidal", "triangular")


Interpolation = string_enum("Interpolation", __name__, "How a flanger reads between delay-line samples.",
                            "linear", "quadratic")


DensityFunction = string_enum(
    "DensityFunction", __name__,
    "The probability density of Dither's noise: triangular, rectangular or Gaussian.",
    "TPDF", "RPDF", "GPDF")


def _waveform(name, waveform, min_rank=1):
    array = np.asarray(waveform)
    if array.ndim < min_rank or array.dtype.kind not in "fiu":
        raise RuntimeError(f"{name}: the input should be a real waveform (..., time), but got "
                           f"shape {array.shape} and dtype {array.dtype}.")
    return array


def _real(name, arg, value, low=None, high=None):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name}: {arg} should be a number, but got {type(value).__name__}.")
    if (low is not None and value < low) or (high is not None and value > high):
        raise ValueError(f"{name}: Input {arg} is not within the required interval of "
                         f"[{low}, {high}].")
    return value


def generate_wave_table(kind, data_type, table_size, min_value, max_value, phase):
    """SoX's lookup table of one modulation period (sine or triangle), scaled to
    [min_value, max_value] and shifted by ``phase`` radians; int tables round to integers."""
    phase_offset = int(phase / math.pi / 2 * table_size + 0.5)
    t = (np.arange(table_size) + phase_offset) % table_size
    if kind == "sine":
        d = (np.sin(t.astype(np.float64) / table_size * 2 * math.pi) + 1) / 2
    else:
        d = t.astype(np.float64) * 2 / table_size
        quarter = (4 * t) // table_size
        d = np.where(quarter == 0, d + 0.5, d)
        d = np.where((quarter == 1) | (quarter == 2), 1.5 - d, d)
        d = np.where(quarter == 3, d - 1.5, d)
    d = d * (max_value - min_value) + min_value
    if data_type == "int":
        d = np.where(d < 0, d - 0.5, d + 0.5).astype(np.int64)
    return d


class Phaser(TensorOperation):
    """Apply a phasing effect: the waveform mixed with a decaying copy delayed by a modulated
    amount.

    Args:
        sample_rate (int): sampling rate of the waveform.
        gain_in (float, optional): input gain in [0, 1]. Default 0.4.
        gain_out (float, optional): output gain in [0, 1e9]. Default 0.74.
        delay_ms (float, optional): delay in [0, 5] ms. Default 3.0.
        decay (float, optional): decay of the delayed copy in [0, 0.99]. Default 0.4.
        mod_speed (float, optional): modulation speed in [0.1, 2] Hz. Default 0.5.
        sinusoidal (bool, optional): sinusoidal modulation (True) or triangular. Default True.

    Inputs:
        waveform (numpy.ndarray): (..., time).

    Outputs:
        numpy.ndarray, the same shape, float32.

    Examples:
        >>> import numpy as np
        >>> import sporax.dataset.audio as audio
        >>> audio.Phaser(16000)(np.sin(np.arange(64) / 4).astype(np.float32)).shape
        (64,)
    """

    def __init__(self, sample_rate, gain_in=0.4, gain_out=0.74, delay_ms=3.0, decay=0.4,
                 mod_speed=0.5, sinusoidal=True):
        name = "Phaser"
        self.sample_rate = _real(name, "sample_rate", sample_rate, -2147483648, 2147483647)
        self.gain_in = _real(name, "gain_in", gain_in, 0.0, 1.0)
        self.gain_out = _real(name, "gain_out", gain_out, 0.0, 1e9)
        self.delay_ms = _real(name, "delay_ms", delay_ms, 0.0, 5.0)
        self.decay = _real(name, "decay", decay, 0.0, 0.99)
        self.mod_speed = _real(name, "mod_speed", mod_speed, 0.1, 2.0)
        if not isinstance(sinusoidal, bool):
            raise TypeError("Phaser: sinusoidal should be a bool.")
        self.sinusoidal = sinusoidal

    def __call__(self, waveform):
        array = _waveform("Phaser", waveform)
        dtype = array.dtype if array.dtype.kind == "f" else np.float32
        shape = array.shape
        x = array.reshape(-1, shape[-1]).astype(np.float64) * self.gain_in
        delay_length = int(self.delay_ms * 0.001 * self.sample_rate + 0.5)
        table_length = int(self.sample_rate / self.mod_speed + 0.5)
        table = generate_wave_table("sine" if self.sinusoidal else "triangle", "int",
                                    table_length, 1.0, float(delay_length), math.pi / 2)
        delay_buffer = np.zeros((x.shape[0], delay_length))
        position = 0
        out = np.zeros_like(x)
        for i in range(x.shape[1]):
            # read at the modulated tap, then store the decayed sum one step further on
            delayed = delay_buffer[:, int((position + table[i % table_length]) % delay_length)]
            position = (position + 1) % delay_length
            value = x[:, i] + delayed
            delay_buffer[:, position] = value * self.decay
            out[:, i] = value * self.gain_out
        return np.clip(out, -1, 1).astype(dtype).reshape(shape)


class Flanger(TensorOperation):
    """Apply a flanger effect: the waveform mixed with copies delayed by a swept amount.

    Args:
        sample_rate (int): sampling rate of the waveform.
        delay (float, optional): base delay in [0, 30] ms. Default 0.0.
        depth (float, optional): added swept delay in [0, 10] ms. Default 2.0.
        regen (float, optional): feedback gain in [-95, 95] percent. Default 0.0.
        width (float, optional): delayed signal gain in [0, 100] percent. Default 71.0.
        speed (float, optional): sweeps per second in [0.1, 10] Hz. Default 0.5.
        phase (float, optional): channel phase shift in [0, 100] percent. Default 25.0.
        modulation (Modulation, optional): SINUSOIDAL (default) or TRIANGULAR.
        interpolation (Interpolation, optional): LINEAR (default) or QUADRATIC.

    Inputs:
        waveform (numpy.ndarray): (..., channel, time).

    Outputs:
        numpy.ndarray, the same shape, float32.

    Examples:
        >>> import numpy as np
        >>> import sporax.dataset.audio as audio
        >>> audio.Flanger(16000)(np.ones((2, 32), np.float32)).shape
        (2, 32)
    """

    def __init__(self, sample_rate, delay=0.0, depth=2.0, regen=0.0, width=71.0, speed=0.5,
                 phase=25.0, modulation=Modulation.SINUSOIDAL, interpolation=Interpolation.LINEAR):
        name = "Flanger"
        self.sample_rate = _real(name, "sample_rate", sample_rate, -2147483648, 2147483647)
        self.delay = _real(name, "delay", delay, 0, 30)
        self.depth = _real(name, "depth", depth, 0, 10)
        self.regen = _real(name, "regen", regen, -95, 95)
        self.width = _real(name, "width", width, 0, 100)
        self.speed = _real(name, "speed", speed, 0.1, 10)
        self.phase = _real(name, "phase", phase, 0, 100)
        if not isinstance(modulation, Modulation):
            raise TypeError("Flanger: modulation should be a Modulation.")
        if not isinstance(interpolation, Interpolation):
            raise TypeError("Flanger: interpolation should be an Interpolation.")
        self.modulation, self.interpolation = modulation, interpolation

    def __call__(self, waveform):
        array = _waveform("Flanger", waveform, 2)
        dtype = array.dtype if array.dtype.kind == "f" else np.float32
        shape = array.shape
        x = array.reshape(-1, shape[-2], shape[-1]).astype(np.float64)
        channels, length = shape[-2], shape[-1]
        feedback_gain = self.regen / 100
        delay_gain = self.width / 100
        channel_phase = self.phase / 100
        delay_min = self.delay / 1000
        delay_depth = self.depth / 1000
        # SoX keeps the in and delay gains from clipping: 1 / (1 + delay) and the feedback share
        in_gain = 1.0 / (1 + delay_gain)
        delay_gain = delay_gain / (1 + delay_gain)
        delay_gain = delay_gain * (1 - abs(feedback_gain))
        delay_buf_length = int((delay_min + delay_depth) * self.sample_rate + 0.5) + 2
        delay_bufs = np.zeros((x.shape[0], channels, delay_buf_length))
        delay_last = np.zeros((x.shape[0], channels))
        lfo_length = int(self.sample_rate / self.speed)
        table_min = math.floor(delay_min * self.sample_rate + 0.5)
        table_max = delay_buf_length - 2.0
        lfo = generate_wave_table("sine" if self.modulation == Modulation.SINUSOIDAL else
                                  "triangle", "float", lfo_length, float(table_min),
                                  float(table_max), 3 * math.pi / 2)
        output = np.zeros_like(x)
        delay_buf_pos = 0
        lfo_pos = 0
        channel_idxs = np.arange(channels)
        for i in range(length):
            delay_buf_pos = (delay_buf_pos + delay_buf_length - 1) % delay_buf_length
            cur_channel_phase = (channel_idxs * lfo_length * channel_phase + 0.5).astype(np.int64)
            delay_tbl = lfo[(lfo_pos + cur_channel_phase) % lfo_length]
            frac_delay = np.modf(delay_tbl)[0]
            delay_tbl = np.floor(delay_tbl)
            int_delay = delay_tbl.astype(np.int64)
            temp = x[:, :, i]
            delay_bufs[:, :, delay_buf_pos] = temp + delay_last * feedback_gain
            delayed_0 = delay_bufs[:, channel_idxs, (delay_buf_pos + int_delay) % delay_buf_length]
            int_delay = int_delay + 1
            delayed_1 = delay_bufs[:, channel_idxs, (delay_buf_pos + int_delay) % delay_buf_length]
            int_delay = int_delay + 1
            if self.interpolation == Interpolation.LINEAR:
                delayed = delayed_0 + (delayed_1 - delayed_0) * frac_delay
            else:
                delayed_2 = delay_bufs[:, channel_idxs,
                                       (delay_buf_pos + int_delay) % delay_buf_length]
                delayed_2 = delayed_2 - delayed_0
                delayed_1 = delayed_1 - delayed_0
                a = delayed_2 * 0.5 - delayed_1
                b = delayed_1 * 2 - delayed_2 * 0.5
                delayed = delayed_0 + (a * frac_delay + b) * frac_delay
            delay_last = delayed
            output[:, :, i] = temp * in_gain + delayed * delay_gain
            lfo_pos = (lfo_pos + 1) % lfo_length
        return np.clip(output, -1, 1).astype(dtype).reshape(shape)


def _mindspore_noise(x, density_function, words):
    """MindSpore 2.10's Dither noise under a dataset seed: a sample of the signal at a random (channel, time)
    (each index drawn only where its axis has more than one entry); GPDF adds six more, each written back over
    the sample it read, so later picks can read sums (the kernel's running total). Returns the noise and the
    samples as the kernel leaves them."""
    channels, time = x.shape

    def pick():
        channel = below(words, channels) if channels > 1 else 0
        return channel, (below(words, time) if time > 1 else 0)

    noise, samples = x[pick()], x.copy()
    if density_function == DensityFunction.GPDF:
        for _ in range(6):
            where = pick()
            noise = noise + samples[where]
            samples[where] = noise
    return noise, samples


class Dither(TensorOperation):
    """Dither a waveform to 16-bit resolution: add noise of ``density_function`` to the
    scaled signal and quantise it, optionally shaping the noise (each error fed to the next
    sample).

    Args:
        density_function (DensityFunction, optional): TPDF (default), RPDF or GPDF.
        noise_shaping (bool, optional): filter the quantisation noise. Default False.

    Inputs:
        waveform (numpy.ndarray): (..., time).

    Outputs:
        numpy.ndarray, the dithered waveform.

    Examples:
        >>> import numpy as np
        >>> import sporax.dataset.audio as audio
        >>> audio.Dither()(np.zeros(4, np.float32)).shape
        (4,)
    """

    def __init__(self, density_function=DensityFunction.TPDF, noise_shaping=False):
        if not isinstance(density_function, DensityFunction):
            raise TypeError("Dither: density_function should be a DensityFunction.")
        if not isinstance(noise_shaping, bool):
            raise TypeError("Dither: noise_shaping should be a bool.")
        self.density_function, self.noise_shaping = density_function, noise_shaping

    @property
    def random(self):
        return self.density_function != DensityFunction.TPDF

    @property
    def mindspore_draws(self):
        """RPDF/GPDF noise follows MindSpore's kernel draws under a dataset seed."""
        return self.random

    def __call__(self, waveform):
        array = _waveform("Dither", waveform)
        dtype = array.dtype if array.dtype.kind == "f" else np.float32
        shape = array.shape
        x = array.reshape(-1, shape[-1]).astype(np.float64)
        channels, time = x.shape
        scaled = x * (2 ** 15 - 2)
        if self.density_function == DensityFunction.TPDF:
            # a symmetric triangular window over the signal, as MindSpore adds it
            window = 1 - np.abs(2 * np.arange(time) / (time - 1) - 1) if time > 1 else np.zeros(time)
            noisy = scaled + window
        else:
            words = eager_words(self)
            if words is not None:  # the kernel's arithmetic is in the waveform's float type
                samples = x.astype(dtype)
                noise, written = _mindspore_noise(samples, self.density_function, words)
                noisy = samples * samples.dtype.type(2 ** 15 - 2) + noise
                x = written.astype(np.float64)  # its noise shaping reads the samples GPDF wrote over
            else:
                rng = random_generator()
                pick = x[rng.integers(channels), rng.integers(time)]
                if self.density_function == DensityFunction.RPDF:
                    noisy = scaled + (pick - 0.5)
                else:
                    for _ in range(6):
                        pick = pick + x[rng.integers(channels), rng.integers(time)]
                    noisy = scaled + pick
        noisy = np.asarray(noisy, np.float64)
        dithered = np.sign(noisy) * np.floor(np.abs(noisy) + 0.5) / 2 ** 15  # std::round: halves away from zero
        if self.noise_shaping:
            error = dithered - x
            dithered = dithered + np.concatenate([np.zeros((channels, 1)), error[:, :-1]], axis=1)
        return dithered.astype(dtype).reshape(shape)
