"""Tensor methods: a table onto the functional ops in ``sporax.ops``.

``_DIRECT`` rows install an op itself as the method (``x.exp()`` is ``ops.exp(x)``, no extra
call); ``_ADAPTED`` rows are small functions where MindSpore's method signature differs from the
op's (``x.sum(axis=1, keepdims=True)``, ``x.max(0)``; shape methods are in ``tensor_shape``).
Operators are in ``tensor_operators``, conversions to Python values (``bool``, ``item``,
``tolist``) in ``tensor_conversions``, the in-place ``_`` methods in ``tensor_inplace``, and
``x[i]`` in ``indexing``. As in MindSpore, ``x += y`` makes a new Tensor (an alias of ``x`` keeps
the old value); the ``_`` methods (``x.add_(y)``) and ``x[i] = v`` rebind ``x``'s slot.
``install()`` runs once, when ``sporax/ops/__init__.py`` imports this module at its end.
"""
import numbers

import jax.numpy as jnp
import numpy as np

from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor
from sporax.ops.tensor_shape import (_conjugate_transposed, _matrix_conjugate_transposed, _matrix_transposed,
                                     _new, _transposed, broadcast_to, chunk, expand_as, flatten, new_full, permute,
                                     repeat, repeat_interleave, reshape, resize, split, squeeze, t, tile, transpose,
                                     unsqueeze, view)
from sporax.ops._dispatch import alpha_scaled
from sporax.ops.faces import install_tensor_methods
from sporax.ops.op_table import entries
from sporax.ops.tensor_support import functional, _cast, _find, _no_more, _pick, wrap
from sporax.state import views
from sporax.state.scope import in_compiled_trace
from sporax.core.context import get_context


def _axis_keep(args, kwargs, axis_names=("axis", "dim"), keep_names=("keepdims", "keep_dims", "keepdim")):
    axis = _pick(kwargs, axis_names, args[0] if args else None)
    keep = _pick(kwargs, keep_names, args[1] if len(args) > 1 else False)
    return axis, keep


def _reduction(name):
    """``x.NAME(axis, keepdims)`` (or ``dim``/``keepdim``): ``ops.NAME(x, axis, keep)``."""
    def method(self, *args, **kwargs):
        axis, keep = _axis_keep(args, kwargs)
        _no_more(name, kwargs)
        return getattr(functional, name)(self, axis, keep)
    method.__name__ = name
    return method


def _sum_or_prod(name):
    def method(self, *args, **kwargs):
        """``x.sum(axis, keepdims)`` / ``x.sum(dim, keepdim, dtype=)``; a dtype 2nd argument is the dtype."""
        dtype = kwargs.pop("dtype", None)
        args = list(args)
        if len(args) > 1 and isinstance(args[1], mstype.Type):
            dtype = args.pop(1)
        axis, keep = _axis_keep(args, kwargs)
        initial = kwargs.pop("initial", None)
        _no_more(name, kwargs)
        source = self if dtype is None else _cast(self, dtype)
        result = functional.sum(source, axis, keep) if name == "sum" else functional.prod(source, axis, keep)
        if initial is not None:
            result = functional.add(result, initial) if name == "sum" else functional.mul(result, initial)
        return result
    method.__name__ = name
    return method


def mean(self, *args, **kwargs):
    dtype = kwargs.pop("dtype", None)
    axis, keep = _axis_keep(args, kwargs)
    _no_more("mean", kwargs)
    return functional.mean(self if dtype is None else _cast(self, dtype), axis, keep)


