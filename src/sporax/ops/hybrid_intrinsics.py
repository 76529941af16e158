"""The intrinsics of MindSpore's Hybrid DSL (``output_tensor``, ``allocate``, the loop kinds, the math
functions), bound twice: to NumPy, for running a ``@kernel`` function on arrays, and to ``jax.numpy`` over
functional buffers, for tracing it (the automatic gradient of ``ops.Custom(func_type='hybrid')``).
"""
import itertools
import math
import operator

import jax
import jax.numpy as jnp
import numpy as np

LOOPS = ("range", "serial", "vectorize", "parallel", "reduce")
SCOPES = ("attr", "block_realize")
CASTS = ("int8", "int16", "int32", "int64", "float16", "float32", "float64")


class _Scope:
    """``with attr(...)`` / ``with block_realize(...)``: compiler hints, nothing to do when run."""

    def __init__(self, *args, **kwargs):
        del args, kwargs

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def _grid(extents):
    return itertools.product(*[range(int(extent)) for extent in extents])


def _ceil_div(a, b):
    return (a + b - 1) // b


def _numpy_erf(x):
    value = np.asarray(x)
    result = np.vectorize(math.erf, otypes=[np.float64])(value).astype(value.dtype if value.dtype.kind == "f"
                                                                      else np.float64)
    return result if result.ndim else result[()]


def _common():
    table = {name: range for name in LOOPS}
    table.update({name: _Scope for name in SCOPES})
    table.update(grid=_grid, ceil_div=_ceil_div)
    return table


def numpy_intrinsics():
    """The DSL's names bound to NumPy: buffers are zero-filled arrays, written in place."""
    table = _common()

    def allocate(shape, dtype="float32", scope="global"):
        del scope
        return np.zeros(tuple(shape), dtype=np.dtype(dtype))

    table.update(allocate=allocate, output_tensor=allocate, sqrt=np.sqrt, sign=np.sign, log=np.log, tanh=np.tanh,
                 exp=np.exp, abs=np.abs, power=np.power, rsqrt=lambda x: 1 / np.sqrt(x), erf=_numpy_erf,
                 isnan=np.isnan, isinf=np.isinf, isfinite=np.isfinite, sin=np.sin, cos=np.cos, atan=np.arctan,
                 atan2=np.arctan2, expm1=np.expm1, floor=np.floor, ceil=np.ceil, trunc=np.trunc, round=np.round)
    table.update({name: getattr(np, name) for name in CASTS})
    return table


class TracedBuffer:
    """A DSL tensor while tracing. The DSL reads and writes single elements at loop indices that are
    Python ints once loops unroll, so elements live in a dict of JAX scalars over a base array: reads and
    writes cost no array op, and the array is rebuilt with one scatter when it is needed whole (the return
    value, or an index that is itself traced)."""

    def __init__(self, value):
        self.base = value
        self.cells = {}

    @property
    def shape(self):
        return tuple(self.base.shape)

    @property
    def dtype(self):
        return self.base.dtype

    def __len__(self):
        return self.base.shape[0]

    @property
    def value(self):
        """The whole array, with every element written so far."""
        if self.cells and self.base.ndim == 0:
            self.base, self.cells = self.cells[()], {}
        elif self.cells:
            positions = tuple(np.array(axis) for axis in zip(*self.cells))
            self.base = self.base.at[positions].set(jnp.stack(list(self.cells.values())))
            self.cells = {}
        return self.base

    def _element(self, index):
        """``index`` as a tuple of Python ints when it names one element by static indices, else None."""
        index = index if isinstance(index, tuple) else (index,)
        if len(index) != self.base.ndim:
            return None
        try:
            element = tuple(operator.index(i) for i in index)
        except TypeError:  # a slice, or an index computed from traced values
            return None
        if not all(-size <= i < size for i, size in zip(element, self.base.shape)):
            raise IndexError(f"index {element} is out of bounds for a Hybrid DSL tensor of shape {self.shape}")
        return tuple(i + size if i < 0 else i for i, size in zip(element, self.base.shape))

    def __getitem__(self, index):
        element = self._element(index)
        if element is None:
            return self.value[index]
        if element not in self.cells:
            self.cells[element] = self.base[element]
        return self.cells[element]

    def __setitem__(self, index, item):
        item = jnp.asarray(item).astype(self.base.dtype)
        element = self._element(index)
        if element is None:
            self.base = self.value.at[index].set(item)
        else:
            self.cells[element] = item


def _fold(binary):
    def fold(*args):
        values = args[0] if len(args) == 1 else args
        result = values[0]
        for value in values[1:]:
            result = binary(result, value)
        return result

    return fold


def jax_intrinsics():
    """The DSL's names bound to ``jax.numpy`` over :class:`TracedBuffer` tensors."""
    table = _common()

    def allocate(shape, dtype="float32", scope="global"):
        del scope
        return TracedBuffer(jnp.zeros(tuple(int(d) for d in shape), dtype=np.dtype(dtype)))

    def cast(name):
        target = np.dtype(name)
        return lambda x: jnp.asarray(x).astype(target)

    table.update(allocate=allocate, output_tensor=allocate, sqrt=jnp.sqrt, sign=jnp.sign, log=jnp.log,
                 tanh=jnp.tanh, exp=jnp.exp, abs=jnp.abs, power=jnp.power, rsqrt=jax.lax.rsqrt,
                 erf=jax.scipy.special.erf, isnan=jnp.isnan, isinf=jnp.isinf, isfinite=jnp.isfinite, sin=jnp.sin,
                 cos=jnp.cos, atan=jnp.arctan, atan2=jnp.arctan2, expm1=jnp.expm1, floor=jnp.floor, ceil=jnp.ceil,
                 trunc=jnp.trunc, round=jnp.round, max=_fold(jnp.maximum), min=_fold(jnp.minimum))
    table.update({name: cast(name) for name in CASTS})
    return table


NUMPY = numpy_intrinsics()
JAX = jax_intrinsics()
NAMES = frozenset(NUMPY) | frozenset(JAX) | {"max", "min", "len"}
