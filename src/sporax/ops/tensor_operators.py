"""Tensor's Python operators (``+``, ``-``, ``@``, ``==``, ``&``, ...) onto the functional ops.

Each operator accepts a Tensor, a Python number, a NumPy array or a list (lists become Tensors
as in MindSpore); a string or None operand raises MindSpore 2.10's TypeError ('Failed calling Add with ...',
``_refused``); other operands give ``NotImplemented`` so Python raises its usual TypeError.
Augmented assignment (``x += y``) makes a new Tensor in PyNative, as in MindSpore (an alias of
``x`` keeps the old value; ``x.add_(y)`` is the in-place form); in user code that GRAPH_MODE or
``ms.jit`` compiles, ``+= -= *= /= //= %=`` update ``x`` in place, as MindSpore's graph does (see
``_augmented``); ``**= @= &= |= ^=`` never do.
``x == None`` is False, as in MindSpore.
"""
import sys

import jax
import numpy as np

from sporax.core import jax_private
from sporax.core.tensor import Tensor
from sporax.ops.tensor_support import functional
from sporax.state.arguments import note_in_place
from sporax.core.parameter import Parameter
from sporax.state.assign import write
from sporax.state.scope import (in_compiled_trace, is_branch_input, may_update_in_place, note_parameter_result,
                                owned_by_active_scope, parameter_behind)

wrap = Tensor._wrap
_FAST = (Tensor, int, float, bool)


# How MindSpore 2.10's graph names an operator refused for a string or None operand: 'prim' is
# 'Add()(input=Tensor, other=string)', 'method' 'add(None)', 'function' 'less(Tensor, None)'.
_REFUSALS = {
    ("add", str): ("prim", "Add"), ("add", None): ("method", "add"),
    ("sub", str): ("prim", "Sub"), ("sub", None): ("method", "sub"),
    ("mul", str): ("prim", "Mul"), ("mul", None): ("method", "mul"),
    ("floor_divide", str): ("prim", "FloorDiv"), ("div", str): ("method", "div"), ("div", None): ("method", "div"),
    ("pow", str): ("method", "pow"), ("pow", None): ("method", "pow"), ("remainder", None): ("method", "__mod__"),
    ("lt", str): ("function", "less"), ("lt", None): ("function", "less"),
    ("gt", None): ("prim", "Greater"), ("ge", None): ("prim", "GreaterEqual"),
}


def _refused(op_name, value):
    """MindSpore 2.10's TypeError for operator ``op_name`` with the string or None operand ``value``."""
    kind = str if isinstance(value, str) else None
    form, name = _REFUSALS.get((op_name, kind), ("prim", op_name))
    shown = "string" if kind is str else "None"
    call = {"prim": f"{name}()(input=Tensor, other={shown})", "method": f"{name}({shown})",
            "function": f"{name}(Tensor, {shown})"}[form]
    return TypeError(f'Failed calling {name} with "{call}".\nA Tensor operator takes Tensors and numbers, not '
                     f"{type(value).__name__} {value!r:.40}.")


def _operand(value, op_name=None):
    """A value an operator can pass to an op, or NotImplemented; a string or None raises ``_refused``."""
    if value is None or isinstance(value, str):
        raise _refused(op_name, value)
    if isinstance(value, (list, tuple)):
        try:
            return Tensor(value)
        except (TypeError, ValueError):
            return NotImplemented
    if isinstance(value, (np.ndarray, np.generic, complex, jax.Array, jax.core.Tracer)):
        return value
    return NotImplemented


def _binary(op_name):
    face = getattr(functional, op_name)
    # MindSpore's operators run the extended Primitive where one takes more dtypes (``Op.primitive_check``)
    face = face.entry.method_face if hasattr(face, "entry") else face

    def forward(self, other):
        if not isinstance(other, _FAST):
            other = _operand(other, op_name)
            if other is NotImplemented:
                return NotImplemented
        return face(self, other)

    def reflected(self, other):
        if not isinstance(other, _FAST):
            other = _operand(other, op_name)
            if other is NotImplemented:
                return NotImplemented
        return face(other, self)

    return forward, reflected


