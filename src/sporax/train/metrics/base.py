"""``Metric``: the base of evaluation metrics (``clear`` / ``update`` / ``eval``)."""
import functools
from abc import ABCMeta, abstractmethod

import numpy as np

from sporax.core.tensor import Tensor


def to_numpy(value, metric, argument):
    """NumPy array from a Tensor, array, list or number; errors name the metric and argument."""
    if isinstance(value, Tensor):
        return value.asnumpy()
    if isinstance(value, np.ndarray):
        return value
    if isinstance(value, (list, tuple, int, float, np.number)):
        return np.asarray(value)
    raise TypeError(f"For '{metric}.update', {argument} must be a Tensor, list or numpy.ndarray, "
                    f"got {type(value).__name__}.")


def check_bool(metric, name, value):
    """``value``, which must be a bool; the TypeError names the metric and the argument."""
    if not isinstance(value, bool):
        raise TypeError(f"For '{metric}', the '{name}' must be a bool, but got {type(value).__name__}.")
    return value


def check_choice(metric, name, value, choices):
    """``value``, which must be one of ``choices``; the ValueError lists them."""
    if value not in choices:
        raise ValueError(f"For '{metric}', the '{name}' must be in {list(choices)}, but got {value!r}.")
    return value


def rearrange_inputs(func):
    """Decorate ``update`` so it sees its inputs in the order ``set_indexes`` chose."""
    update = func

    @functools.wraps(update)
    def wrapper(self, *inputs):
        indexes = getattr(self, "_indexes", None)
        if indexes is not None:
            inputs = [inputs[index] for index in indexes]
        return update(self, *inputs)

    return wrapper


class Metric(metaclass=ABCMeta):
    """Base class of metrics: ``clear()`` resets, ``update(*inputs)`` accumulates, ``eval()`` reports.

    Example:
        >>> from sporax.train import Accuracy
        >>> metric = Accuracy()
        >>> metric.update([[0.1, 0.9]], [1])
        >>> metric.eval()
        1.0
    """

    def __init__(self):
        self._indexes = None

    def _convert_data(self, data):
        return to_numpy(data, type(self).__name__, "input")

    @property
    def indexes(self):
        """The positions of the network outputs that ``update`` receives, or None for all."""
        return self._indexes

    def set_indexes(self, indexes):
        """Choose which network outputs (by position) reach ``update``, in that order; returns self."""
        if not isinstance(indexes, list) or not all(isinstance(i, int) for i in indexes):
            raise ValueError(f"For '{type(self).__name__}.set_indexes', indexes must be a list of int, "
                             f"got {indexes!r}.")
        self._indexes = indexes
        return self

    @abstractmethod
    def clear(self):
        """Reset the accumulated state."""

    @abstractmethod
    def update(self, *inputs):
        """Accumulate one batch of network outputs and labels."""

    @abstractmethod
    def eval(self):
        """Return the metric over everything accumulated since ``clear``."""

    def _no_samples(self):
        return RuntimeError(
            f"The '{type(self).__name__}' can not be calculated, because the number of samples is 0, "
            "please check whether your inputs(predicted value, true value) are empty, or has called "
            "update method before calling eval method.")

    def _check_inputs(self, inputs, count, names="predicted value, true value"):
        """MindSpore's error unless ``update`` got ``count`` inputs (``names`` lists them; None: unnamed)."""
        if len(inputs) != count:
            needed = f"{count} input{'s' if count > 1 else ''}" + (f" ({names})" if names else "")
            raise ValueError(f"For '{type(self).__name__}.update', it needs {needed}, but got {len(inputs)}.")
