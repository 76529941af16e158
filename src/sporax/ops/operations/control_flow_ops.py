"""Control-flow and Python-callback Primitives: ``WhileLoop``, ``Scan``, ``ForiLoop``, ``PyFunc``, ``Morph``,
``Assert``.

``WhileLoop`` and ``Scan`` run as Python loops while their values are concrete (PyNative, or a
loop whose condition does not depend on traced values) and become ``lax.while_loop``/``lax.scan``
when the loop condition or the scanned values are being traced. ``PyFunc`` calls a Python function
on NumPy arrays, through ``jax.pure_callback`` inside compiled code.

Example:
    >>> from sporax import Tensor, ops
    >>> ops.WhileLoop()(lambda v: v < 10, lambda v: v * 2, Tensor(1)).asnumpy().tolist()
    16
"""
import numbers

import jax
import jax.numpy as jnp
import numpy as np

from sporax.autodiff.bprop import call_with_bprop
from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor
from sporax.ops._dispatch import describe
from sporax.ops.primitive import Primitive, prim_attr_register


def _concrete_bool(value):
    array = value._value if isinstance(value, Tensor) else value
    if isinstance(array, jax.core.Tracer):
        return None
    return bool(np.asarray(array))


class WhileLoop(Primitive):
    """``while cond_func(val): val = loop_func(val)``; returns the final ``val``.

    Inputs:
        - **cond_func** (Callable) - ``val -> bool``. **loop_func** (Callable) - ``val -> val`` (same structure).
        - **init_val** - the initial value (Tensor, number or a tuple of them).
    """

    def __call__(self, cond_func, loop_func, init_val):
        if not callable(cond_func) or not callable(loop_func):
            raise TypeError("For 'WhileLoop', 'cond_func' and 'loop_func' must be callable.")
        value = init_val
        while True:
            condition = cond_func(value)
            flag = _concrete_bool(condition)
            if flag is None:
                return self._traced(cond_func, loop_func, value)
            if not flag:
                return value
            value = loop_func(value)

    @staticmethod
    def _traced(cond_func, loop_func, value):
        from sporax.autodiff.transforms import _array_function, to_arrays, to_tensors

        condition = _array_function(cond_func)
        body = _array_function(loop_func)
        return to_tensors(jax.lax.while_loop(lambda v: jnp.asarray(condition(v), bool).reshape(()), body,
                                             to_arrays(value)))


class Scan(Primitive):
    """``carry, y = loop_func(carry, x)`` over the elements ``x`` of ``xs``; returns ``(carry, ys)``.

    Inputs:
        - **loop_func** (Callable). **init** - the initial carry. **xs** (Union[Tensor, tuple, list, None]) - scanned
          along the first axis (None: ``length`` steps with ``x = None``). **length** (int). **unroll** (int).

    Outputs:
        ``(carry, ys)``: ``ys`` stacks the per-step outputs (a list when they are not Tensors).
    """

    def __call__(self, loop_func, init, xs, length=None, unroll=1):
        if not callable(loop_func):
            raise TypeError("For 'Scan', 'loop_func' must be callable.")
        if isinstance(xs, Tensor):
            steps, items = xs.shape[0], [xs[i] for i in range(xs.shape[0])]
        elif xs is None:
            if length is None:
                raise ValueError("For 'Scan', 'length' is required when 'xs' is None.")
            steps, items = length, [None] * length
        else:
            items = list(xs)
            steps = len(items)
        if length is not None and length != steps:
            raise ValueError(f"For 'Scan', 'length' {length} does not match the {steps} elements of 'xs'.")
        carry, outputs = init, []
        for item in items:
            carry, output = loop_func(carry, item)
            outputs.append(output)
        if outputs and all(isinstance(o, Tensor) for o in outputs):
            return carry, Tensor._wrap(jnp.stack([o._value for o in outputs]))
        return carry, outputs


