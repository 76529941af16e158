"""``ops.Custom``: a user-defined operator. sporax runs ``func_type='pyfunc'`` — a Python function of
NumPy arrays — as a host callback inside any program (``jax.pure_callback``), with an optional
``bprop`` as its gradient (``jax.custom_vjp``). The compiled kinds (``'aot'``, ``'akg'``,
``'hybrid'``, ``'julia'``, ``'tbe'``...) name MindSpore kernels sporax cannot build.
"""
import jax
import numpy as np

from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor, unwrap, wrap
from sporax.ops.primitive import Primitive


def _is_multi(value):
    return isinstance(value, (tuple, list)) and value and isinstance(value[0], (tuple, list, mstype.Type))


class Custom(Primitive):
    """A user-defined operator; sporax supports ``func_type='pyfunc'``.

    Args:
        func (function): for ``'pyfunc'``, a Python function taking NumPy arrays and returning one array
            (or a tuple of arrays).
        out_shape (Union[function, list, tuple]): the output shape(s), or a function of the input shapes.
        out_dtype (Union[function, mindspore.dtype, tuple]): the output dtype(s), or a function of the
            input dtypes.
        func_type (str): only ``'pyfunc'``. Default: ``'pyfunc'``.
        bprop (function): ``bprop(*inputs, out, dout)`` returning one gradient per input. Default: ``None``.
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
        if func_type != "pyfunc":
            raise NotImplementedError(f"ops.Custom: func_type={func_type!r} builds a MindSpore kernel, which sporax "
                                      "cannot do; use func_type='pyfunc' (a Python function of NumPy arrays).")
        if not callable(func):
            raise TypeError(f"For 'Custom', 'func' must be callable, but got {type(func).__name__}.")
        if out_shape is None or out_dtype is None:
            raise ValueError("For 'Custom' with func_type='pyfunc', 'out_shape' and 'out_dtype' must be given.")
        self.func, self.out_shape, self.out_dtype = func, out_shape, out_dtype
        self.func_type, self.bprop, self.reg_info = func_type, bprop, reg_info

    def _outputs(self, arrays):
        shapes = self.out_shape
        if callable(shapes):
            shapes = shapes(*[list(array.shape) for array in arrays])
        dtypes = self.out_dtype
        if callable(dtypes):
            dtypes = dtypes(*[mstype.from_numpy_dtype(array.dtype) for array in arrays])
        multi = isinstance(dtypes, (tuple, list))
        if not multi:
            shapes, dtypes = [shapes], [dtypes]
        elif not _is_multi(shapes):
            raise ValueError(f"For 'Custom', out_dtype {dtypes!r} has several outputs but out_shape {shapes!r} "
                             "does not give a shape for each.")
        specs = [jax.ShapeDtypeStruct(tuple(int(d) for d in shape), mstype.to_numpy_dtype(dtype))
                 for shape, dtype in zip(shapes, dtypes)]
        return specs, multi

    def _host(self, specs, multi):
        def call(*arrays):
            result = self.func(*[np.asarray(array) for array in arrays])
            results = result if multi else (result,)
            return tuple(np.asarray(value, spec.dtype).reshape(spec.shape) for value, spec in zip(results, specs))

        return call

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
            if self.bprop is None:
                raise TypeError("ops.Custom: this pyfunc operator has no bprop, so it cannot be differentiated; "
                                "pass bprop=function(*inputs, out, dout) returning one gradient per input.")
            values, outputs = residual
            out = tuple(wrap(o) for o in outputs) if multi else wrap(outputs[0])
            dout = tuple(wrap(c) for c in cotangents) if multi else wrap(cotangents[0])
            grads = self.bprop(*[wrap(v) for v in values], out, dout)
            grads = grads if isinstance(grads, (tuple, list)) else (grads,)
            return tuple(unwrap(g).astype(v.dtype) for g, v in zip(grads, values))

        run.defvjp(forward, backward)
        outputs = run(*arrays)
        return tuple(wrap(o) for o in outputs) if multi else wrap(outputs[0])
