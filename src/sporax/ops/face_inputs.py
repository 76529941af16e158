"""How an op-table face reads its arguments: one reader per dtype rule, settings as static values.

A reader ``read(op_name, arg_name, value)`` gives the jax array of a Tensor argument, or raises the
TypeError that names the op, the argument and what it takes; ``READERS`` maps each dtype rule of
``sporax.ops.op_table`` to its reader. Settings (hyper-parameters) become hashable Python values: they
are static arguments of the compiled kernel.

Example:
    >>> from sporax import Tensor
    >>> from sporax.ops.face_inputs import READERS, setting_value
    >>> READERS["index"]("gather", "input_indices", [2, 0]).tolist()
    [2, 0]
    >>> setting_value("sum", "axis", [0, 1])
    (0, 1)
"""
import numbers

import jax
import jax.numpy as jnp
import numpy as np

from sporax.core import jax_private
from sporax.core.tensor import Tensor
from sporax.ops._dispatch import array_of, describe, failed_calling, float_array_of, inexact_array_of, numeric_array_of
from sporax.ops.op_table import (ANY, COMPLEX, COO, CREATION, CSR, FLOAT, INDEX, INEXACT, MASK, NUMBER, SPECTRAL,
                                 TO_FLOAT, TO_FLOAT64)
from sporax.ops.sparse_operands import sparse_reader
from sporax.state.fallback import UntraceableError


def _of_dtypes(accepts, expected, fix, doc):
    """A reader whose Tensor argument must have a dtype ``accepts(dtype)`` takes, else a TypeError naming the op."""

    def read(op_name, arg_name, value):
        array = array_of(op_name, arg_name, value)
        if not accepts(array.dtype):
            raise TypeError(f"For '{op_name}', '{arg_name}' must be {expected}, but got {describe(value)}; {fix}")
        return array

    read.__doc__ = doc
    return read


float_input = _of_dtypes(lambda dtype: dtype.kind == "f" or dtype.name == "bfloat16",
                         "a floating-point Tensor (Float16, Float32, Float64 or BFloat16)",
                         "cast it first, e.g. ops.cast(x, mindspore.float32).",
                         "The array of a Tensor argument that must have a float dtype.")
mask_input = _of_dtypes(lambda dtype: dtype == np.bool_, "a Bool Tensor", "make one with a comparison, e.g. x > 0.",
                        "The array of a Bool mask argument.")


def dtype_name(array):
    """MindSpore's name of an array's dtype (``"Int32"``)."""
    return str(Tensor._wrap(array).dtype)


def accepting(names, first_line, keep=False, error=TypeError):
    """A reader of a Tensor argument whose MindSpore dtype is one of ``names`` (``("Float32", "Int32")``), else an
    ``error`` (TypeError unless MindSpore raises another) whose first line is ``first_line`` formatted with ``got`` (the dtype's name), as MindSpore 2.10's
    check of the op's Primitive says it, then the op and argument named. Int and Bool inputs it takes become
    Float32 (the ``TO_FLOAT`` rule) unless ``keep`` (an ``ANY``/``NUMBER`` entry: every dtype it takes stays)."""

    def read(op_name, arg_name, value):
        array = array_of(op_name, arg_name, value)
        got = dtype_name(array)
        if got not in names:
            raise error(f"{first_line.format(got=got, lower=got.lower())}\nFor '{op_name}', '{arg_name}' must "
                            f"be a Tensor of {', '.join(names)}, but got {describe(value)}.")
        return array.astype(np.float32) if array.dtype.kind in "biu" and not keep else array

    read.__doc__ = f"The array of a Tensor argument of dtype {', '.join(names)}."
    return read


def primitive_accepting(primitive, argument, names, keep=False):
    """``accepting(names, keep=keep)`` with the first line of MindSpore's Primitive type check: ``For
    primitive[Digamma], the input argument[input] must be a type of {Tensor[Float16], ...}, but got Tensor[Int32].``"""
    allowed = ", ".join(f"Tensor[{name}]" for name in names)
    return accepting(names, f"For primitive[{primitive}], the input argument[{argument}] must be a type of "
                            f"{{{{{allowed}}}}}, but got Tensor[{{got}}].", keep)


