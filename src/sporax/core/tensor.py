"""Tensor: MindSpore's array type, one private slot holding a ``jax.Array`` (or a tracer).

Operators and methods are installed by ``sporax.ops.tensor_methods`` (a table onto the
functional ops), printing by ``sporax.core.tensor_print``; this module owns construction,
the array slot and the attributes that need no op.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, float32
    >>> Tensor(np.ones((2, 3)), float32).shape
    (2, 3)
"""
import numbers

import jax
import jax.numpy as jnp
from jax.experimental import multihost_utils
import numpy as np

from sporax.core import dtype as mstype
from sporax.core import jax_private
from sporax.core.grad_mode import disabled as _grad_disabled
from sporax.core.host_buffer import SHARING, HostBuffer, buffer_of


def _default_dtype_of_python(data):
    """MindSpore's dtype for a Python scalar or (nested) list: int64, float32, bool, complex64."""
    kinds = set()

    def visit(item):
        if isinstance(item, (list, tuple)):
            for element in item:
                visit(element)
        elif isinstance(item, Tensor):
            kinds.add(item.dtype)
        elif isinstance(item, np.ndarray):
            kinds.add(mstype.from_numpy_dtype(item.dtype))
        elif isinstance(item, (bool, np.bool_)):
            kinds.add("bool")
        elif isinstance(item, (numbers.Integral,)):
            kinds.add("int")
        elif isinstance(item, numbers.Real):
            kinds.add("float")
        elif isinstance(item, numbers.Complex):
            kinds.add("complex")
        else:
            raise TypeError(f"Tensor: cannot make a tensor from {type(item).__name__} {item!r}; "
                            "expected numbers, nested lists/tuples of numbers, NumPy arrays or Tensors.")

    visit(data)
    if not kinds:
        return mstype.float32
    if "complex" in kinds:
        return mstype.complex128  # a Python complex is double precision (MindSpore: Complex128)
    if "float" in kinds:
        return mstype.float32
    if "int" in kinds:
        return mstype.int64
    if kinds == {"bool"}:
        return mstype.bool_
    types = [k for k in kinds if isinstance(k, mstype.Type)]
    result = types[0]
    for other in types[1:]:
        result = mstype.promote(result, other)
    return result


def _to_nested_numpy(data):
    if isinstance(data, (list, tuple)):
        return [_to_nested_numpy(item) for item in data]
    if isinstance(data, Tensor):
        return data.asnumpy()
    return data


