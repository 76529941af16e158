"""The graph-IR helpers ``mindspore.ops`` exports, with the meaning they have in MindSpore's graphs.

MindSpore's compiler writes its programs with a few Primitives a user rarely calls: ``J`` (the
reverse-mode transform of a function), ``hastype``/``isconstant``/``is_sequence_*_unknown`` (type
and constness queries the compiler folds), ``distribute``/``array_reduce`` (broadcast a value to a
shape, and reduce a value back down with a binary function: each is the other's gradient), the
gradient environment (``environ_create``/``environ_set``/``environ_get``/``environ_add``,
``env_get``, keyed by ``ref_to_embed``/``embed``), the registries of Tensor operators and of
Python ("VM") implementations of Primitives, and ``prim_arg_register``. sporax gives each its
meaning as a Python function on concrete values (and on traced values where the query allows).

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> import sporax as ms
    >>> ops.hastype(Tensor(np.ones(2, np.float32)), ms.tensor_type(ms.float32))
    True
    >>> ops.array_reduce(ops.add, Tensor(np.ones((2, 3), np.float32)), (1, 3)).asnumpy().tolist()
    [[2.0, 2.0, 2.0]]
"""
import functools
import inspect

import jax
import jax.numpy as jnp
import numpy as np

from sporax.autodiff.recompute import recompute
from sporax.autodiff.transforms import vjp
from sporax.core import dtype as mstype
from sporax.core.sparse import RowTensor
from sporax.core.tensor import Tensor
from sporax.ops._dispatch import wrap
from sporax.ops.op_table import PRIMITIVES
from sporax.ops.operations.dataflow_ops import GeSwitch, Merge
from sporax.ops.primitive import Primitive, PrimitiveWithCheck, PrimitiveWithInfer


def _array(value):
    return value._value if isinstance(value, Tensor) else value


# --- the reverse-mode transform ---------------------------------------------------------------------------

class _J(Primitive):
    """``J(fn)``: the function that returns ``(fn(*args), backpropagator)``, where ``backpropagator(dout)``
    gives the gradients of the inputs (MindSpore's automatic differentiation transform)."""

    def __init__(self):
        super().__init__("J")

    def __call__(self, fn):
        if not callable(fn):
            raise TypeError(f"For 'J', the input must be a function or Cell, but got {type(fn).__name__}.")

        @functools.wraps(fn)
        def transformed(*args):
            output, backpropagator = vjp(fn, *args)
            return output, backpropagator

        return transformed


J = _J()


# --- type and constness queries ----------------------------------------------------------------------------

def _type_matches(value, wanted):
    if isinstance(wanted, type) and issubclass(wanted, mstype.TensorType):
        return isinstance(value, Tensor)
    if isinstance(wanted, mstype.TensorType):
        return isinstance(value, Tensor) and (wanted.element_type is None or value.dtype == wanted.element_type)
    if wanted is mstype.number:
        return isinstance(value, (bool, int, float, complex, np.number)) and not isinstance(value, Tensor)
    if wanted is mstype.list_:
        return isinstance(value, list)
    if wanted is mstype.tuple_:
        return isinstance(value, tuple)
    if wanted is mstype.string:
        return isinstance(value, str)
    if wanted is mstype.type_none:
        return value is None
    if isinstance(value, Tensor):
        return False
    actual = mstype.get_py_obj_dtype(value)
    return actual == wanted or (isinstance(actual, type(wanted)) and wanted._name in ("Int", "Float"))


class _HasType(Primitive):
    """``hastype(x, t)``: whether ``x`` is of MindSpore type ``t`` (``mstype.tensor_type``, ``tensor_type(float32)``,
    ``number``, ``int64``, ``list_``, ``tuple_``, ``string``, ``type_none``)."""

    def __init__(self):
        super().__init__("hastype")

    def __call__(self, x, t):
        if not (isinstance(t, mstype.Type) or (isinstance(t, type) and issubclass(t, mstype.TensorType))):
            raise TypeError(f"For 'hastype', input[1] should be a MindSpore type (mindspore.tensor_type, "
                            f"mindspore.int64, mindspore.list_ ...), but got {type(t).__name__}.")
        return _type_matches(x, t)


hastype = _HasType()


