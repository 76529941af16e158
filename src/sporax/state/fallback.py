"""What a trace cannot do, and the documented fallback for it.

Python ``if``/``for``/``while`` on a tensor's value, ``int(tensor)``, ``tensor.asnumpy()``
inside a compiled function cannot be traced: the value does not exist yet. MindSpore users rely
on such code working, so sporax catches the error on the first trace, warns once naming the
function, and runs that function eagerly (op by op) for that call signature from then on.

``print`` of a tensor inside a trace is routed through ``jax.debug.callback`` so it prints the
real values each time the compiled program runs (as MindSpore's graph-mode print does).
"""
import builtins
import contextlib
import linecache
import os
import re
import sys
import threading
import traceback
import types
import warnings

import jax
import numpy as np

from sporax.core import jax_private
from sporax.core.context import GRAPH_MODE, LAX, STRICT, get_mode, jit_syntax_level
from sporax.core.tensor import Tensor
from sporax.core.tensor_print import tensor_graph_text
from sporax.state.scope import compiling_graph

_CONTROL_FLOW_ERRORS = (
    jax.errors.ConcretizationTypeError,
    jax.errors.TracerIntegerConversionError,
    jax.errors.TracerArrayConversionError,
)


class UntraceableError(RuntimeError):
    """Python that a compiler pass recognised as impossible to compile (the caller runs it eagerly)."""


class ExplainedFallback(UntraceableError):
    """A reason to run eagerly that is not tensor-dependent Python: its message is the whole explanation."""


class TracedPrintError(RuntimeError):
    """A formatted string of a value being compiled was printed where eager printing is expected."""


class EagerFallbackWarning(UserWarning):
    """A compiled function fell back to running eagerly (tensor-dependent Python control flow)."""


_TRACED_TEXT = "<traced: the value exists only when the compiled function runs>"


def is_untraceable(error):
    """True when ``error`` (or its cause) comes from reading a traced value in Python."""
    seen = 0
    while error is not None and seen < 8:
        if isinstance(error, _CONTROL_FLOW_ERRORS + (TracedPrintError, UntraceableError)):
            return True
        if isinstance(error, RuntimeError) and "being compiled" in str(error):
            return True
        if _TRACED_TEXT in str(error):
            # a user's exception whose message formats a value being compiled (``raise ValueError(f"{x}")``):
            # MindSpore raises it when the graph runs, with the values; run eagerly to raise it with them
            return True
        if isinstance(error, RecursionError):
            # a function that calls itself under a branch on a tensor: tracing takes both branches at every
            # depth; run eagerly, the values end the recursion (MindSpore compiles it as a recursive graph)
            return True
        error = error.__cause__ or error.__context__
        seen += 1
    return False


# How MindSpore 2.10's graph names Python's built-in types in an AttributeError ('Tuple' object has no attribute)
_GRAPH_TYPE_NAMES = {"tuple": "Tuple", "list": "List", "str": "String", "float": "Float", "bool": "Bool",
                     "dict": "Dictionary", "int": "Int"}
_PYTHON_ATTRIBUTE_ERROR = re.compile(r"'(\w+)' object has no attribute '(\w+)'")


def graph_attribute_error(error):
    """Python's AttributeError for a missing attribute of a tuple, list, str, number or dict, with the type named
    as MindSpore 2.10's graph names it ('Tuple' object has no attribute 'append'), or of a @jit_class instance
    (its ClassMember text, as for a Cell); None for other errors."""
    if type(error) is not AttributeError:
        return None
    owner = getattr(error, "obj", None)
    if getattr(type(owner), "__ms_class__", False) and isinstance(getattr(error, "name", None), str):
        cls = type(owner)
        renamed = AttributeError(f"ClassMember: 'Namespace:{cls.__module__}..<{cls.__name__}::{id(owner)}>' object "
                                 f"has no attribute '{error.name}'")
        return renamed.with_traceback(error.__traceback__)
    match = _PYTHON_ATTRIBUTE_ERROR.fullmatch(str(error))
    if match is None or match.group(1) not in _GRAPH_TYPE_NAMES:
        return None
    renamed = AttributeError(f"'{_GRAPH_TYPE_NAMES[match.group(1)]}' object has no attribute '{match.group(2)}'")
    return renamed.with_traceback(error.__traceback__)


def drop_jax_note(error):
    """``error`` without the note JAX's API boundaries add to an exception from traced code ("For simplicity, JAX
    has removed its internal frames ..."): the user's error reads as MindSpore raises it, with no JAX setting named."""
    notes = getattr(error, "__notes__", None)
    if notes:
        kept = [note for note in notes if "JAX_TRACEBACK_FILTERING" not in note]
        if kept:
            error.__notes__ = kept
        else:
            del error.__notes__
    return error