def _extreme(name):
    def method(self, *args, **kwargs):
        """``x.max()``/``x.max(axis=1)`` give values; ``x.max(dim=0)`` gives (values, indices), and so does
        ``x.max(0)`` in PyNative (in a compiled graph MindSpore reads the position as ``axis``: values only);
        a tuple or list in that position (``x.max([1])``) is an ``axis``: values only."""
        initial, where = kwargs.pop("initial", None), kwargs.pop("where", None)
        return_indices = kwargs.pop("return_indices", False)
        positional_dim = (bool(args) and args[0] is not None and not isinstance(args[0], (tuple, list))
                          and "keepdims" not in kwargs and not in_compiled_trace())
        with_indices = return_indices or "dim" in kwargs or "keepdim" in kwargs or positional_dim
        axis, keep = _axis_keep(args, kwargs)
        _no_more(name, kwargs)
        if with_indices and axis is not None:
            return getattr(functional, name)(self, axis, keep, initial=initial, where=where)
        if initial is None and where is None and (isinstance(axis, int) or (axis is None and not keep)):
            # values as MindSpore's Tensor.max takes them (Max/ArgMaxWithValue), whose gradient is not amax's
            return getattr(functional, name)(self, axis, keep)[0]
        reduce = functional.amax if name == "max" else functional.amin
        return reduce(self, axis, keep, initial=initial, where=where)
    method.__name__ = name
    return method


def median(self, *args, **kwargs):
    """``x.median(axis=-1, keepdims=False)`` or ``x.median(dim=, keepdim=)``: ``(values, indices)`` along
    one axis; ``dim=None`` gives the lower median of all elements (values only), as MindSpore's overload."""
    axis_given = bool(args) or "axis" in kwargs or "dim" in kwargs
    axis, keep = _axis_keep(args, kwargs)
    if not axis_given:
        axis = -1
    _no_more("median", kwargs)
    if axis is None:
        return functional.median(functional.reshape(self, (-1,)), 0, False)[0]
    return functional.median(self, axis, keep)


def _spread(name):
    def method(self, *args, **kwargs):
        """``x.std(axis, ddof, keepdims)`` or ``x.std(dim=, correction=, keepdim=)``."""
        axis = _pick(kwargs, ("axis", "dim"), args[0] if args else None)
        ddof = _pick(kwargs, ("ddof", "correction"), args[1] if len(args) > 1 else 0)
        keep = _pick(kwargs, ("keepdims", "keepdim"), args[2] if len(args) > 2 else False)
        _no_more(name, kwargs)
        return getattr(functional, name)(self, axis, ddof, keep)
    method.__name__ = name
    return method


def _sorting(name):
    def method(self, *args, **kwargs):
        axis = _pick(kwargs, ("axis", "dim"), args[0] if args else -1)
        descending = kwargs.pop("descending", args[1] if len(args) > 1 else False)
        kwargs.pop("stable", None)  # XLA's sort is stable
        _no_more(name, kwargs)
        return getattr(functional, name)(self, axis, descending)
    method.__name__ = name
    return method


def cumsum(self, *args, **kwargs):
    axis = _pick(kwargs, ("axis", "dim"), args[0] if args else None)
    dtype = kwargs.pop("dtype", args[1] if len(args) > 1 else None)
    _no_more("cumsum", kwargs)
    if dtype is None and self.dtype == mstype.bool_:
        dtype = mstype.int32  # the method counts a Bool Tensor's True values (MindSpore 2.10)
    if axis is None:
        return functional.cumsum(functional.reshape(self, (-1,)), 0, dtype)
    return functional.cumsum(self, axis, dtype)


def add(self, other, *, alpha=1):
    """``x.add(y, alpha=1)``: ``x + alpha * y`` through ``ops.add``'s method face (MindSpore 2.10's AddExt: two Bool
    operands give Bool, ``alpha`` taken as a Bool: ``x or (alpha and y)``)."""
    return functional.add.entry.method_face(self, alpha_scaled("add", self, other, alpha))


def sub(self, other, *, alpha=1):
    """``x.sub(y, alpha=1)``: ``x - alpha * y`` in the operands' common dtype (``alpha`` lifts only the kind)."""
    return functional.sub(self, alpha_scaled("sub", self, other, alpha))