class _IsConstant(Primitive):
    """``isconstant(x)``: whether ``x``'s value is known now (False for a value traced in a compiled program)."""

    def __init__(self):
        super().__init__("IsConstant")

    def __call__(self, x):
        leaves = jax.tree_util.tree_leaves(jax.tree_util.tree_map(_array, x, is_leaf=lambda v: isinstance(v, Tensor)))
        return not any(isinstance(leaf, jax.core.Tracer) for leaf in leaves)


isconstant = _IsConstant()


def _sequence(name, value):
    if not isinstance(value, (tuple, list)):
        raise TypeError(f"For '{name}', the input must be a tuple or list, but got {type(value).__name__}.")
    return value


class _SequenceQuery(Primitive):
    def __init__(self, name, query):
        super().__init__(name)
        self._query = query

    def __call__(self, sequence):
        return self._query(_sequence(self.name, sequence))


# sporax's sequences always have a known length and element kind (Python containers); their values are
# unknown when they hold traced scalars.
is_sequence_shape_unknown = _SequenceQuery("IsDimUnKnown", lambda sequence: False)
is_sequence_value_unknown = _SequenceQuery("IsShapeUnKnown", lambda sequence: not isconstant(list(sequence)))
is_dynamic_sequence_element_unknown = _SequenceQuery("IsElementUnknown", lambda sequence: False)


class _IsTensorBoolCond(Primitive):
    """``is_tensor_bool_cond(x)``: check that a Tensor can be a condition (one element); returns True."""

    def __init__(self):
        super().__init__("IsTensorBoolCond")

    def __call__(self, x):
        if not isinstance(x, Tensor):
            raise TypeError(f"For 'IsTensorBoolCond', the input must be a Tensor, but got {type(x).__name__}.")
        if tuple(x.shape) not in ((), (1,)):
            raise ValueError(f"Only tensor which shape is () or (1,) can be converted to bool, but got tensor shape "
                             f"is {tuple(x.shape)}: reduce it first (x.all(), x.any()).")
        return True


is_tensor_bool_cond = _IsTensorBoolCond()


class _IterConverter:
    """``iter_converter(x)``: what a ``for`` loop of a compiled graph iterates: a Tensor's slices along axis 0, a
    dict's keys, a string's characters, a sequence's items (as a tuple)."""

    name = "iter_converter"

    def __call__(self, x):
        if isinstance(x, Tensor):
            if x.ndim == 0:
                raise TypeError("For 'iter_converter', a 0-d Tensor is not iterable.")
            return tuple(wrap(_array(x)[index]) for index in range(x.shape[0]))
        if isinstance(x, dict):
            return tuple(x.keys())
        if isinstance(x, (tuple, list, str, range)):
            return tuple(x)
        raise TypeError(f"For 'iter_converter', the input must be a Tensor, tuple, list, dict or str, but got "
                        f"{type(x).__name__}.")


iter_converter = _IterConverter()


# --- distribute and array_reduce ---------------------------------------------------------------------------

class _Distribute(Primitive):
    """``distribute(x, shape)``: ``x`` broadcast to ``shape``."""

    def __init__(self):
        super().__init__("distribute")

    def __call__(self, x, shape):
        return wrap(jnp.broadcast_to(jnp.asarray(_array(x)), tuple(shape)))


distribute = _Distribute()


class _ArrayReduce(Primitive):
    """``array_reduce(fn, x, shape)``: reduce ``x`` down to ``shape`` (the broadcast source shape) with the binary
    function ``fn`` (``ops.add``, ``ops.maximum`` …); the gradient of ``distribute``."""

    def __init__(self):
        super().__init__("array_reduce")

    def __call__(self, fn, x, shape):
        value = _array(x)
        shape = tuple(shape)
        lead = value.ndim - len(shape)
        if lead < 0 or any(dim not in (1, size) for dim, size in zip(shape, value.shape[lead:])):
            raise ValueError(f"For 'array_reduce', the shape {shape} does not broadcast to the input's "
                             f"{tuple(value.shape)}.")
        axes = list(range(lead)) + [lead + i for i, dim in enumerate(shape) if dim == 1 and value.shape[lead + i] != 1]
        result = wrap(value)
        for axis in sorted(axes, reverse=True):
            pieces = [wrap(jnp.take(_array(result), index, axis=axis)) for index in range(result.shape[axis])]
            result = functools.reduce(fn, pieces)
        return wrap(jnp.reshape(_array(result), shape))