def primitive_check(primitive, argument, names):
    """An entry's ``primitive_check`` of its first input: ``primitive_accepting``'s TypeError for a dtype not in
    ``names`` (the functional op and the Primitive refuse it; the Tensor method computes it)."""
    read = primitive_accepting(primitive, argument, names, keep=True)

    def check(array, *others):
        read(primitive, argument, array)

    return check


# MindSpore 2.10's lists of every real number dtype (its Primitives' type checks that refuse Bool alone), and with
# the complex ones
INTS = ("Int16", "Int32", "Int64", "Int8", "UInt16", "UInt32", "UInt64", "UInt8")
REAL_NUMBERS = ("Float16", "Float32", "Float64") + INTS
NUMBERS = ("Complex128", "Complex64") + REAL_NUMBERS


def index_input(op_name, arg_name, value):
    """The array of an integer index argument: an Int Tensor, or Python ints and lists of ints (Int64)."""
    if isinstance(value, (list, tuple, numbers.Integral)) and not isinstance(value, bool):
        return jnp.asarray(value, np.int64)
    array = array_of(op_name, arg_name, value)
    if array.dtype.kind not in "iu":
        first = (f"For primitive[OneHot], the input argument[indices] must be a type of {{Tensor[Int32], "
                 f"Tensor[Int64]}}, but got Tensor[{Tensor._wrap(array).dtype}].\n" if op_name == "one_hot" else "")
        raise TypeError(f"{first}For '{op_name}', '{arg_name}' must be an integer Tensor (Int32 or Int64), "
                        f"but got {describe(value)}; cast it first, e.g. x.astype(mindspore.int32).")
    return array


def spectral_input(op_name, arg_name, value):
    """The array of a Fourier transform's input (the ``SPECTRAL`` rule): a number Tensor, computed in Float32
    unless it is Float32, Float64 or complex."""
    array = numeric_array_of(op_name, arg_name, value)
    if array.dtype.kind in "iu" or array.dtype.kind in "fV" and array.dtype.itemsize < 4:
        return array.astype(np.float32)
    return array


# The reader of each dtype rule: the array of a Tensor argument, or the op's TypeError naming it.
READERS = {FLOAT: float_input, NUMBER: numeric_array_of, ANY: array_of, TO_FLOAT: float_array_of,
           CREATION: array_of,  # a creation op has no Tensor input to read
           INEXACT: inexact_array_of, SPECTRAL: spectral_input, INDEX: index_input, MASK: mask_input,
           # a sparse input of any values dtype (the runner reads its values by the entry's rule instead)
           COO: sparse_reader(COO, array_of), CSR: sparse_reader(CSR, array_of)}


def concrete(op_name, arg_name, array):
    """The NumPy value of an input an ``eager`` kernel reads on the host (its output shape depends on it), or,
    under a trace, the ``UntraceableError`` that makes the compiled caller run eagerly (naming the op)."""
    if isinstance(array, jax.core.Tracer) and jax_private.staged_constant(array) is not None:
        array = jax_private.staged_constant(array)  # a constant of the program being compiled is known
    if isinstance(array, jax.core.Tracer):
        raise UntraceableError(f"'{op_name}' gives an output whose shape depends on the values of '{arg_name}', "
                               "which cannot be compiled (inside ms.jit, GRAPH_MODE or a gradient): the function "
                               "runs eagerly instead. To compile it, call the op in PyNative mode outside the "
                               "function, or use a fixed-size alternative such as ops.where or ops.masked_fill.")
    return np.asarray(array)


def scalar_or(read):
    """A reader that passes Python numbers through (jit takes them as weakly typed 0-d arrays)."""
    def readscalar_or_tensor(op_name, arg_name, value):
        if type(value) in (bool, int, float):
            return value
        if isinstance(value, np.generic) and value.dtype.kind in "biuf":  # ``np.float32(2.5)``: a number
            return value.item()
        if not isinstance(value, (Tensor, jax.Array, np.ndarray, numbers.Number)):
            raise TypeError(f"{failed_calling(op_name, arg_name, value)}For '{op_name}', '{arg_name}' must be a "
                            f"Tensor or a Python number, but got {describe(value)}.")
        return read(op_name, arg_name, value)
    return readscalar_or_tensor


