"""``SlidingWindowCmn``: sliding-window cepstral mean (and variance) normalisation, Kaldi's rule.

For a feature matrix (..., frames, features), frame ``t`` subtracts the mean over a window of
``cmn_window`` frames: to its left (at least ``min_cmn_window`` frames at the start, so the
first frames look ahead) or centred on it (``center``), shifted to stay inside the utterance. With
``norm_vars`` it is also divided by the window's standard deviation (a one-frame window gives 0).
"""
import numpy as np

from sporax.dataset.transforms.base import TensorOperation


def _window(t, frames, cmn_window, min_cmn_window, center):
    if center:
        start = t - cmn_window // 2
        end = start + cmn_window
    else:
        start, end = t - cmn_window, t + 1
    if start < 0:
        end -= start
        start = 0
    if not center and end > t:
        end = max(t + 1, min_cmn_window)
    if end > frames:
        start -= end - frames
        end = frames
        start = max(start, 0)
    return start, end


class SlidingWindowCmn(TensorOperation):
    """Normalise features (..., frames, features) by a sliding window's mean (and variance).

    Args:
        cmn_window (int): the window in frames, >= 0. Default: 600.
        min_cmn_window (int): the smallest window at the start (left windows only), >= 0. Default: 100.
        center (bool): centre the window on the frame instead of ending it there. Default: False.
        norm_vars (bool): also normalise the variance to one. Default: False.
    """

    def __init__(self, cmn_window=600, min_cmn_window=100, center=False, norm_vars=False):
        for name, value in (("cmn_window", cmn_window), ("min_cmn_window", min_cmn_window)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"Argument {name} with value {value} is not of type [<class 'int'>], but got "
                                f"{type(value)}.")
            if value < 0:
                raise ValueError(f"Input {name} is not within the required interval of [0, 2147483647].")
        for name, value in (("center", center), ("norm_vars", norm_vars)):
            if not isinstance(value, bool):
                raise TypeError(f"Argument {name} with value {value} is not of type [<class 'bool'>], but got "
                                f"{type(value)}.")
        self.cmn_window, self.min_cmn_window, self.center, self.norm_vars = cmn_window, min_cmn_window, center, norm_vars

    def __call__(self, features):
        array = np.asarray(features)
        if array.ndim < 2:
            raise RuntimeError(f"SlidingWindowCmn: the input must be at least 2-D (..., frames, features), but got "
                               f"shape {array.shape}.")
        dtype = array.dtype if np.issubdtype(array.dtype, np.floating) else np.float32
        values = array.astype(np.float64)
        frames = values.shape[-2]
        cumulative = np.concatenate([np.zeros(values.shape[:-2] + (1, values.shape[-1])), np.cumsum(values, -2)], -2)
        squares = np.concatenate([np.zeros(values.shape[:-2] + (1, values.shape[-1])),
                                  np.cumsum(values ** 2, -2)], -2)
        output = np.empty_like(values)
        for t in range(frames):
            start, end = _window(t, frames, self.cmn_window, self.min_cmn_window, self.center)
            count = end - start
            total = cumulative[..., end, :] - cumulative[..., start, :]
            output[..., t, :] = values[..., t, :] - total / count
            if self.norm_vars:
                if count == 1:
                    output[..., t, :] = 0.0
                else:
                    variance = (squares[..., end, :] - squares[..., start, :]) / count - (total / count) ** 2
                    output[..., t, :] *= variance ** -0.5
        return output.astype(dtype)
