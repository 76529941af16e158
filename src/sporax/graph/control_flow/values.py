"""Python values crossing a converted branch or loop: undefined names, and their array form.

A branch or loop body returns the values of the variables it assigns: Tensors, arrays, Python
numbers, tuples/lists/dicts of them, and anything else (a Cell, a string, None) that must come
out the same. ``flatten`` splits such a value into its array leaves and a static skeleton;
``Plan`` (built by ``merge`` from two branches' abstract results) says which leaves become one
XLA value and with which shape and dtype, and rebuilds the Python value afterwards.
"""
import linecache
import weakref

import jax
import jax.numpy as jnp
import numpy as np

from sporax.core import context
from sporax.graph.control_flow.analysis import HELPER_PREFIX
from sporax.core.dtype import from_numpy_dtype
from sporax.core.tensor import Tensor
from sporax.core.parameter import Parameter
from sporax.state.arguments import MutableScalar
from sporax.state.binding import detach_outputs
from sporax.state.fallback import UntraceableError


class ControlFlowFallback(UntraceableError):
    """Converted control flow that cannot be compiled (run eagerly instead: see ``state.fallback``)."""


JOIN_FAILED = "Cannot join the return values of different branches, perhaps you need to make them equal."


def join_failure(detail, sources):
    """MindSpore's TypeError for two values a tensor condition chooses between that cannot be one value.

    ``detail`` is MindSpore's 'Type Join Failed' reason; ``sources`` the user's ``(where, source line)``
    pairs of the two values, so the message shows them as MindSpore's does.
    """
    lines = "".join(f"\n  {where}: {text}" for where, text in sources)
    return TypeError(f"{JOIN_FAILED}\nType Join Failed: {detail}\nThe values come from:{lines}\nA value chosen "
                     "by a tensor condition in GRAPH_MODE or ms.jit must be a Tensor of one dtype in both cases: "
                     "cast one (.astype), wrap a number in a Tensor of that dtype, or choose with ops.select.")


class Undefined:
    """The value of a local name not assigned yet; any use raises UnboundLocalError naming it (as
    MindSpore's graph compiler does)."""

    __slots__ = ("name", "reason", "error")

    def __init__(self, name, reason=None, error=UnboundLocalError):
        self.name = name
        self.reason = reason
        self.error = error

    def _fail(self, *args, **kwargs):
        reason = self.reason or f"The local variable '{self.name}' is used before it is assigned."
        raise self.error(reason)

    def __getattr__(self, attribute):
        if attribute.startswith("_"):
            raise AttributeError(attribute)
        self._fail()

    __bool__ = __call__ = __iter__ = __len__ = __getitem__ = __index__ = __int__ = __float__ = _fail
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = __rtruediv__ = _fail
    __lt__ = __le__ = __gt__ = __ge__ = __neg__ = __matmul__ = __pow__ = __floordiv__ = __mod__ = _fail

    def __repr__(self):
        return f"<undefined {self.name}>"


class ReturnPending(Undefined):
    """The return value before a ``return`` ran: stands for zeros where another path returned."""

    __slots__ = ()


RETURN_PENDING = ReturnPending("<return value>")

_NUMBERS = (bool, int, float, np.bool_, np.number)


# Tensors that stand for a Python number a tensor condition chose or a traced loop carried (id -> Tensor):
# MindSpore's graph keeps such a variable a number, so ``a is 3`` compares values (runtime.identity).
_NUMBER_TENSORS = weakref.WeakValueDictionary()


def number_tensor(array):
    """A Tensor of ``array`` that stands for a Python number (see ``stands_for_number``): a ``MutableScalar``, so
    a compiled function returns it as a Python number, as MindSpore's graph keeps such a variable a scalar."""
    tensor = MutableScalar.of(array)
    _NUMBER_TENSORS[id(tensor)] = tensor
    return tensor


def number_dtype(value):
    """The dtype of a Python number in MindSpore's graph: a float is a float32 scalar (``control_flow.scalars``)."""
    return jnp.float32 if type(value) in (float, np.float64) else jnp.result_type(value)


def stands_for_number(value):
    """True for a Tensor made by ``number_tensor``."""
    return isinstance(value, Tensor) and _NUMBER_TENSORS.get(id(value)) is value


def is_array(leaf):
    return isinstance(leaf, (jax.Array, jax.core.Tracer, np.ndarray, jax.ShapeDtypeStruct))


def is_number(leaf):
    return isinstance(leaf, _NUMBERS)


def flatten(value):
    """``(leaves, treedef)`` of ``value`` with Parameters as Tensors."""
    return jax.tree_util.tree_flatten(detach_outputs(value))


def abstract(leaf):
    if isinstance(leaf, jax.ShapeDtypeStruct):
        return leaf
    aval = jax.typeof(leaf)
    return jax.ShapeDtypeStruct(aval.shape, aval.dtype, weak_type=getattr(aval, "weak_type", False))