class Tensor:
    """A MindSpore tensor backed by a JAX array.

    Args:
        input_data (Union[Tensor, numpy.ndarray, list, tuple, int, float, bool, complex]): the values.
        dtype (mindspore.dtype): element type; inferred when None (int -> Int64, float -> Float32).
        shape (Union[tuple, list, int]): the shape of a tensor made by ``init``.
        init (Initializer): fills a tensor of ``shape`` and ``dtype`` when it is first used.

    Example:
        >>> Tensor([1, 2, 3]).dtype
        Int64
    """

    # _channels_last: (array, same values in NHWC) while a traced CNN stays in NHWC
    # (sporax.ops.lowering.channels_last); unset otherwise.
    __slots__ = ("_array", "_init", "_channels_last", "__weakref__")
    __array_priority__ = 100

    def __init__(self, input_data=None, dtype=None, shape=None, init=None, internal=False,
                 const_arg=False, device=None):
        self._init = None
        if dtype is not None:
            dtype = mstype.normalize(dtype)
        if init is not None:
            if input_data is not None:
                raise ValueError("Tensor: pass either input_data or init (with shape and dtype), not both.")
            if shape is None or dtype is None:
                raise ValueError("Tensor: init=... needs both shape and dtype, for example "
                                 "Tensor(shape=(2, 2), dtype=mindspore.float32, init=One()).")
            shape = (shape,) if isinstance(shape, int) else tuple(shape)
            self._array = None
            self._init = (init, shape, dtype)
            return
        if input_data is None:
            if shape is not None and dtype is not None:
                shape = (shape,) if isinstance(shape, int) else tuple(shape)
                # None, -1 and Symbol dimensions are dynamic.
                dynamic = [dim is None or not isinstance(dim, (int, np.integer)) or dim == -1 for dim in shape]
                if any(dynamic):
                    # A placeholder with dynamic dimensions, as export/set_inputs take it.
                    self._array = None
                    self._init = (None, tuple(-1 if flag else dim for flag, dim in zip(dynamic, shape)), dtype)
                    return
                self._array = jnp.zeros(shape, mstype.to_numpy_dtype(dtype))
                return
            if dtype is not None:
                # A placeholder of dynamic rank (MindSpore's shape (-2,)), as set_inputs takes it.
                self._array = None
                self._init = (None, (-2,), dtype)
                return
            raise TypeError("Tensor: input_data is None; pass data, or shape, dtype and init.")
        self._array = _as_array(input_data, dtype)

    @classmethod
    def _wrap(cls, array):
        """Wrap a jax array (or tracer) without copying or validation: the ops' hot path."""
        if _grad_disabled[0] and isinstance(array, jax.core.Tracer):
            array = jax.lax.stop_gradient(array)  # computed under _no_grad: a constant to the gradient
        tensor = object.__new__(Tensor)
        tensor._array = array
        tensor._init = None
        return tensor

    # --- the array slot -------------------------------------------------------------------
    @property
    def _value(self):
        """The backing jax array, materialising a lazily initialised tensor on first use (and re-reading a NumPy
        array the Tensor shares, ``sporax.core.host_buffer``)."""
        if self._init is None:
            return self._array
        source = self._init[0]
        if type(source) in SHARING:
            return source.read(self)
        array = self._array
        if array is None:
            array = self.init_data()._array
        return array

    def init_data(self, slice_index=None, shape=None, opt_shard_group=None):
        """Materialise a tensor created with ``init=``; returns self."""
        if self._array is None:
            from sporax.core.initializer import make_array

            init, init_shape, dtype = self._init
            if init is None:
                raise ValueError(f"Tensor(shape={list(init_shape)}) has dynamic dimensions (None/-1): it is "
                                 "a placeholder for export or set_inputs and holds no values.")
            self._array = make_array(init, init_shape, dtype)
            self._init = None
        return self

    # --- attributes -----------------------------------------------------------------------
    @property
    def dtype(self):
        if self._array is None:
            return self._init[2]
        return mstype.from_numpy_dtype(self._array.dtype)

    @property
    def shape(self):
        if self._array is None:
            return self._init[1]
        return tuple(self._array.shape)

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def size(self):
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def itemsize(self):
        return mstype.to_numpy_dtype(self.dtype).itemsize

    @property
    def nbytes(self):
        return self.size * self.itemsize

    @property
    def strides(self):
        strides, step = [], self.itemsize
        for dim in reversed(self.shape):
            strides.append(step)
            step *= dim
        return tuple(reversed(strides))

    # --- conversion -----------------------------------------------------------------------
    def asnumpy(self):
        """Return the values as a new, writable NumPy array (a view of the array of ``Tensor.from_numpy``)."""
        value = concrete(self._value)
        if value is None:
            raise RuntimeError(
                "Tensor.asnumpy() was called on a value that is being compiled (inside ms.jit, "
                "GRAPH_MODE or a gradient): its values do not exist yet. Return the tensor from "
                "the compiled function and call asnumpy() on the result.")
        if isinstance(value, jax.Array) and not value.is_fully_addressable:
            # Sharded across processes (SEMI_AUTO_PARALLEL): every process gathers the whole value,
            # a collective all of them run at this point (as MindSpore's integrated save).
            return _c_long_long(np.array(multihost_utils.process_allgather(value, tiled=True)))
        buffer = buffer_of(self)
        shared = type(buffer) is HostBuffer and value is buffer.synced
        return _c_long_long(buffer.array.view() if shared else np.array(value))

    numpy = asnumpy

    def __array__(self, dtype=None, copy=None):
        array = self.asnumpy()
        return array if dtype is None else array.astype(dtype)

    def __jax_array__(self):
        return self._value

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        """NumPy on the left (``array == tensor``, ``array - tensor``) computes in NumPy, as in MindSpore.

        MindSpore's Tensor converts to an ndarray there, so ``(out.asnumpy() == expected_tensor).all()``
        compares element-wise. Inside a trace (a Tensor holding a tracer) there is no ndarray to make:
        the same ufunc runs in ``jax.numpy`` and gives a Tensor, as a graph constant would.
        """
        if not any(isinstance(value, Tensor) and isinstance(value._value, jax.core.Tracer) for value in inputs):
            arrays = [value.asnumpy() if isinstance(value, Tensor) else value for value in inputs]
            return getattr(ufunc, method)(*arrays, **kwargs)
        function = getattr(jnp, ufunc.__name__, None)
        if method != "__call__" or kwargs or function is None:
            raise TypeError(f"NumPy's {ufunc.__name__}.{method} cannot take a Tensor being traced (in GRAPH mode "
                            "or under jit); use the mindspore.ops equivalent on Tensors instead.")
        arrays = [value._value if isinstance(value, Tensor) else value for value in inputs]
        return Tensor(function(*arrays), internal=True)

    @staticmethod
    def from_numpy(array):
        """Make a Tensor that shares memory with the NumPy ``array``, as in MindSpore.

        On the CPU backend a C-contiguous, writable array of numbers keeps being the Tensor's storage:
        later writes to the array show in the Tensor, ``t[i] = v``, ``ops.assign`` and ``copy_`` write
        into the array, and ``asnumpy()`` returns a view of it (``sporax.core.host_buffer``).
        ``assign_value`` gives the Tensor storage of its own. Other arrays (strided, read-only, another
        device) are copied.

        Args:
            array (numpy.ndarray): the values.

        Returns:
            Tensor.

        Examples:
            >>> import numpy as np
            >>> from mindspore import Tensor
            >>> a = np.ones(3, np.float32)
            >>> t = Tensor.from_numpy(a)
            >>> a[0] = 5
            >>> print(t)
            [5. 1. 1.]
        """
        from sporax.core.tensor_print import keep_numpy_layout, numpy_backed

        array = np.asarray(array)
        buffer = HostBuffer.over(array)
        if buffer is None:
            return numpy_backed(array)
        tensor = Tensor._wrap(buffer.synced)
        tensor._init = (buffer, tuple(array.shape), mstype.from_numpy_dtype(array.dtype))
        return keep_numpy_layout(tensor)

    def __hash__(self):
        return id(self)