array_reduce = _ArrayReduce()


class _ArrayToScalar(Primitive):
    """``array_to_scalar(x)``: the Python number a one-element Tensor holds."""

    def __init__(self):
        super().__init__("array_to_scalar")

    def __call__(self, x):
        if not isinstance(x, Tensor) or x.size != 1:
            raise TypeError(f"For 'array_to_scalar', the input must be a one-element Tensor, but got {x!r}.")
        return np.asarray(_array(x)).reshape(()).item()


array_to_scalar = _ArrayToScalar()


# --- the gradient environment ------------------------------------------------------------------------------

class SymbolicKey:
    """The key of a value in a gradient environment: the identity of a Parameter (``ref_to_embed``) or of any
    object (``embed``)."""

    __slots__ = ("target",)

    def __init__(self, target):
        self.target = target

    def __eq__(self, other):
        return isinstance(other, SymbolicKey) and other.target is self.target

    def __hash__(self):
        return id(self.target)

    def __repr__(self):
        return f"SymbolicKey({getattr(self.target, 'name', type(self.target).__name__)})"


class EnvironType:
    """A gradient environment: an immutable map from ``SymbolicKey`` to a value."""

    __slots__ = ("_items",)

    def __init__(self, items=None):
        self._items = dict(items or {})

    def __len__(self):
        return len(self._items)

    def __repr__(self):
        return f"EnvironType({len(self._items)} entries)"


class _Embed(Primitive):
    def __init__(self, name):
        super().__init__(name)

    def __call__(self, x):
        return SymbolicKey(x)


embed = _Embed("embed")
ref_to_embed = _Embed("RefToEmbed")


def _environment(name, env):
    if not isinstance(env, EnvironType):
        raise TypeError(f"For '{name}', the environment must come from environ_create, but got {type(env).__name__}.")
    return env


def _key(name, key):
    if not isinstance(key, SymbolicKey):
        raise TypeError(f"For '{name}', the key must come from ref_to_embed or embed, but got {type(key).__name__}.")
    return key


class _EnvironCreate(Primitive):
    def __init__(self):
        super().__init__("EnvironCreate")

    def __call__(self):
        return EnvironType()


class _EnvironSet(Primitive):
    def __init__(self):
        super().__init__("EnvironSet")

    def __call__(self, env, key, value):
        items = dict(_environment("EnvironSet", env)._items)
        items[_key("EnvironSet", key)] = value
        return EnvironType(items)


class _EnvironGet(Primitive):
    def __init__(self):
        super().__init__("EnvironGet")

    def __call__(self, env, key, default):
        return _environment("EnvironGet", env)._items.get(_key("EnvironGet", key), default)


class _EnvironAdd(Primitive):
    def __init__(self):
        super().__init__("EnvironAdd")

    def __call__(self, env1, env2):
        items = dict(_environment("EnvironAdd", env1)._items)
        for key, value in _environment("EnvironAdd", env2)._items.items():
            items[key] = wrap(_array(items[key]) + _array(value)) if key in items else value
        return EnvironType(items)


environ_create = _EnvironCreate()
environ_set = _EnvironSet()
environ_get = _EnvironGet()
environ_add = _EnvironAdd()


def env_get(env, parameter):
    """The gradient ``env`` holds for ``parameter``, or zeros of its shape and dtype when it holds none."""
    if not isinstance(parameter, Tensor):
        raise TypeError(f"For 'env_get', the parameter must be a Tensor or Parameter, but got "
                        f"{type(parameter).__name__}.")
    return environ_get(env, ref_to_embed(parameter), wrap(jnp.zeros_like(_array(parameter))))


# --- sparse helpers ----------------------------------------------------------------------------------------

class _RowTensorAdd(Primitive):
    """``row_tensor_add(x, y)``: a RowTensor whose slices are ``x``'s plus the dense ``y`` (broadcast)."""

    def __init__(self):
        super().__init__("RowTensorAdd")

    def __call__(self, x, y):
        if not isinstance(x, RowTensor):
            raise TypeError(f"For 'RowTensorAdd', input[0] should be RowTensor, but got {type(x).__name__}.")
        if not isinstance(y, Tensor):
            raise TypeError(f"For 'RowTensorAdd', input[1] should be Tensor, but got {type(y).__name__}.")
        return RowTensor(x.indices, wrap(_array(x.values) + _array(y).astype(_array(x.values).dtype)), x.dense_shape)