def subtract(input, other, *, alpha=1):  # ``input``: the op's own method signature
    """``x.subtract(y, alpha=1)``: ``ops.subtract``, except that two Bool operands stay Bool (MindSpore 2.10's
    method computes in Bool, ``alpha`` taken as a Bool: ``x`` exclusive-or ``alpha and y``).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor
        >>> Tensor(np.array([True, False])).subtract(Tensor(np.array([True, True]))).asnumpy().tolist()
        [False, True]
    """
    other_is_bool = isinstance(other, bool) or (isinstance(other, Tensor) and other.dtype == mstype.bool_)
    if input.dtype == mstype.bool_ and other_is_bool:
        return functional.logical_xor(input, functional.logical_and(_cast(Tensor(other), mstype.bool_), bool(alpha)))
    return functional.subtract(input, other, alpha=alpha)


def remainder(input, other=None, *, divisor=None):  # ``input``: the op's own method signature
    """``x.remainder(other)``: ``ops.remainder``; MindSpore 2.10's method also takes the divisor as ``divisor=``
    (an overload it deprecates, still accepted)."""
    if (other is None) == (divisor is None):
        raise TypeError(f"Tensor.remainder() takes the divisor once, as 'other' (or 'divisor'); got other={other!r}, "
                        f"divisor={divisor!r}.")
    return functional.remainder(input, divisor if other is None else other)


def trace(input):
    """``x.trace()``: ``ops.trace``, except that integer diagonals are summed in Int64 (MindSpore 2.10's method;
    ``ops.trace`` keeps the input's integer dtype); a Bool diagonal gives a Bool (Trace's type check, which refuses
    it in ``ops.trace``, is the functional face's alone).

    Example:
        >>> import numpy as np
        >>> from sporax import Tensor
        >>> print(Tensor(np.eye(2, dtype=np.int32)).trace().dtype)
        Int64
    """
    if input._value.dtype.kind in "iu":
        return functional.trace(_cast(input, mstype.int64))
    return functional.trace.entry.method_face(input)


def div(self, other, *, rounding_mode=None):
    return functional.div(self, other, rounding_mode=rounding_mode)


def clip(self, min=None, max=None):
    return functional.clip(self, min, max)


def astype(self, dtype, copy=True):
    """The tensor cast to ``dtype`` (a MindSpore type, a NumPy type or its name such as 'float16')."""
    if isinstance(dtype, str):
        # MindSpore reads a type name case-insensitively: EDSR's metric casts with astype("Int32").
        name = dtype.lower()
        try:
            np.dtype(name)
        except TypeError:
            raise TypeError(f"For Tensor.astype, the string input type must be a NumPy type name such as "
                            f"'int32' or 'float16' (any case), but got '{dtype}'.") from None
        dtype = name
    return _cast(self, dtype)


def _converter(dtype):
    def method(self):
        return _cast(self, dtype)
    return method


def to(self, *args, **kwargs):
    """``x.to(dtype)``, ``x.to(other_tensor)``; a device ('cpu', 'CPU', ...) is accepted and ignored."""
    dtype = kwargs.pop("dtype", None)
    for arg in args:
        if isinstance(arg, Tensor):
            dtype = arg.dtype
        elif isinstance(arg, mstype.Type):
            dtype = arg
    return self if dtype is None else _cast(self, dtype)


def type_(self, dtype=None):
    """Without ``dtype``: the dtype's name ('Float32'); with it: the cast tensor."""
    return str(self.dtype) if dtype is None else _cast(self, dtype)


def copy(self):
    """A new Tensor with the same values (arrays are immutable, so they are shared)."""
    return wrap(self._value)


def fill(self, value):
    value = value._value if isinstance(value, Tensor) else value
    return wrap(jnp.full(self.shape, value, self._value.dtype))


def gather(self, *args, **kwargs):
    """``x.gather(dim, index)`` (elements along ``dim``) or ``x.gather(input_indices, axis, batch_dims=0)``."""
    if "dim" in kwargs or "index" in kwargs or (args and isinstance(args[0], numbers.Integral)):
        dim = kwargs.pop("dim", args[0] if args else None)
        index = kwargs.pop("index", args[1] if len(args) > 1 else None)
        return functional.gather_elements(self, dim, index)
    indices = kwargs.pop("input_indices", args[0] if args else None)
    axis = kwargs.pop("axis", args[1] if len(args) > 1 else None)
    batch_dims = kwargs.pop("batch_dims", args[2] if len(args) > 2 else 0)
    return functional.gather(self, indices, axis, batch_dims)