def _c_long_long(array):
    """``array`` with Int64 typed as C ``long long``, as MindSpore's arrays come out of C++.

    The values and ``dtype == np.int64`` are unchanged; NumPy then prints
    ``array([1, 2], dtype=int64)`` as it does for MindSpore's, not ``array([1, 2])``.
    """
    if array.dtype.char == "l" and array.dtype.itemsize == 8:
        return array.view(np.longlong)
    return array


def _on_device(values, copy):
    """A NumPy array as a jax array (``copy``: of a private copy, when the caller may change ``values`` later).

    ``jax.device_put``, not ``jnp.asarray``: on jaxlib 0.10 ``jnp.asarray`` of a NumPy array runs ``lax.stage``,
    which compiles an identity XLA program for every new shape and dtype (5-100 ms the first time a Tensor of
    that shape is made); ``device_put`` compiles nothing. On CPU it may keep the NumPy buffer itself, hence the
    copy of a caller's array. Under a trace both stage the value as a constant of the program.
    A 0-d value outside a trace (``ms.Tensor(1.0)``, a learning rate, a loss scale) goes through a compiled
    identity instead: jit's C++ argument path puts it on the device in ~10-20 us against ``device_put``'s ~120
    (its Python), and 0-d values need one program per dtype only.
    """
    if copy:
        values = np.array(values, copy=True)
    if values.ndim == 0 and not jax_private.is_transforming():
        return _put_scalar(values)
    return jax.device_put(values)