def abstract_value(value):
    """``value`` with its array leaves replaced by ShapeDtypeStructs (valid after its trace ended)."""
    leaves, treedef = flatten(value)
    return jax.tree_util.tree_unflatten(treedef, [abstract(leaf) if is_array(leaf) else leaf for leaf in leaves])


def zeros_like(value):
    """Zeros in the structure of an abstract value: Tensors of zeros, numbers 0."""
    leaves, treedef = flatten(value)
    zeros = [jnp.zeros(leaf.shape, leaf.dtype) if is_array(leaf) else type(leaf)(0) if is_number(leaf) else leaf
             for leaf in leaves]
    return jax.tree_util.tree_unflatten(treedef, zeros)


def fresh(value):
    """A copy of the Tensor objects in ``value`` (a branch may rebind one in place: ``x[i] = v``); a Parameter
    stays itself: MindSpore's branch updates it in place (``if c: x += 5`` on a Parameter ``x``)."""
    if isinstance(value, Parameter):
        return value
    if isinstance(value, Tensor):
        return Tensor._wrap(value._value)
    if isinstance(value, tuple) and not hasattr(value, "_fields"):
        return tuple(fresh(item) for item in value)
    if isinstance(value, list):
        return [fresh(item) for item in value]
    return value


def describe(value):
    if isinstance(value, Tensor):
        array = value._array
        return f"a Tensor of shape {tuple(array.shape)} and dtype {array.dtype}"
    if isinstance(value, Undefined):
        return "undefined"
    return f"{type(value).__name__} {value!r}" if is_number(value) or value is None else type(value).__name__


class Plan:
    """How one merged variable's leaves map to XLA values (see the module doc)."""

    __slots__ = ("treedef", "kinds", "static", "avals", "tensor")

    def emit(self, value):
        """The XLA values of ``value`` (one branch's result) in the merged dtypes."""
        if isinstance(value, Undefined):  # no return yet, or unassigned in a branch that returned
            return [jnp.zeros(aval.shape, aval.dtype) for aval in self.avals if aval is not None]
        leaves, _ = flatten(value)
        arrays = []
        for leaf, aval in zip(leaves, self.avals):
            if aval is not None:
                arrays.append(jnp.asarray(leaf, aval.dtype).reshape(aval.shape))
        return arrays

    def build(self, arrays):
        """The Python value with the next merged XLA values from the iterator ``arrays``."""
        leaves = []
        for static, aval, tensor in zip(self.static, self.avals, self.tensor):
            if aval is None:
                leaves.append(static)
            else:
                array = next(arrays)
                leaves.append(number_tensor(array) if tensor else array)
        return jax.tree_util.tree_unflatten(self.treedef, leaves)


def _sources(where, name):
    """``(where, source line)`` of the two branches' last assignments of ``name`` (``where``: the file and
    the pair of line numbers per name that the converter recorded, or None)."""
    if not where:
        return []
    filename, lines = where
    pair = lines.get(name) or ()
    return [(f"{filename}, line {number}", linecache.getline(filename, number).strip()) for number in pair if number]