def strict_syntax_error(error):
    """The AttributeError MindSpore raises for ``tensor.asnumpy()`` (or ``tolist()``) in compiled code below the LAX
    syntax level (``jit_syntax_level`` STRICT or COMPATIBLE), when ``error`` comes from such a call; None otherwise."""
    if jit_syntax_level() == LAX:
        return None
    seen = 0
    while error is not None and seen < 8:
        # MindSpore's Tensor.tolist() reads asnumpy: the same refusal names asnumpy for both
        if str(error).startswith(("Tensor.asnumpy() was called", "Tensor.tolist() needs the value")):
            return AttributeError(
                "In JIT strict mode, cannot get attributes asnumpy or the Tensor object has no attribute: "
                "'asnumpy'. Set the environment variable MS_DEV_JIT_SYNTAX_LEVEL to 2 (or the context's or the "
                "Cell's jit_syntax_level to LAX) to enable the JIT lax mode and support the current syntax.")
        error = error.__cause__ or error.__context__
        seen += 1
    return None


def refuse_outputs(leaves):
    """Raise MindSpore 2.10's RuntimeError for an output its graph cannot return: a function (any syntax level),
    a set or a slice (STRICT; COMPATIBLE and LAX return them as Python objects). ``leaves``: the flat outputs."""
    if not compiling_graph():
        return  # a PyNative gradient compiled behind the user's back returns what Python returns
    for leaf in leaves:
        if isinstance(leaf, (types.FunctionType, types.MethodType, types.BuiltinFunctionType)):
            raise RuntimeError(f"Function in output is not supported. Please check your code. ({leaf!r} is returned "
                               "from the compiled code: call it there, or return it from a PyNative function.)")
        if isinstance(leaf, (set, frozenset, slice)) and jit_syntax_level() == STRICT:
            raise RuntimeError(f"Illegal type in the graph: the compiled code returns a {type(leaf).__name__} "
                               f"({leaf!r}), which STRICT syntax cannot output. Return a tuple, or set the "
                               "jit_syntax_level to COMPATIBLE or LAX.")


_warned = set()
_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _user_stacklevel():
    """The stacklevel of the first frame outside sporax, so the warning points at user code."""
    frame, level = sys._getframe(2), 2
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        frame, level = frame.f_back, level + 1
    return level


def _user_line(error):
    """``' (file, line N: source)'`` for the user's line that stopped the trace, or ''."""
    location = ""
    seen = 0
    while error is not None and seen < 8:
        for frame in traceback.extract_tb(error.__traceback__):
            if not frame.filename.startswith(_PACKAGE_DIR) and f"{os.sep}jax{os.sep}" not in frame.filename:
                source = (frame.line or linecache.getline(frame.filename, frame.lineno)).strip()
                location = f" At {frame.filename}, line {frame.lineno}: `{source}`."
        if location:
            return location
        error = error.__cause__ or error.__context__
        seen += 1
    return ""


def warn_fallback(name, error, what="compiled", detail=None):
    """Warn once per function that it runs eagerly from now on, naming the line that stopped it."""
    if name in _warned:
        return
    _warned.add(name)
    if isinstance(error, ExplainedFallback):
        warnings.warn(f"{name}: {error} sporax runs '{name}' eagerly, op by op, for this input signature "
                      f"(slower, same results).", EagerFallbackWarning, stacklevel=_user_stacklevel())
        return
    reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    reason += _user_line(error)
    if detail:
        reason += f" Not converted to graph control flow: {detail}."
    warnings.warn(
        f"{name}: Python control flow or a host read (if/while on a tensor value, int(), "
        f"asnumpy()) depends on a value that is only known at run time, so it cannot be "
        f"{what} into one program; sporax runs '{name}' eagerly, op by op, for this input "
        f"signature (slower, same results). To compile it, use ops.select/ops.where or "
        f"mindspore.numpy functions instead of the Python branch. ({type(error).__name__}: {reason[:600]})",
        EagerFallbackWarning, stacklevel=_user_stacklevel())


_print_lock = threading.RLock()
_print_depth = [0]
_strict_depth = [0]
_original_print = builtins.print
_TRACED_MARK = "<traced"


def formatted_from_traced(value):
    """True for a string formatted from a Tensor being compiled (it holds a placeholder, not values)."""
    return isinstance(value, str) and _TRACED_MARK in value


def _is_traced_tensor(value):
    return isinstance(value, Tensor) and isinstance(value._array, jax.core.Tracer)