def double_input(op_name, arg_name, value):
    """The array of an input of the ``TO_FLOAT64`` rule: Float64 (Complex128 for a complex Tensor)."""
    array = array_of(op_name, arg_name, value)
    return array.astype(np.complex128 if array.dtype.kind == "c" else np.float64)


READERS[TO_FLOAT64] = double_input


def complex_input(op_name, arg_name, value):
    """The array of an input of the ``COMPLEX`` rule: Complex64 or Complex128, else a TypeError naming the op."""
    array = array_of(op_name, arg_name, value)
    if array.dtype.kind != "c":
        raise TypeError(f"For '{op_name}', '{arg_name}' must be a complex Tensor (Complex64 or Complex128), but got "
                        f"{describe(value)}.")
    return array


READERS[COMPLEX] = complex_input


def static_value(op_name, name, value):
    """A hyper-parameter as a hashable Python value: a concrete 0-d Tensor is read once, a 1-d one
    (``Tensor([0, 2])`` as an axis) and lists become tuples, nested ones (a 2-d Tensor, ``[[0, 1], [1, 0]]``)
    tuples of tuples (they are keys of the compiled kernel's
    cache). A Tensor computed inside a compiled function cannot be a setting: the function runs
    eagerly instead (``UntraceableError``), where its value is known."""
    if isinstance(value, Tensor):
        array = value._value
        if isinstance(array, jax.core.Tracer):
            # a Tensor made from Python values inside the compiled function is a constant (MindSpore folds it)
            array = jax_private.staged_constant(array)
        if array is None:
            raise UntraceableError(f"For '{op_name}', '{name}' must be known when the op is compiled, but got a "
                                   "Tensor computed inside the compiled function; pass a Python value.")
        if array.ndim > 1:  # ``shape=Tensor([[2, 3], [1, 1]])``: rows of tuples
            return static_value(op_name, name, np.asarray(array).tolist())
        return tuple(np.asarray(array).tolist()) if array.ndim else np.asarray(array).item()
    if isinstance(value, (list, tuple)) and any(isinstance(item, list) for item in value):
        return tuple(static_value(op_name, name, item) for item in value)  # ``crops=[[0, 1], [1, 0]]``
    if isinstance(value, list):
        return tuple(_frozen(item) for item in value)
    if isinstance(value, tuple) and any(isinstance(item, list) for item in value):
        return tuple(_frozen(item) for item in value)  # ``paddings=([0, 0], [1, 1])``
    if isinstance(value, np.generic):
        return value.item()
    return value


def _frozen(item):
    """A list inside a setting as a tuple (nested ones too: ``[[0, 0], [1, 1]]``), so the setting is hashable."""
    return tuple(_frozen(part) for part in item) if isinstance(item, list) else item


_PLAIN_SETTINGS = frozenset((int, float, bool, str, type(None)))


def setting_value(op_name, name, value):
    """Hyper-parameter ``name`` as a static argument of the compiled kernel (hashable), or a TypeError."""
    if type(value) in _PLAIN_SETTINGS:  # plain Python values need no conversion or check
        return value
    value = static_value(op_name, name, value)
    try:
        hash(value)
    except TypeError:
        raise TypeError(f"For '{op_name}', '{name}' must be a Python number, string, bool or tuple "
                        f"(a compile-time setting), but got {describe(value)}.") from None
    return value


def sequence_reader(read, sequences):
    """``read`` for an entry with Tensor-list inputs: each of ``sequences`` becomes a tuple of arrays."""

    def read_input(op_name, name, value):
        if name not in sequences:
            return read(op_name, name, value)
        if not isinstance(value, (tuple, list)) or not value:
            raise TypeError(f"For '{op_name}', '{name}' must be a non-empty tuple or list of Tensors, "
                            f"but got {describe(value)}.")
        return tuple(read(op_name, f"{name}[{index}]", item) for index, item in enumerate(value))

    return read_input