def index_select(self, *args, **kwargs):
    axis = _pick(kwargs, ("axis", "dim"), args[0] if args else None)
    index = kwargs.pop("index", args[1] if len(args) > 1 else None)
    return functional.index_select(self, axis, index)


def scatter(self, *args, **kwargs):
    axis = _pick(kwargs, ("axis", "dim"), args[0] if args else None)
    index = kwargs.pop("index", args[1] if len(args) > 1 else None)
    src = kwargs.pop("src", args[2] if len(args) > 2 else None)
    return functional.scatter(self, axis, index, src)


def softmax(self, axis=-1, dtype=None):
    return functional.softmax(self, axis, dtype=dtype)


def where(self, condition, y):
    return functional.where(condition, self, y)


def round_(self, decimals=0):
    return functional.round(self, decimals=decimals)


def norm(self, ord=None, dim=None, keepdim=False, *, dtype=None):
    return functional.norm(self, ord, dim, keepdim, dtype=dtype)


def topk(self, k, dim=None, largest=True, sorted=True):
    return functional.topk(self, k, dim, largest, sorted)


def stride(self, dim=None):
    """Element strides (MindSpore's ``stride``; ``strides`` is in bytes): a PyNative view walks its root's storage
    (a transposed view of a (2, 3) Tensor has strides [1, 3])."""
    steps = views.layout(self)[0]
    return steps if dim is None else steps[dim]


def is_contiguous(self):
    """Whether the elements of ``self`` lie in row-major order in its storage (size-1 axes aside)."""
    return views.is_contiguous(self)


def contiguous(self):
    """``self`` when its elements lie in row-major order, else a row-major copy (no longer a view)."""
    return self if views.is_contiguous(self) else Tensor._wrap(self._array)


def _device(self):
    return get_context("device_target")


def _init_property(self):
    return self._init[0] if self._array is None else None


def _data(self):
    return self


def register_hook(self, hook):
    """Call ``hook(grad)`` on this Tensor's gradient; it may return a replacement (``sporax.autodiff.tensor_hooks``)."""
    from sporax.autodiff.tensor_hooks import register_hook as register

    return register(self, hook)


def hooks(self):
    """The hook functions registered on this Tensor with ``register_hook`` and not removed, in call order."""
    from sporax.autodiff.tensor_hooks import registered_hooks

    return registered_hooks(self)


def _sparse():
    from sporax.ops.functional import sparse

    return sparse


def _kind_test(kinds):
    def method(self):
        return self._value.dtype.kind in kinds
    return method


# Method name -> op name: the op itself becomes the method (ops declared in the op table install
# their own methods: ``install_tensor_methods``).
_DIRECT = {
    "multiply": "mul",
}

