"""``ops.stop_gradient``, ``ops.depend`` and their Primitive classes.

``depend(value, expr)`` returns ``value``: sporax traces Python in program order, so the side
effects of ``expr`` (an optimizer update) already happened; nothing has to be ordered (DESIGN 2.5).
"""
import jax

from sporax.core.tensor import Tensor
from sporax.ops.float_status import FloatStatusBuffer, watch
from sporax.ops.primitive import Primitive


def _stop(value):
    if isinstance(value, Tensor):
        return Tensor._wrap(jax.lax.stop_gradient(value._value))
    if isinstance(value, (tuple, list)):
        return type(value)(_stop(item) for item in value)
    if isinstance(value, jax.Array):
        return jax.lax.stop_gradient(value)
    return value


def stop_gradient(value):
    """The value itself, with no gradient flowing back through it.

    Args:
        value (Union[Tensor, tuple[Tensor]]): the value(s) to stop.

    Returns:
        The same structure, cut from differentiation.
    """
    return _stop(value)


def depend(value, expr):
    """Return ``value``; ``expr`` is evaluated first (sporax runs Python in program order).

    Args:
        value (Tensor): returned unchanged.
        expr (Any): an expression that must be evaluated before ``value`` is used.
    """
    if isinstance(value, FloatStatusBuffer):
        watch(value, expr)   # a float-status buffer checks what it depends on (ops/float_status.py)
    return value


class Depend(Primitive):
    """``ops.Depend()(value, expr)``: returns ``value`` after ``expr`` is evaluated.

    Inputs:
        - **value** (Tensor) -- returned.
        - **expr** (Any) -- evaluated first.

    Outputs:
        ``value``.
    """

    def __init__(self):
        super().__init__("Depend")

    def __call__(self, value, expr):
        return depend(value, expr)


class StopGradient(Primitive):
    """``ops.StopGradient()(value)``: the value with no gradient flowing back through it.

    Inputs:
        - **value** (Tensor) -- the value.

    Outputs:
        Tensor, the same value.
    """

    def __init__(self):
        super().__init__("StopGradient")

    def __call__(self, value):
        return _stop(value)