class PyFunc(Primitive):
    """Run the Python function ``fn`` on NumPy arrays; its outputs become Tensors of ``out_types``/``out_shapes``.

    Args:
        fn (Callable): NumPy arrays in, a NumPy array or a tuple of them out.
        in_types, in_shapes, out_types, out_shapes (list): the declared input and output types and shapes.
        stateful (bool): whether ``fn`` has side effects. Default: True.

    Inputs:
        - **input_x** (Tensor) - one or more.

    Outputs:
        A tuple of Tensors, one per ``out_types``.
    """

    @prim_attr_register
    def __init__(self, fn, in_types, in_shapes, out_types, out_shapes, stateful=True):
        if not callable(fn):
            raise TypeError(f"For 'PyFunc', 'fn' must be callable, but got {type(fn).__name__}.")
        if len(out_types) != len(out_shapes) or len(in_types) != len(in_shapes):
            raise ValueError("For 'PyFunc', the types and shapes lists must have the same lengths.")
        self.fn = fn
        self.out_dtypes = [np.dtype(mstype.to_numpy_dtype(mstype.normalize(t))) for t in out_types]
        self.out_shapes = [tuple(s) for s in out_shapes]

    def _host(self, *arrays):
        results = self.fn(*[np.asarray(a) for a in arrays])
        results = results if isinstance(results, (tuple, list)) else (results,)
        if len(results) != len(self.out_dtypes):
            raise ValueError(f"For 'PyFunc', 'fn' returned {len(results)} outputs but {len(self.out_dtypes)} are "
                             "declared.")
        return tuple(np.asarray(r, d).reshape(s) for r, d, s in zip(results, self.out_dtypes, self.out_shapes))

    def __call__(self, *inputs):
        arrays = [i._value if isinstance(i, Tensor) else jnp.asarray(i) for i in inputs]
        if any(isinstance(a, jax.core.Tracer) for a in arrays):
            specs = tuple(jax.ShapeDtypeStruct(s, d) for s, d in zip(self.out_shapes, self.out_dtypes))
            results = jax.pure_callback(self._host, specs, *arrays)
        else:
            results = self._host(*arrays)
        return tuple(Tensor._wrap(jnp.asarray(r)) for r in results)


class Morph(Primitive):
    """Wrap a user function as a Primitive: calling it runs ``fn`` (``infer_shape``/``infer_dtype`` describe its
    outputs for graph compilation; sporax traces ``fn`` itself, so they are kept but not needed).

    Args:
        fn (Callable). infer_shape, infer_dtype (Callable). bprop_fn (Callable): a custom backward,
            ``bprop_fn(*inputs, out, dout)`` returning one gradient per input, as a Cell's ``bprop``. Default: None.

    Inputs:
        - the arguments of ``fn``.
    """

    def __init__(self, fn, infer_shape, infer_dtype, bprop_fn=None):
        super().__init__("Morph")
        if not callable(fn):
            raise TypeError(f"For 'Morph', 'fn' must be callable, but got {type(fn).__name__}.")
        if bprop_fn is not None and not callable(bprop_fn):
            raise TypeError(f"For 'Morph', 'bprop_fn' must be callable or None, but got {type(bprop_fn).__name__}.")
        self.fn, self.infer_shape, self.infer_dtype = fn, infer_shape, infer_dtype
        # call_with_bprop calls ``self.bprop(*inputs, out, dout)``, a Cell's bprop protocol, which bprop_fn follows.
        self.bprop = bprop_fn

    def __call__(self, *args):
        if self.bprop is None:
            return self.fn(*args)
        return call_with_bprop(self, args, {}, construct=self.fn)


class Assert(Primitive):
    """Raise a RuntimeError showing the first ``summarize`` values of each ``input_data`` tensor when
    ``condition`` is False.

    Args:
        summarize (int): how many values of each input to show. Default: 3.
    """

    @prim_attr_register
    def __init__(self, summarize=3):
        if isinstance(summarize, bool) or not isinstance(summarize, numbers.Integral) or summarize < 1:
            raise ValueError(f"For 'Assert', 'summarize' must be a positive int, but got {summarize!r}.")
        self.summarize = summarize

    def __call__(self, condition, input_data):
        value = condition.asnumpy() if isinstance(condition, Tensor) else np.asarray(condition)
        if value.dtype != np.bool_ or value.size != 1:
            raise TypeError(f"For '{self.name}', 'condition' must be a bool or a one-element Bool Tensor, but got "
                            f"{describe(condition)}.")
        if not bool(value.reshape(())):
            shown = [np.asarray(item.asnumpy() if isinstance(item, Tensor) else item).reshape(-1)[:self.summarize]
                     for item in input_data]
            raise RuntimeError(f"For '{self.name}', the condition is false. Input data: "
                               f"{', '.join(str(values) for values in shown)}")


class ForiLoop(Primitive):
    """``for i in range(lower, upper): val = loop_func(i, val)``; returns the last ``val``.

    Inputs:
        - **lower**, **upper** (int): the range. **loop_func** (function): ``(i, val) -> val``.
        - **init_val**: the initial value (Tensors or nested tuples of them).
    """

    def __call__(self, lower, upper, loop_func, init_val, unroll=True):
        start = int(lower.asnumpy()) if isinstance(lower, Tensor) else int(lower)
        stop = int(upper.asnumpy()) if isinstance(upper, Tensor) else int(upper)
        value = init_val
        for index in range(start, stop):
            value = loop_func(index, value)
        return value