_ADAPTED = {
    "reshape": reshape, "view": view, "resize": resize, "broadcast_to": broadcast_to, "expand_as": expand_as,
    "permute": permute, "transpose": transpose, "t": t, "squeeze": squeeze, "unsqueeze": unsqueeze,
    "flatten": flatten, "sum": _sum_or_prod("sum"), "prod": _sum_or_prod("prod"), "mean": mean,
    "all": _reduction("all"), "any": _reduction("any"), "max": _extreme("max"), "min": _extreme("min"),
    "argmax": _reduction("argmax"), "argmin": _reduction("argmin"), "std": _spread("std"),
    "var": _spread("var"), "sort": _sorting("sort"), "argsort": _sorting("argsort"), "cumsum": cumsum,
    "add": add, "sub": sub, "div": div, "clip": clip, "astype": astype, "to": to, "type": type_,
    "copy": copy, "clone": copy, "fill": fill, "gather": gather,
    "index_select": index_select, "split": split, "chunk": chunk, "scatter": scatter, "tile": tile,
    "repeat": repeat, "softmax": softmax, "where": where, "round": round_, "norm": norm, "topk": topk, "median": median,
    "stride": stride, "register_hook": register_hook, "hooks": hooks, "float": _converter(mstype.float32), "int": _converter(mstype.int32),
    "half": _converter(mstype.float16), "double": _converter(mstype.float64),
    "long": _converter(mstype.int64), "bool": _converter(mstype.bool_), "short": _converter(mstype.int16),
    "bfloat16": _converter(mstype.bfloat16), "byte": _converter(mstype.uint8),
    "contiguous": contiguous, "is_contiguous": is_contiguous,
    "storage_offset": lambda self: views.layout(self)[1],
    "dim": lambda self: self.ndim, "numel": lambda self: self.size, "nelement": lambda self: self.size,
    "ndimension": lambda self: self.ndim, "value": copy, "detach": copy,
    "ravel": lambda self: functional.reshape(self, (-1,)), "reshape_as": lambda self, other: functional.reshape(self, other.shape),
    "view_as": lambda self, other: functional.reshape(self, other.shape), "new_zeros": _new(0), "new_ones": _new(1),
    "new_empty": _new(0), "new_full": new_full, "is_signed": _kind_test("ifVc"),
    "to_coo": lambda self: _sparse().dense_to_sparse_coo(self),
    "to_csr": lambda self: _sparse().dense_to_sparse_csr(self),
}

# Methods whose dtype rule or keyword forms differ from their op's (installed over the op table's own method faces).
_DIVERGENT = {"subtract": subtract, "trace": trace, "remainder": remainder,
              "repeat_interleave": repeat_interleave}

_PROPERTIES = {
    "T": _transposed, "mT": _matrix_transposed, "H": _conjugate_transposed, "mH": _matrix_conjugate_transposed,
    "device": _device, "init": _init_property, "has_init": lambda self: self._array is None,
}

# op names the adapters call through ``functional``.
_ADAPTER_OPS = ("reshape", "broadcast_to", "permute", "swapaxes", "transpose", "squeeze", "unsqueeze", "flatten",
                "sum", "prod", "mean", "all", "any", "max", "min", "amax", "amin", "argmax", "argmin", "std",
                "var", "sort", "argsort", "cumsum", "add", "sub", "mul", "div", "clip", "gather",
                "gather_elements", "index_select", "split", "chunk", "scatter", "tile", "softmax", "where",
                "round", "norm", "topk", "logical_not", "bitwise_and", "bitwise_or", "bitwise_xor",
                "floor_divide", "remainder", "pow", "matmul", "neg", "abs", "equal", "not_equal", "gt", "ge",
                "lt", "le", "unique", "median", "subtract", "trace", "logical_and", "logical_xor", "cast",
                "repeat_interleave")


def _resolved(op_name):
    function = _find(op_name)
    if function is None:  # a table row naming an op no module defines: a bug, not a user error
        raise ImportError(f"sporax's Tensor method table names the op '{op_name}', which sporax.ops does not define")
    return function


def install():
    """Install the methods, properties, operators and conversions on ``Tensor`` (idempotent)."""
    for name in _ADAPTER_OPS:
        setattr(functional, name, _resolved(name))
    for method, op_name in _DIRECT.items():
        setattr(Tensor, method, _resolved(op_name))
    for method, function in _ADAPTED.items():
        setattr(Tensor, method, function)
    # Ops declared in the op table bring their own method name.
    install_tensor_methods(entries())
    for method, function in _DIVERGENT.items():
        setattr(Tensor, method, function)
    for name, getter in _PROPERTIES.items():
        setattr(Tensor, name, property(getter))
    Tensor.data = property(_data, lambda self, value: self.assign_value(value))

    from sporax.ops import tensor_conversions, tensor_operators

    tensor_operators.install()
    tensor_conversions.install()
    from sporax.ops import indexing

    indexing.install()


install()
