"""The base of every data transform and the small helpers transforms share.

A transform is a plain callable: ``op(*columns)`` takes one row's columns (NumPy arrays, PIL
images or Python values) and returns one array or a tuple of arrays (one per output column).
That is MindSpore's eager mode (``vision.Resize((32, 32))(image)``) and also what a dataset's
``map`` calls for every row.

Batched fast path (used by the pipeline engine, see ``sporax.dataset.core.random``): a transform
may define ``_batch_call(self, *columns)`` taking stacked arrays (first axis = rows) and returning
the stacked result, drawing its random numbers from ``current_rng()`` in row order; it returns
``NotImplemented`` when it cannot handle the block (then the engine calls it per row).
"""
import functools
from enum import Enum

import numpy as np

from sporax.dataset.core.random import current_rng, eager_call


class Implementation(Enum):
    """Which of MindSpore's two kernels a transform runs (``mindspore.dataset.Implementation``).

    MindSpore has a C++ (``C``) and a Python (``PY``) kernel for some transforms and lets users pick
    one through ``op.implementation``. sporax has one NumPy/PIL kernel per transform giving
    MindSpore's values, so the choice is accepted and recorded but changes nothing.

    Example:
        >>> import mindspore.dataset as ds
        >>> from mindspore.dataset import vision
        >>> jitter = vision.RandomColorAdjust(brightness=0.1)
        >>> jitter.implementation = ds.Implementation.C
        >>> ds.Implementation.C.value, ds.Implementation.PY.value
        (0, 1)
    """

    C = 0
    PY = 1


class PythonOperation:
    """Mixin of the transforms whose only MindSpore 2.10 kernel is its Python one (``implementation``
    is ``Implementation.PY`` from the start); an eager ``Compose`` holding one returns a tuple."""

    implementation = Implementation.PY


def random_generator():
    """The NumPy Generator every random transform draws from.

    Inside a pipeline this is the engine's per-block generator (deterministic per seed, epoch and
    row, whatever the thread count; see core.random for MindSpore's per-worker streams); in eager
    use it is the process-wide generator seeded by ``dataset.config.set_seed``.
    """
    return current_rng()


class TensorOperation:
    """Base of all sporax data transforms (MindSpore's ``TensorOperation``/``PyTensorOperation``).

    Subclasses implement ``__call__``. ``random`` tells ``Compose``/``map`` whether the transform
    draws random numbers.
    """

    random = False
    # The kernel a user picked (an Implementation); None until set, as in MindSpore.
    implementation = None

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        call = cls.__dict__.get("__call__")
        if call is None:
            return
        if cls.__dict__.get("random", cls.random):
            call = _eager_scoped(call)
        cls.__call__ = _long_long_outputs(call)

    def __repr__(self):
        fields = ", ".join(f"{key}={value!r}" for key, value in vars(self).items() if not key.startswith("_"))
        return f"{type(self).__name__}({fields})"

    def _name(self):
        return type(self).__name__

    def _fail(self, message, error=RuntimeError):
        """Raise ``error`` with a message that names this transform."""
        raise error(f"{self._name()}: {message}")


def _eager_scoped(call):
    """``call`` run inside ``eager_call`` (a fresh generator per eager call under a set seed)."""
    @functools.wraps(call)
    def scoped(self, *args, **kwargs):
        with eager_call():
            return call(self, *args, **kwargs)
    return scoped


def _as_long_long(value):
    """An int64 array viewed as C ``long long``, as MindSpore's transforms return int64 data (NumPy then
    prints ``array([1], dtype=int64)`` where a default-int array prints ``array([1])``); other values as is."""
    if isinstance(value, np.ndarray) and value.dtype.char == "l" and value.dtype.itemsize == 8:
        return value.view(np.longlong)
    if type(value) in (tuple, list):
        return type(value)(_as_long_long(item) for item in value)
    return value


def _long_long_outputs(call):
    """``call`` with its int64 outputs in MindSpore's ``long long`` type (see ``_as_long_long``)."""
    @functools.wraps(call)
    def converted(self, *args, **kwargs):
        return _as_long_long(call(self, *args, **kwargs))
    return converted


def to_array(value, op_name):
    """Return ``value`` (array, Tensor, scalar, list, bytes) as a NumPy array."""
    if isinstance(value, np.ndarray):
        return value
    if hasattr(value, "asnumpy"):
        return value.asnumpy()
    if isinstance(value, (bytes, bytearray)):
        return np.frombuffer(value, dtype=np.uint8)
    try:
        return np.asarray(value)
    except (TypeError, ValueError) as error:
        raise TypeError(f"{op_name}: expected a NumPy array (or a value convertible to one), "
                        f"got {type(value).__name__}.") from error


def check_type(op_name, arg_name, value, types, type_names):
    """Raise TypeError in MindSpore's style when ``value`` is not one of ``types``."""
    if isinstance(value, bool) and bool not in types:
        ok = False
    else:
        ok = isinstance(value, types)
    if not ok:
        raise TypeError(f"{op_name}: argument {arg_name} with value {value!r} is not of type "
                        f"{type_names}, but got {type(value)}.")


def check_range(op_name, arg_name, value, low, high, left_open=False, right_open=False):
    """Raise ValueError naming the argument when ``value`` is outside [low, high]."""
    too_low = value <= low if left_open else value < low
    too_high = value >= high if right_open else value > high
    if too_low or too_high:
        left = "(" if left_open else "["
        right = ")" if right_open else "]"
        raise ValueError(f"{op_name}: input {arg_name} is not within the required interval of "
                         f"{left}{low}, {high}{right}, got {value}.")


def check_transforms_list(op_name, transforms):
    """Validate the ``transforms`` argument of Compose/RandomApply/RandomChoice/RandomOrder."""
    if not isinstance(transforms, (list, tuple)):
        raise TypeError(f"{op_name}: transforms should be a list of callables, got {type(transforms).__name__}.")
    if not transforms:
        raise ValueError("transforms list can not be empty.")
    for index, op in enumerate(transforms):
        if not callable(op):
            raise TypeError(f"{op_name}: transforms[{index}] is not callable: {op!r}. Each transform must "
                            f"be a transform object or a Python function.")
    return list(transforms)


def apply_chain(transforms, columns):
    """Apply ``transforms`` one after another to a tuple of columns; return a tuple."""
    for op in transforms:
        result = op(*columns)
        columns = result if isinstance(result, tuple) else (result,)
    return columns


def unpack(columns):
    """A 1-tuple of columns is returned as the bare value (what an op returns for one column)."""
    return columns[0] if len(columns) == 1 else tuple(columns)