def _augmented(forward):
    """``x op= y``: in user code being compiled (GRAPH_MODE, ``ms.jit``) MindSpore's graph updates the
    Tensor object ``x`` in place, result cast to ``x``'s dtype: an alias of it and the caller's input
    Tensor see the new value (the compiled call writes changed input Tensors back); after a compiled
    join only a Tensor updated before it (``sporax.state.scope.note_control_flow_join``). Elsewhere, and
    in sporax's own layers (functional code), it is ``x = x op y``."""
    def augmented(self, other):
        result = forward(self, other)
        if result is NotImplemented or not in_compiled_trace():
            return result
        parameter = self if isinstance(self, Parameter) else parameter_behind(self)
        if parameter is not None and owned_by_active_scope(parameter) and result.shape == parameter.shape:
            # ``out = self.w; out *= x``: MindSpore's graph stores into the Parameter itself; the name then
            # holds the value (a returned Parameter would be state, not a result its gradient reaches), and
            # a further ``out += y`` stores again
            if not sys._getframe(1).f_globals.get("__name__", "").startswith("sporax."):
                write(parameter, result, "augmented assignment")
                note_parameter_result(result, parameter)
            return result
        if type(self) is not Tensor:
            return result
        # Only a value of the running trace (or a variable a converted branch got) is rebound: a Tensor from
        # outside a loop body keeps its value there (the loop's carry holds the update), a constant attribute
        # is never touched.
        if not (jax_private.of_current_trace(self._array) or is_branch_input(self)) or result.shape != self.shape:
            return result
        if sys._getframe(1).f_globals.get("__name__", "").startswith("sporax.") or not may_update_in_place(self):
            return result
        array = result._array
        if array.dtype != self._array.dtype:
            array = array.astype(self._array.dtype)
        self._array = array
        note_in_place(self)
        return self

    return augmented


def _truediv(self, other):
    if not isinstance(other, _FAST):
        other = _operand(other, "div")
        if other is NotImplemented:
            return NotImplemented
    return functional.div(self, other)


def _rtruediv(self, other):
    if not isinstance(other, _FAST):
        other = _operand(other, "div")
        if other is NotImplemented:
            return NotImplemented
    return functional.div(other, self)


_COMPARABLE = (Tensor, int, float, bool, complex, np.generic, jax.Array, jax.core.Tracer)


def _comparison(op_name, unlike):
    """``==``/``!=`` give a Python bool for operands that are not tensors or numbers (MindSpore)."""
    def compare(self, other):
        if not isinstance(other, _COMPARABLE):
            return unlike
        return getattr(functional, op_name)(self, other)
    return compare


def _ordering(op_name):
    def compare(self, other):
        if not isinstance(other, _FAST):
            other = _operand(other, op_name)
            if other is NotImplemented:
                return NotImplemented
        return getattr(functional, op_name)(self, other)
    return compare


def _neg(self):
    return functional.neg(self)


def _pos(self):
    return wrap(self._value)


def _abs(self):
    return functional.abs(self)


def _invert(self):
    """``~x``: MindSpore gives the logical NOT (a Bool tensor) for every dtype."""
    return functional.logical_not(self)


# The operators whose augmented form MindSpore 2.10's graph stores into ``x``; ``x **= y``, ``x @= y``,
# ``x &= y``, ``x |= y`` and ``x ^= y`` rebind the name only (the caller's Tensor, an alias and a
# Parameter keep their values), in compiled code as in PyNative.
_IN_PLACE = {"add", "sub", "mul", "floordiv", "mod"}


def install():
    """Set the operator methods on ``Tensor``."""
    table = {"add": "add", "sub": "sub", "mul": "mul", "floordiv": "floor_divide", "mod": "remainder",
             "pow": "pow", "matmul": "matmul", "and": "bitwise_and", "or": "bitwise_or", "xor": "bitwise_xor"}
    for name, op_name in table.items():
        forward, reflected = _binary(op_name)
        setattr(Tensor, f"__{name}__", forward)
        setattr(Tensor, f"__r{name}__", reflected)
        setattr(Tensor, f"__i{name}__", _augmented(forward) if name in _IN_PLACE else forward)
    Tensor.__truediv__ = _truediv
    Tensor.__itruediv__ = _augmented(_truediv)
    Tensor.__rtruediv__ = _rtruediv
    Tensor.__eq__ = _comparison("equal", False)
    Tensor.__ne__ = _comparison("not_equal", True)
    Tensor.__lt__ = _ordering("lt")
    Tensor.__le__ = _ordering("le")
    Tensor.__gt__ = _ordering("gt")
    Tensor.__ge__ = _ordering("ge")
    Tensor.__neg__ = _neg
    Tensor.__pos__ = _pos
    Tensor.__abs__ = _abs
    Tensor.__invert__ = _invert