def merge(first, second, name, construct, line, where=None):
    """The Plan for a variable that is ``first`` after one branch and ``second`` after the other
    (abstract values: array leaves are ShapeDtypeStructs). None when it stays undefined.

    A Tensor in one branch and a Python number in the other raises MindSpore's join TypeError (``where``:
    the lines of each branch's value, for the message), as do Tensors of two float dtypes in the user's code.
    Other Tensors of two dtypes are promoted, where MindSpore raises: a differentiated integer computation
    carries float values inside sporax's gradient."""
    if isinstance(first, ReturnPending) and isinstance(second, ReturnPending):
        return None
    if isinstance(first, ReturnPending):
        first = second
    if isinstance(second, ReturnPending):
        second = first
    for one, other, which in ((first, second, "true"), (second, first, "false")):
        if isinstance(one, Undefined) and not isinstance(other, Undefined):
            defined = "false" if which == "true" else "true"
            return Undefined(name, f"The local variable '{name}' is not defined in {which} branch, but defined in "
                                   f"{defined} branch (the {construct} at line {line} depends on a tensor value). "
                                   f"Assign it in both branches, or before the {construct}, to use it afterwards.")
        if isinstance(one, Undefined):
            return None
    first_leaves, first_tree = flatten(_numbers_as_tensors(first))
    second_leaves, second_tree = flatten(_numbers_as_tensors(second))
    if first_tree != second_tree:
        if isinstance(first, (tuple, list, dict)) and isinstance(second, (tuple, list, dict)):
            # sequences of other lengths, dicts of other keys: MindSpore builds them at run time (JIT fallback)
            raise ControlFlowFallback(f"The {construct} at line {line} gives '{name}' containers of different "
                                      "structure in its branches; only Python can hold either.")
        if (first is None or second is None) and isinstance(first if second is None else second, Tensor) \
                and not context.jit_syntax_strict():
            # None or a Tensor: MindSpore's graph (below STRICT) keeps the one its condition picks at run time
            raise ControlFlowFallback(f"The {construct} at line {line} gives '{name}' None in one branch and a "
                                      "Tensor in the other; only Python can hold either.")
        raise join_failure(f"in the {construct} at line {line}, the variable '{name}' is {describe(first)} in one "
                           f"branch and {describe(second)} in the other: a value chosen by a tensor condition must "
                           "have the same type and structure in both branches.", _sources(where, name))
    # Join rules for the user's `if` statements (``where`` given) only: not for the converter's own flags
    # (break/continue/return) nor for the guards the runtime adds around a loop body after a traced break.
    user_value = where is not None and (not name.startswith(HELPER_PREFIX) or name == HELPER_PREFIX + "retval") \
        and where[1].get(name, ()) is not None
    plan = Plan()
    raw_first, plan.treedef = flatten(first)
    raw_second, _ = flatten(second)
    plan.static, plan.avals, plan.tensor = [], [], []
    for a, b, raw_a, raw_b in zip(first_leaves, second_leaves, raw_first, raw_second):
        if is_array(a) and is_array(b):
            if is_number(raw_a) and is_number(raw_b) and type(raw_a) is type(raw_b) and raw_a == raw_b:
                plan.static.append(raw_a)
                plan.avals.append(None)
                plan.tensor.append(False)
                continue
            if is_number(raw_a) != is_number(raw_b) and user_value:
                raise join_failure(f"Abstract type AbstractTensor cannot join with AbstractScalar: in the {construct} "
                                   f"at line {line}, the variable '{name}' is {describe(first)} in one branch and "
                                   f"{describe(second)} in the other.", _sources(where, name))
            a, b = abstract(a), abstract(b)
            if a.shape != b.shape:
                # MindSpore joins the shapes into a dynamic one; one lax.cond cannot: run eagerly.
                raise ControlFlowFallback(f"Shape Join Failed: in the {construct} at line {line}, the variable "
                                          f"'{name}' has shape {a.shape} in one branch and {b.shape} in the other; "
                                          "a branch compiled into one program needs the same shape in both.")
            if user_value and a.dtype != b.dtype and all(jnp.issubdtype(x.dtype, jnp.floating) for x in (a, b)):
                # two float dtypes cannot be one value in MindSpore's graph (integers are promoted below)
                raise join_failure(f"dtype1 = {from_numpy_dtype(a.dtype)}, dtype2 = {from_numpy_dtype(b.dtype)}.",
                                   _sources(where, name))
            dtype = jnp.result_type(a, b)
            plan.static.append(None)
            plan.avals.append(jax.ShapeDtypeStruct(a.shape, dtype))
            plan.tensor.append(is_number(raw_a))  # a Python number chosen by a tensor becomes a Tensor
        elif a is b or (type(a) is type(b) and plain_equal(a, b)):
            plan.static.append(a)
            plan.avals.append(None)
            plan.tensor.append(False)
        else:
            raise ControlFlowFallback(f"In the {construct} at line {line}, the variable '{name}' is {describe(a)} in "
                                      f"one branch and {describe(b)} in the other: only numbers and Tensors can be "
                                      "chosen by a tensor condition inside one compiled program.")
    return plan


def plain_equal(a, b):
    """``a == b`` as one bool; False for objects whose equality is not a plain truth value."""
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001 - objects without a plain equality are different
        return False


def _numbers_as_tensors(value):
    """Python numbers as abstract scalar Tensors, so two branches' structures can be compared."""
    if is_number(value):
        return Tensor._wrap(jax.ShapeDtypeStruct((), number_dtype(value)))
    # a number a tensor chose (a MutableScalar) compares as the plain Tensor it is there
    if isinstance(value, Tensor) and (type(value) is MutableScalar or
                                      not isinstance(value._array, jax.ShapeDtypeStruct)):
        return Tensor._wrap(abstract(value._array))
    if isinstance(value, tuple) and not hasattr(value, "_fields"):
        return tuple(_numbers_as_tensors(item) for item in value)
    if isinstance(value, tuple):
        return type(value)(*[_numbers_as_tensors(item) for item in value])
    if isinstance(value, list):
        return [_numbers_as_tensors(item) for item in value]
    if isinstance(value, dict):
        return {key: _numbers_as_tensors(item) for key, item in value.items()}
    return value


def unassigned(outputs, names, line, lines, known):
    """The values after the branch a known condition took: a local it leaves unassigned that the other branch
    assigns is MindSpore's UnboundLocalError when read (its parser builds both branches). ``lines``: per name, the
    lines of its last assignment in each branch (``transformer._branch_lines``), or None."""
    if not lines:
        return outputs
    taken, other = ("true", "false") if known else ("false", "true")
    outputs = list(outputs)
    for index, (name, pair) in enumerate(zip(names, lines)):
        value = outputs[index]
        if isinstance(value, Undefined) and not isinstance(value, ReturnPending) and pair and pair[known] > line:
            outputs[index] = Undefined(name, f"The local variable '{name}' is not defined in {taken} branch, but "
                                             f"defined in {other} branch. Assign it in both branches of the 'if' at "
                                             f"line {line}, or before it, to use it afterwards.")
    return tuple(outputs)
