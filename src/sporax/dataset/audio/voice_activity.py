"""``Vad``: trim the silence before the first voice activity (SoX's ``vad`` effect, as
torchaudio writes it down): a cepstral power measure per frame, smoothed against a noise
estimate, triggers at ``trigger_level``; the waveform is returned from shortly before.

MindSpore 2.10's kernel does not give the same cut: on a recording of 4000 zero samples then a
tone it starts 2200 samples earlier; sporax keeps the documented SoX algorithm for the trigger.
Where nothing triggers, MindSpore does not return SoX's empty waveform but the last samples it
buffered: the final ``pre_trigger_time + search_time`` seconds plus one measure window (the
whole recording when shorter), as recorded on MindSpore 2.10; sporax returns the same.
"""
import math

import numpy as np

from sporax.dataset.transforms.base import TensorOperation


def _hann(length):
    return 0.5 - 0.5 * np.cos(2 * math.pi * np.arange(length) / length)


class Vad(TensorOperation):
    """Remove the silence (or quiet noise) before the first voice activity of a recording.

    Args:
        sample_rate (int): sampling rate of the waveform.
        trigger_level (float, optional): measure level that triggers detection. Default 7.0.
        trigger_time (float, optional): time constant (s) of the trigger measure. Default 0.25.
        search_time (float, optional): audio (s) searched backwards for quieter activity before
            the trigger. Default 1.0.
        allowed_gap (float, optional): gap (s) allowed between quieter activity. Default 0.25.
        pre_trigger_time (float, optional): audio (s) kept before the trigger. Default 0.0.
        boot_time (float, optional): time (s) to estimate the noise at the start. Default 0.35.
        noise_up_time (float, optional): time constant when the noise rises. Default 0.1.
        noise_down_time (float, optional): time constant when the noise falls. Default 0.01.
        noise_reduction_amount (float, optional): noise subtraction amount. Default 1.35.
        measure_freq (float, optional): measures per second. Default 20.0.
        measure_duration (float, optional): measure window (s). Default None: 2 / measure_freq.
        measure_smooth_time (float, optional): spectral smoothing time constant. Default 0.4.
        hp_filter_freq (float, optional): high-pass of the measure. Default 50.0.
        lp_filter_freq (float, optional): low-pass of the measure. Default 6000.0.
        hp_lifter_freq (float, optional): high-pass lifter. Default 150.0.
        lp_lifter_freq (float, optional): low-pass lifter. Default 2000.0.

    Inputs:
        waveform (numpy.ndarray): (..., time).

    Outputs:
        numpy.ndarray, the waveform from the detected start (when nothing triggers, its last
        ``pre_trigger_time + search_time`` seconds and one measure window, as MindSpore).

    Examples:
        >>> import numpy as np
        >>> import sporax.dataset.audio as audio
        >>> audio.Vad(600)(np.zeros(1000, np.float32)).shape
        (660,)
    """

    def __init__(self, sample_rate, trigger_level=7.0, trigger_time=0.25, search_time=1.0,
                 allowed_gap=0.25, pre_trigger_time=0.0, boot_time=0.35, noise_up_time=0.1,
                 noise_down_time=0.01, noise_reduction_amount=1.35, measure_freq=20.0,
                 measure_duration=None, measure_smooth_time=0.4, hp_filter_freq=50.0,
                 lp_filter_freq=6000.0, hp_lifter_freq=150.0, lp_lifter_freq=2000.0):
        if isinstance(sample_rate, bool) or not isinstance(sample_rate, int) or sample_rate <= 0:
            raise ValueError("Vad: Input sample_rate should be a positive int.")
        values = dict(trigger_level=trigger_level, trigger_time=trigger_time,
                      search_time=search_time, allowed_gap=allowed_gap,
                      pre_trigger_time=pre_trigger_time, boot_time=boot_time,
                      noise_up_time=noise_up_time, noise_down_time=noise_down_time,
                      noise_reduction_amount=noise_reduction_amount, measure_freq=measure_freq,
                      measure_smooth_time=measure_smooth_time, hp_filter_freq=hp_filter_freq,
                      lp_filter_freq=lp_filter_freq, hp_lifter_freq=hp_lifter_freq,
                      lp_lifter_freq=lp_lifter_freq)
        for name, value in values.items():
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
                raise ValueError(f"Vad: Input {name} should be a non-negative number, but got "
                                 f"{value!r}.")
        if measure_duration is not None and (not isinstance(measure_duration, (int, float)) or
                                             measure_duration <= 0):
            raise ValueError("Vad: Input measure_duration should be a positive number or None.")
        self.sample_rate = sample_rate
        self.measure_duration = measure_duration
        for name, value in values.items():
            setattr(self, name, value)

    def __call__(self, waveform):
        array = np.asarray(waveform)
        if array.ndim < 1 or array.dtype.kind not in "fiu":
            raise RuntimeError(f"Vad: the input should be a real waveform (..., time), but got "
                               f"shape {array.shape} and dtype {array.dtype}.")
        dtype = array.dtype if array.dtype.kind == "f" else np.float32
        shape = array.shape
        x = array.reshape(-1, shape[-1]).astype(np.float64)
        out = x[:, self._start(x):]
        return out.astype(dtype).reshape(shape[:-1] + out.shape[-1:])

    def _start(self, x):
        rate, freq = self.sample_rate, self.measure_freq
        duration = 2.0 / freq if self.measure_duration is None else self.measure_duration
        channels, length = x.shape
        measure_len = int(rate * duration + 0.5)
        dft_len = 16
        while dft_len < measure_len:
            dft_len *= 2
        period = int(rate / freq + 0.5)
        measures_len = math.ceil(self.search_time * freq)
        search_pre_trigger = measures_len * period
        gap_len = int(self.allowed_gap * freq + 0.5)
        fixed_pre_trigger = int(self.pre_trigger_time * rate + 0.5)
        samples_len = fixed_pre_trigger + search_pre_trigger + measure_len
        spectrum_window = 2.0 / math.sqrt(measure_len) * _hann(measure_len)
        spectrum_start = max(int(self.hp_filter_freq / rate * dft_len + 0.5), 1)
        spectrum_end = min(int(self.lp_filter_freq / rate * dft_len + 0.5), dft_len // 2)
        width = spectrum_end - spectrum_start
        cepstrum_window = 2.0 / math.sqrt(width) * _hann(width)
        cepstrum_start = math.ceil(rate * 0.5 / self.lp_lifter_freq)
        cepstrum_end = min(math.floor(rate * 0.5 / self.hp_lifter_freq), dft_len // 4)
        if cepstrum_end <= cepstrum_start:
            raise ValueError("Vad: the lifter frequencies leave no cepstrum bins; widen "
                             "hp_lifter_freq/lp_lifter_freq or raise sample_rate.")
        noise_up = math.exp(-1.0 / (self.noise_up_time * freq))
        noise_down = math.exp(-1.0 / (self.noise_down_time * freq))
        smooth = math.exp(-1.0 / (self.measure_smooth_time * freq))
        trigger_mult = math.exp(-1.0 / (self.trigger_time * freq))
        boot_count_max = int(self.boot_time * freq - 0.5)
        boot_count = measures_index = flushed = 0
        spectrum = np.zeros((channels, dft_len))
        noise = np.zeros((channels, dft_len))
        measures = np.zeros((channels, measures_len))
        triggered, to_flush, mult, position = False, 0, 0.0, 0
        band = slice(spectrum_start, spectrum_end)
        for position in range(measure_len, length, period):
            for c in range(channels):
                buffer = np.zeros(dft_len)
                buffer[:measure_len] = x[c, position - measure_len:position] * spectrum_window
                magnitude = np.abs(np.fft.rfft(buffer)[band])
                weight = boot_count / (1.0 + boot_count) if boot_count >= 0 else smooth
                spectrum[c, band] = spectrum[c, band] * weight + magnitude * (1 - weight)
                power = spectrum[c, band] ** 2
                if boot_count >= 0:
                    noise_weight = np.zeros(width)
                else:
                    noise_weight = np.where(power > noise[c, band], noise_up, noise_down)
                noise[c, band] = noise[c, band] * noise_weight + power * (1 - noise_weight)
                cleaned = np.sqrt(np.maximum(0, power - self.noise_reduction_amount * noise[c, band]))
                cepstrum = np.zeros(dft_len >> 1)
                cepstrum[spectrum_start:spectrum_end] = cleaned * cepstrum_window
                total = float(np.sum(np.abs(np.fft.rfft(cepstrum)[cepstrum_start:cepstrum_end]) ** 2))
                level = math.log(total / (cepstrum_end - cepstrum_start)) if total > 0 else -math.inf
                measure = max(0.0, 21 + level)
                measures[c, measures_index] = measure
                mult = mult * trigger_mult + measure * (1.0 - trigger_mult)
                triggered = triggered or mult >= self.trigger_level
                if triggered:
                    n, k = measures_len, measures_index
                    j_trigger = j_zero = n
                    j = 0
                    for j in range(n):
                        if measures[c, k] >= self.trigger_level and j <= j_trigger + gap_len:
                            j_zero = j_trigger = j
                        elif measures[c, k] == 0 and j_trigger >= j_zero:
                            j_zero = j
                        k = (k + n - 1) % n
                    j = min(j, j_zero)
                    to_flush = min(max(to_flush, j), n)
            measures_index = (measures_index + 1) % measures_len
            if boot_count >= 0:
                boot_count = -1 if boot_count == boot_count_max else boot_count + 1
            if triggered:
                flushed = (measures_len - to_flush) * period
                break
        if not triggered:
            return max(length - samples_len, 0)  # MindSpore's buffered tail (module notes)
        return max(position - samples_len + flushed, 0)
