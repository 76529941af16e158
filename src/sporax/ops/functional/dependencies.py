"""``ops.stop_gradient`` and ``ops.depend``: a value cut from differentiation, a value ordered after another.

Both are op-table entries of the ``SCALAR`` rule (they take any value: a Tensor, a tuple of them, a Python
number), so their Primitives ``StopGradient`` and ``Depend`` are generated from them, here (``sporax.autodiff``
exports them and loads before ``sporax.ops.operations`` has). ``depend(value, expr)``
returns ``value``: sporax traces Python in program order, so the side effects of ``expr`` (an optimizer update)
already happened; nothing has to be ordered (DESIGN 2.5). In compiled code the result is a new Tensor, as MindSpore's
Depend node is (``return ops.depend(self.w, x)`` gives a Tensor, not the Parameter; PyNative: the object itself).

Example:
    >>> import numpy as np
    >>> import sporax as ms
    >>> from sporax import Tensor, ops
    >>> ms.grad(lambda x: (x * ops.stop_gradient(x)).sum())(Tensor(np.array([3.0], np.float32)))
    Tensor(shape=[1], dtype=Float32, value= [ 3.00000000e+00])
"""
import jax
import jax.numpy as jnp
import numpy as np

from sporax.core.tensor import Tensor
from sporax.ops.faces import primitive_class
from sporax.ops.float_status import FloatStatusBuffer, watch
from sporax.ops.op_table import SCALAR, op
from sporax.ops.samples import python_calls
from sporax.state.scope import in_compiled_trace


def _stop(value):
    if isinstance(value, Tensor):
        return Tensor._wrap(jax.lax.stop_gradient(value._value))
    if isinstance(value, (tuple, list)):
        return type(value)(_stop(item) for item in value)
    if isinstance(value, jax.Array):
        return jax.lax.stop_gradient(value)
    return value


@op(inputs="value", dtypes=SCALAR, primitive="StopGradient",
    samples=python_calls((np.array([1.5, -2.0], np.float32),), (3,)), reference=lambda value: value, grad_check=False)
def stop_gradient(value):
    """The value itself, with no gradient flowing back through it.

    Args:
        value (Union[Tensor, tuple[Tensor]]): the value(s) to stop.

    Returns:
        The same structure, cut from differentiation.
    """
    return _stop(value)


@op(inputs=("value", "expr"), dtypes=SCALAR, primitive="Depend",
    samples=python_calls((np.array([1.5, -2.0], np.float32), 1), ((1, 2), None)),
    reference=lambda value, expr: value, grad_check=False)
def depend(value, expr):
    """Return ``value``; ``expr`` is evaluated first (sporax runs Python in program order).

    Args:
        value (Tensor): returned unchanged.
        expr (Any): an expression that must be evaluated before ``value`` is used.
    """
    if isinstance(value, FloatStatusBuffer):
        watch(value, expr)   # a float-status buffer checks what it depends on (ops/float_status.py)
    elif isinstance(value, Tensor) and in_compiled_trace():
        # MindSpore 2.10's graph gives Depend's own output, a new Tensor, never the Parameter or argument object
        # (state/returned_inputs.py hands those back); a jaxpr copy is a new variable and lowers to nothing.
        return Tensor._wrap(jnp.array(value._value, copy=True))
    return value


StopGradient = primitive_class(stop_gradient.entry, __name__)
Depend = primitive_class(depend.entry, __name__)