def _compiling_behind_the_back():
    """True while sporax compiles code the user did not ask to compile (a gradient called outside a
    trace) and no user ``ms.jit`` runs inside it."""
    return _strict_depth[0] > 0 and _print_depth[0] == _strict_depth[0]


def compiling_pynative():
    """True while sporax compiles PyNative code behind the user's back (a PyNative gradient's program):
    Python that needs values there (hooks) makes the caller run eagerly."""
    return _compiling_behind_the_back() and get_mode() != GRAPH_MODE


class _Slot:
    """Where a traced Tensor stood in a print's arguments: the index of its run-time value, and whether
    MindSpore's compiler would have folded it to a constant (``folded_by_mindspore``)."""

    __slots__ = ("index", "constant")

    def __init__(self, index, constant=False):
        self.index = index
        self.constant = constant


# Operations MindSpore's compiler evaluates when their inputs are constants (their InferValue), as
# JAX stages them; anything else (exp, slicing, reductions: one 'jit' equation) stays in the graph.
_FOLDED = {"add", "sub", "mul", "div", "reshape", "broadcast_in_dim", "iota", "convert_element_type"}


def folded_by_mindspore(array):
    """Whether MindSpore's graph compiler would know ``array``'s value: it follows from constants alone
    through operations it folds (``x + y`` of two constant Tensors, ``ops.ones``, ``ops.arange``).
    A tensor plus a Python number stays in MindSpore's graph (its scalar Add is not folded), except
    inside ``arange`` (``start + step * iota``)."""
    lineage = jax_private.constant_lineage(array)
    if lineage is None or any(name not in _FOLDED for name, _, _ in lineage):
        return False
    from_range = any(name == "iota" for name, _, _ in lineage)
    return from_range or not any(name in ("add", "sub") and any(literal) for name, literal, _ in lineage)


def replaced(value, kind, replace):
    """``value`` with every ``kind`` in it (inside tuples, lists and dicts, their order kept)
    replaced by ``replace(item)``."""
    if isinstance(value, kind):
        return replace(value)
    if type(value) in (tuple, list):
        return type(value)(replaced(item, kind, replace) for item in value)
    if isinstance(value, tuple) and hasattr(value, "_fields"):  # a namedtuple
        return type(value)(*(replaced(item, kind, replace) for item in value))
    if type(value) is dict:
        return {key: replaced(item, kind, replace) for key, item in value.items()}
    return value


def graph_print_active():
    """True while a function the user asked to compile (``ms.jit``, GRAPH mode) is being traced: its
    prints follow MindSpore's graph-mode Print operator (``graph_print``)."""
    return _print_depth[0] > 0 and not _compiling_behind_the_back()


def _slotter(arrays, fold=False):
    """``slot(tensor)``: a traced Tensor becomes a ``_Slot`` (its array appended to ``arrays``), others stay;
    with ``fold``, the slot says whether MindSpore would have folded the tensor to a constant."""
    def slot(tensor):
        if not _is_traced_tensor(tensor):
            return tensor
        arrays.append(tensor._array)
        return _Slot(len(arrays) - 1, fold and folded_by_mindspore(tensor._array))

    return slot


def _constant_text(tensor):
    if tensor._array is None or np.asarray(tensor._array).dtype.kind not in "biufc":
        return str(tensor)  # uninitialised, or strings: no graph layout for those
    return tensor_graph_text(tensor, constant=True)


def _graph_lines(item, run_time, top=True):
    """The lines MindSpore's Print writes for one argument: a tensor in its graph layout, a bool as the C++
    stream writes it (1/0), a flat list or tuple of numbers as ``(1, 2)``; any other list, tuple or dict
    is flattened, one line per element (a dict's values only)."""
    if isinstance(item, _Slot):
        return [tensor_graph_text(run_time(item), constant=item.constant)]
    if isinstance(item, Tensor):
        return [_constant_text(item)]
    if isinstance(item, bool):
        return [str(int(item))]
    if isinstance(item, (list, tuple)) and not hasattr(item, "_fields"):
        if top and all(type(value) in (int, float) for value in item):
            return ["(" + ", ".join(str(value) for value in item) + ")"]
        return [line for value in item for line in _graph_lines(value, run_time, top=False)]
    if type(item) is dict:
        return [line for value in item.values() for line in _graph_lines(value, run_time, top=False)]
    return [str(replaced(item, _Slot, run_time))]