_put_scalar = jax.jit(lambda value: value)


def _as_array(data, dtype):
    """Turn user data into a jax array of MindSpore ``dtype`` (inferred when None)."""
    target = None if dtype is None else mstype.to_numpy_dtype(dtype)
    if isinstance(data, Tensor):
        array = data._value
        return array if target is None or array.dtype == target else array.astype(target)
    if isinstance(data, jax.Array) or isinstance(data, jax.core.Tracer):
        return data if target is None or data.dtype == target else data.astype(target)
    if isinstance(data, (np.ndarray, np.generic)):
        array = np.asarray(data)
        if array.dtype.kind in "USO":
            raise TypeError(f"Tensor: cannot make a tensor from a NumPy array of dtype {array.dtype}.")
        with np.errstate(over="ignore"):  # a value beyond the dtype's range becomes +-inf, silently as in MindSpore
            return _on_device(array if target is None else array.astype(target), copy=target is None)
    if isinstance(data, (list, tuple, numbers.Number)):
        if target is None:
            target = mstype.to_numpy_dtype(_default_dtype_of_python(data))
        try:
            values = np.asarray(_to_nested_numpy(data))
        except ValueError:  # a ragged nesting: MindSpore 2.10 raises TypeError
            raise TypeError(f"For Tensor, the input_data is {data} that contain unsupported element: nested lists "
                            "or tuples must be rectangular (each inner one the same length).") from None
        # Cast after inference, so out-of-range values wrap as MindSpore's C cast does ([300] -> uint8 44).
        with np.errstate(invalid="ignore", over="ignore"):
            return _on_device(values if values.dtype == target else values.astype(target), copy=False)
    raise TypeError(f"Tensor: cannot make a tensor from {type(data).__name__}; expected a Tensor, "
                    "NumPy array, list, tuple or Python number.")


def concrete(array):
    """``array`` as host values, or None while it is abstract (being compiled).

    Inside an eagerly differentiated function values are tracers that still carry concrete
    numbers; MindSpore's PyNative lets users print and read them, so sporax does too.
    """
    if not isinstance(array, jax.core.Tracer):
        return array
    return jax_private.concrete_value(array)


def _flatten(tensor):
    return (tensor._value,), None


def _unflatten(_, children):
    return Tensor._wrap(children[0])


jax.tree_util.register_pytree_node(Tensor, _flatten, _unflatten)


def tensor(input_data=None, dtype=None, shape=None, init=None, const_arg=False, device=None):
    """Make a Tensor (``mindspore.tensor``)."""
    return Tensor(input_data, dtype, shape, init, const_arg=const_arg, device=device)


def from_numpy(array):
    """Make a Tensor from a NumPy array (``mindspore.from_numpy``)."""
    return Tensor.from_numpy(array)


def unwrap(value):
    """The jax array behind a Tensor; other values pass through unchanged."""
    if isinstance(value, Tensor):
        return value._value
    return value


def tensor_array(value, arg_name=None, cell_name=None):
    """The jax array behind the Tensor ``value``, the input a Cell computes on; otherwise a TypeError
    in MindSpore's wording, naming the Cell and the input: ``For 'Dense', the input must be a Tensor``."""
    if not isinstance(value, Tensor):
        where = f"For '{cell_name}', the" if cell_name else "The"
        what = f"'{arg_name}'" if arg_name else "input"
        raise TypeError(f"{where} {what} must be a Tensor, but got {type(value).__name__}.")
    return value._value


def wrap(array):
    """A Tensor around a jax array (or tracer)."""
    return Tensor._wrap(array)
