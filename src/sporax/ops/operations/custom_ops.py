"""``ops.Custom``: a user-defined operator. sporax runs ``func_type='pyfunc'`` — a Python function of
NumPy arrays — and ``func_type='hybrid'`` — a Hybrid DSL function decorated by ``ops.kernel``, its output
shapes and dtypes inferred by running it on zeros — as a host callback inside any program
(``jax.pure_callback``), with an optional ``bprop`` as its gradient (``jax.custom_vjp``); a hybrid kernel
without ``bprop`` is differentiated by tracing its DSL with JAX. The kinds compiled by MindSpore's own
toolchains (``'aot'``, ``'akg'``, ``'tbe'``, ``'aicpu'``) name kernels sporax cannot build.
"""
import functools

import jax
import numpy as np

from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor, unwrap, wrap
from sporax.ops import hybrid_kernel
from sporax.ops.primitive import Primitive

_TOOLCHAIN_TYPES = ("aot", "akg", "tbe", "aicpu", "julia")


def _is_multi(value):
    return isinstance(value, (tuple, list)) and value and isinstance(value[0], (tuple, list, mstype.Type))


class Custom(Primitive):
    """A user-defined operator; sporax supports ``func_type='pyfunc'`` and ``'hybrid'``.

    Args:
        func (function): for ``'pyfunc'``, a Python function taking NumPy arrays and returning one array
            (or a tuple of arrays); for ``'hybrid'``, a function decorated by ``ops.kernel``.
        out_shape (Union[function, list, tuple]): the output shape(s), or a function of the input shapes;
            may be ``None`` for ``'hybrid'`` (inferred). Default: ``None``.
        out_dtype (Union[function, mindspore.dtype, tuple]): the output dtype(s), or a function of the
            input dtypes; may be ``None`` for ``'hybrid'`` (inferred). Default: ``None``.
        func_type (str): ``'pyfunc'`` or ``'hybrid'``. Default: ``'pyfunc'``.
        bprop (function): ``bprop(*inputs, out, dout)`` returning one gradient per input; a ``'hybrid'``
            kernel without one is differentiated automatically. Default: ``None``.
        reg_info: registration information of compiled kernels (unused by ``'pyfunc'``). Default: ``None``.

    Inputs:
        - **input** - the Tensors ``func`` takes.

    Outputs:
        Tensor, or a tuple of Tensors.

    Example:
        >>> import numpy as np, sporax as ms
        >>> square = ms.ops.Custom(lambda x: x * x, out_shape=lambda s: s, out_dtype=lambda t: t)
        >>> square(ms.Tensor([2.0, 3.0])).asnumpy().tolist()
        [4.0, 9.0]
    """

    def __init__(self, func, out_shape=None, out_dtype=None, func_type="pyfunc", bprop=None, reg_info=None):
        super().__init__("Custom")
        if func_type in _TOOLCHAIN_TYPES:
            raise NotImplementedError(f"ops.Custom: func_type={func_type!r} builds a MindSpore kernel, which sporax "
                                      "cannot do; use func_type='pyfunc' (a Python function of NumPy arrays) or "
                                      "'hybrid' (a function decorated by ops.kernel).")
        if func_type not in ("pyfunc", "hybrid"):
            raise ValueError(f"For 'Custom', 'func_type' must be one of {['hybrid', 'pyfunc', *_TOOLCHAIN_TYPES]}, "
                             f"but got {func_type!r}.")
        if not callable(func):
            raise TypeError(f"For 'Custom', 'func' must be callable, but got {type(func).__name__}.")
        self.is_kernel = hasattr(func, hybrid_kernel.KERNEL_FLAG)
        if func_type == "hybrid":
            if not self.is_kernel:
                raise TypeError(f"For 'Custom', 'func_type': hybrid, 'func': {func} must be a function decorated "
                                "by ops.kernel.")
            hybrid_kernel.check_source(func.__wrapped__)
        self.func, self.out_shape, self.out_dtype = func, out_shape, out_dtype
        self.func_type, self.bprop, self.reg_info = func_type, bprop, reg_info
        self._inferred, self._gradient = {}, None

    def _infer(self, arrays):
        """Output shapes and dtypes of a hybrid kernel, by running it on zeros of the input shapes
        (MindSpore's automatic inference), once per input signature."""
        key = tuple((tuple(array.shape), np.dtype(array.dtype).str) for array in arrays)
        if key not in self._inferred:
            zeros = [np.zeros(shape, dtype) for shape, dtype in key]
            with np.errstate(all="ignore"):  # log(0) and the like: only the shapes and dtypes are kept
                result = self.func(*zeros)
            multi = isinstance(result, tuple)
            results = result if multi else (result,)
            # a returned Python number (no .shape) becomes a one-element tensor, as in MindSpore
            shapes = [list(item.shape) if hasattr(item, "shape") else [1] for item in results]
            dtypes = [mstype.from_numpy_dtype(np.asarray(item).dtype) for item in results]
            self._inferred[key] = (shapes, dtypes) if multi else (shapes[0], dtypes[0])
        return self._inferred[key]

    def _outputs(self, arrays):
        shapes = self.out_shape
        if callable(shapes):
            shapes = shapes(*[list(array.shape) for array in arrays])
        dtypes = self.out_dtype
        if callable(dtypes):
            dtypes = dtypes(*[mstype.from_numpy_dtype(array.dtype) for array in arrays])
        if self.func_type == "pyfunc":
            self._check_given(shapes, dtypes)
        elif shapes is None or dtypes is None:
            inferred_shapes, inferred_dtypes = self._infer(arrays)
            shapes = inferred_shapes if shapes is None else shapes
            dtypes = inferred_dtypes if dtypes is None else dtypes
        multi = isinstance(dtypes, (tuple, list))
        if not multi:
            shapes, dtypes = [shapes], [dtypes]
        elif not _is_multi(shapes):
            raise ValueError(f"For 'Custom', out_dtype {dtypes!r} has several outputs but out_shape {shapes!r} "
                             "does not give a shape for each.")
        specs = [jax.ShapeDtypeStruct(tuple(int(d) for d in shape), mstype.to_numpy_dtype(dtype))
                 for shape, dtype in zip(shapes, dtypes)]
        return specs, multi

    def _check_given(self, shapes, dtypes):
        """A pyfunc's outputs are what ``out_shape``/``out_dtype`` say (nothing is inferred): as MindSpore,
        their absence is a TypeError of the call, not of the construction."""
        prefix = f"For 'Custom', 'func_type': {self.func_type}, 'func': {self.func}"
        if not isinstance(shapes, (tuple, list)):
            raise TypeError(f"{prefix}, 'out_shape' must be one of [tuple, list, function], but got {type(shapes)}")
        if not isinstance(dtypes, (mstype.Type, tuple, list)):
            raise TypeError(f"{prefix}, 'out_dtype' must be one of [mindspore.dtype, tuple, list, function], "
                            f"but got {type(dtypes)}")

    def _host(self, specs, multi):
        # a DSL kernel may write into its inputs (in-place outputs): give it writable copies
        prepare = np.array if self.is_kernel else np.asarray

        def call(*arrays):
            result = self.func(*[prepare(array) for array in arrays])
            results = result if multi else (result,)
            return tuple(np.asarray(value, spec.dtype).reshape(spec.shape) for value, spec in zip(results, specs))

        return call

    def _traced_gradient(self, values, cotangents):
        """The gradient MindSpore derives for a hybrid kernel: here, the VJP of its DSL traced with JAX,
        compiled once per signature (eagerly, op-by-op dispatch of an unrolled kernel would dominate)."""
        if self._gradient is None:
            self._gradient = jax.jit(functools.partial(_kernel_vjp, self.func.__wrapped__), static_argnums=2)
        floating = tuple(jax.numpy.issubdtype(v.dtype, jax.numpy.inexact) for v in values)
        grads = iter(self._gradient(tuple(v for v, f in zip(values, floating) if f),
                                    tuple(v for v, f in zip(values, floating) if not f), floating, tuple(cotangents)))
        return tuple(next(grads) if is_float else _cotangent(None, v) for v, is_float in zip(values, floating))

    def __call__(self, *inputs):
        arrays = [unwrap(value) if isinstance(value, Tensor) else np.asarray(value) for value in inputs]
        specs, multi = self._outputs(arrays)
        host = self._host(specs, multi)

        @jax.custom_vjp
        def run(*values):
            return jax.pure_callback(host, tuple(specs), *values)

        def forward(*values):
            outputs = run(*values)
            return outputs, (values, outputs)

        def backward(residual, cotangents):
            if self.bprop is None and self.func_type == "hybrid":
                return self._traced_gradient(residual[0], cotangents)
            if self.bprop is None:
                raise TypeError("ops.Custom: this pyfunc operator has no bprop, so it cannot be differentiated; "
                                "pass bprop=function(*inputs, out, dout) returning one gradient per input.")
            values, outputs = residual
            out = tuple(wrap(o) for o in outputs) if multi else wrap(outputs[0])
            dout = tuple(wrap(c) for c in cotangents) if multi else wrap(cotangents[0])
            grads = self.bprop(*[wrap(v) for v in values], out, dout)
            grads = grads if isinstance(grads, (tuple, list)) else (grads,)
            return tuple(_cotangent(unwrap(g), v) for g, v in zip(grads, values))

        run.defvjp(forward, backward)
        outputs = run(*arrays)
        return tuple(wrap(o) for o in outputs) if multi else wrap(outputs[0])


def _cotangent(grad, value):
    """A cotangent for ``value`` in ``custom_vjp``: its dtype, or float0 zeros for an integer input."""
    if not jax.numpy.issubdtype(value.dtype, jax.numpy.inexact):
        return np.zeros(value.shape, jax.dtypes.float0)
    return grad.astype(value.dtype)


def _kernel_vjp(dsl_function, differentiable, constants, floating, cotangents):
    """VJP of a traced DSL function with respect to its floating inputs (the others held constant)."""
    def forward(*inputs):
        inputs, held = iter(inputs), iter(constants)
        return hybrid_kernel.run_traced(dsl_function, *[next(inputs) if f else next(held) for f in floating])

    _, pullback = jax.vjp(forward, *differentiable)
    return pullback(cotangents)