class FormattedText(str):
    """An f-string formatted from a tensor being compiled: its text holds a placeholder for the tensor,
    ``parts`` the literal texts and the tensors, for a graph print to write the run-time values."""

    def __new__(cls, text, parts):
        formatted = super().__new__(cls, text)
        formatted.parts = tuple(parts)
        return formatted


class _Joined(tuple):
    """A ``FormattedText`` in a print's template: texts and ``_Slot``s."""


graph_prints = [0]  # how many run-time prints were traced: a program holding one waits for them (Program.outputs)


def graph_print(args):
    """MindSpore's graph-mode ``print`` (its Print operator): each argument on its own line, a tensor as
    ``tensor_graph_text`` writes it, every time the compiled program runs, in program order."""
    graph_prints[0] += 1
    arrays = []
    slot = _slotter(arrays, fold=True)
    # A NumPy argument makes MindSpore's graph run the whole print in Python (its JIT Fallback): one line,
    # each value as str() writes it ('np_sum:  [ 2  4  6  8 10] tensor_sum:  [ 2  4  6  8 10]').
    # So does an f-string of a traced tensor, each tensor written as NumPy writes its value, format spec ignored.
    in_python = any(isinstance(arg, (np.ndarray, FormattedText)) for arg in args)
    # A tensor known while tracing (a constant) is written now; a traced one when the program runs.
    template = [(str(arg) if in_python else _constant_text(arg)) if isinstance(arg, Tensor) and
                not _is_traced_tensor(arg) else _Joined(slot(part) if isinstance(part, Tensor) else part
                                                        for part in arg.parts)
                if isinstance(arg, FormattedText) else replaced(arg, Tensor, slot) for arg in args]

    def emit(*values):
        def run_time(at):
            return Tensor(np.asarray(values[at.index]))

        if in_python:
            _original_print(*["".join(str(np.asarray(values[part.index])) if isinstance(part, _Slot) else part
                                      for part in item) if isinstance(item, _Joined)
                              else replaced(item, _Slot, run_time) for item in template], flush=True)
            return
        for item in template:
            for text in _graph_lines(item, run_time):
                _original_print(text, flush=True)

    # Ordered so prints keep program order; JAX orders callbacks only in programs on one device.
    jax.debug.callback(emit, *arrays, ordered=jax.device_count() == 1)


def _traced_print(*args, **kwargs):
    strict = _compiling_behind_the_back()
    if not strict and set(kwargs) <= {"flush"}:
        return graph_print(args)
    if strict and any(formatted_from_traced(value) for value in args):
        raise TracedPrintError(
            "print() of a string formatted from a tensor being compiled: its value is only known when the "
            "program runs, so this function runs eagerly instead.")
    # Tensors anywhere in the arguments (a tuple of a hook's inputs) print their run-time values.
    arrays = []
    template = replaced(args, Tensor, _slotter(arrays))
    if not arrays and not strict:
        return _original_print(*args, **kwargs)

    def emit(*values):
        _original_print(*replaced(template, _Slot, lambda at: Tensor(np.asarray(values[at.index]))), **kwargs)

    # PyNative code compiled behind the user's back prints on every call, as PyNative does, so even a
    # print without tensors runs in the program. Ordered, so that it keeps its place among the others;
    # JAX orders callbacks only in programs on one device, so with several devices they stay unordered.
    # Counted with the graph prints: the program's call waits for them, so they appear before it returns.
    graph_prints[0] += 1
    jax.debug.callback(emit, *arrays, ordered=strict and jax.device_count() == 1)
    return None


@contextlib.contextmanager
def runtime_print(strict=False):
    """While tracing, ``print(tensor)`` prints the run-time value each time the program runs.

    With ``strict`` (PyNative code compiled behind the user's back), every print runs in the program
    (PyNative prints on every call, not once per compilation), and printing a string formatted from a
    traced tensor raises ``TracedPrintError`` so the caller falls back to eager execution and the
    user sees every value, as in PyNative mode.
    """
    with _print_lock:
        _print_depth[0] += 1
        _strict_depth[0] += bool(strict)
        if _print_depth[0] == 1:
            builtins.print = _traced_print
    try:
        yield
    finally:
        with _print_lock:
            _print_depth[0] -= 1
            _strict_depth[0] -= bool(strict)
            if _print_depth[0] == 0:
                builtins.print = _original_print


@contextlib.contextmanager
def python_print():
    """Inside a trace, ``print`` as Python's own for a while: a constexpr function runs while the graph is
    compiled, so MindSpore prints its ``print`` once then, as Python writes it, never when the program runs."""
    with _print_lock:
        saved = builtins.print
        builtins.print = _original_print
    try:
        yield
    finally:
        with _print_lock:
            builtins.print = saved