row_tensor_add = _RowTensorAdd()


# --- registries ----------------------------------------------------------------------------------------------

class Registry(dict):
    """A name -> object registry (``tensor_operator_registry``, ``vm_impl_registry``).

    ``register(name, obj)`` records an object; ``register(name)`` returns a decorator; ``get(name)``
    returns it (for a Primitive object, the entry of its name).
    """

    def __init__(self, fallback=None):
        super().__init__()
        self._fallback = fallback

    def register(self, name, obj=None):
        key = name.name if isinstance(name, Primitive) else name
        if obj is not None:
            self[key] = obj
            return obj

        def decorate(function):
            self[key] = function
            return function

        return decorate

    def get(self, name, default=None):
        key = name.name if isinstance(name, Primitive) else name
        if key in self:
            return self[key]
        found = self._fallback(key) if self._fallback is not None else None
        return default if found is None else found


def _functional_op(name):
    from sporax.ops import functional  # closes a cycle: ops.functional imports this module

    return getattr(functional, name, None)


# MindSpore's Tensor methods look their ops up by name here; sporax's Tensor methods are installed from the op
# table, so every functional op serves as the registered operator of its name.
tensor_operator_registry = Registry(fallback=_functional_op)
# Python implementations of Primitives, for running and debugging a graph op by op.
vm_impl_registry = Registry()


def get_vm_impl_fn(prim):
    """The Python implementation of Primitive ``prim`` (object or name): what the factory registered in
    ``vm_impl_registry`` returns when called with ``prim`` (as MindSpore's registry holds factories), else the
    Primitive itself run eagerly; ``None`` when sporax has neither."""
    if not isinstance(prim, (Primitive, str)):
        raise TypeError(f"For 'get_vm_impl_fn', prim must be a Primitive or its name, but got {type(prim).__name__}.")
    registered = vm_impl_registry.get(prim)
    if registered is not None:
        return registered(prim)
    if isinstance(prim, Primitive):
        return prim
    entry = PRIMITIVES.get(prim)
    return None if entry is None else functools.partial(entry.call_primitive, Primitive(prim))


def prim_arg_register(fn):
    """Decorate a Primitive's ``__init__`` so each argument becomes an attribute of the Primitive object (and of
    ``init_attrs``), the Primitive named after its class.

    Example:
        >>> from sporax.ops import PrimitiveWithCheck, prim_arg_register
        >>> class Scale(PrimitiveWithCheck):
        ...     @prim_arg_register
        ...     def __init__(self, factor=2.0):
        ...         pass
        >>> Scale().factor
        2.0
    """

    @functools.wraps(fn)
    def wrapper(self, *args, **kwargs):
        name = getattr(type(self), "substitute_name", type(self).__name__)
        base = PrimitiveWithInfer if isinstance(self, PrimitiveWithInfer) else (
            PrimitiveWithCheck if isinstance(self, PrimitiveWithCheck) else Primitive)
        base.__init__(self, name)
        bound = inspect.signature(fn).bind(self, *args, **kwargs)
        bound.apply_defaults()
        self.init_attrs = {}
        for key, value in list(bound.arguments.items())[1:]:
            setattr(self, key, value)
            self.init_attrs[key] = value
        fn(self, *args, **kwargs)

    return wrapper


class _RecomputeBlock:
    """``recompute_block(block, output_recompute=False)``: ``block`` as a function whose activations are recomputed in
    the backward pass instead of stored (what ``mindspore.recompute`` compiles a block into)."""

    name = "recompute_block"

    def __call__(self, block, output_recompute=False):
        if not callable(block):
            raise TypeError(f"For 'recompute_block', the block must be a Cell or function, but got "
                            f"{type(block).__name__}.")

        def recomputed(*args, **kwargs):
            return recompute(block, *args, output_recompute=output_recompute, **kwargs)

        return recomputed


recompute_block = _RecomputeBlock()
geswitch = GeSwitch()
merge = Merge()
