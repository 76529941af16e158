"""``mindspore.jit``: compile a function, a Cell method or a Cell into one XLA program.

The compile cache is the one ``sporax.state.program_cache.ProgramCache``, keyed by the static
signature (DESIGN 2.7): shapes and dtypes of traced arguments, values of static ones (Python
scalars, strings, dtypes, Cells by identity), and the ``training`` flags of every Cell the
function can reach. State the function touches, Parameters passed as arguments included, is
lifted (``sporax.state.lifting``): Parameters it assigns are written back and their old buffers
donated.
Inside another trace a jitted function runs inline.

Example:
    >>> import sporax
    >>> @sporax.jit
    ... def double(x):
    ...     return x + x
"""
import copy
import functools
import inspect
import threading
import types

import jax

from sporax.autodiff.tensor_hooks import leaf_hook_tables, share_leaf_hooks
from sporax.core import context
from sporax.graph.attribute_views import attribute_views, collect_views, global_views
from sporax.graph.cell_jit import call_compiled
from sporax.graph.control_flow import conversion_problem, converted
from sporax.graph.control_flow.call_arguments import entry_error
from sporax.graph.dynamic_shape import check_set_inputs
from sporax.graph.helper_changes import eager_outside, helper_changes, replay
from sporax.graph.outside_objects import Outside, restore, warn_outside_changes
from sporax.state.arguments import call_rebuilt, skeleton, write_arguments
from sporax.state.discovery import is_cell
from sporax.state.program import build_program, require_owned
from sporax.state.python_floats import returned_floats
from sporax.state.program_cache import ProgramCache
from sporax.state.returned_inputs import returned_input
from sporax.state.scope import compiling as _compiling
from sporax.state.scope import in_compiled_trace, is_tracing  # noqa: F401 - in_compiled_trace is used from here

_CAPTURE_MODES = ("ast", "bytecode", "trace")


class _EagerDepth(threading.local):
    depth = 0


_eager_depth = _EagerDepth()


def in_eager_fallback():
    """True while a jitted function that fell back to eager execution runs (it still stands for a graph)."""
    return _eager_depth.depth > 0


def _run_eagerly(function, name, args, kwargs):
    """A jitted function that fell back to eager execution; endless recursion is MindSpore's RuntimeError."""
    _eager_depth.depth += 1
    try:
        outputs = function(*args, **kwargs)
        # the floats it returns as a compiled run returns them (abs(100.12) -> 100.12000274658203)
        return returned_floats(outputs) if _eager_depth.depth == 1 else outputs
    except RecursionError as error:
        if _eager_depth.depth > 1:
            raise  # the outermost call reports it, with the stack unwound
        # MindSpore says 'There isn't any branch that can be evaluated.' for an endless recursion and 'Exceed
        # function call depth limit 1000' for a deep one; Python's RecursionError cannot tell them apart.
        raise RuntimeError(f"Exceed function call depth limit while running '{name}': its calls nest deeper than the "
                           "recursion limit, or there isn't any branch that ends the recursion. Please check the code "
                           "if it has the infinite recursion or loop, or raise the limit with "
                           "mindspore.set_recursion_limit.") from error
    finally:
        _eager_depth.depth -= 1


class JitFunction:
    """The callable returned by ``jit``: its programs in a ``ProgramCache``, one per signature."""

    def __init__(self, function, fullgraph=False, options=None):
        self.function = function
        self.fullgraph = fullgraph
        self.options = options or {}
        self.name = getattr(function, "__qualname__", None) or type(function).__name__
        # Cells and Parameters passed as arguments are state too: a jitted optimizer step that
        # assigns to a Parameter argument updates that Parameter.
        self.cache = ProgramCache(self.name, function)
        functools.update_wrapper(self, function, updated=())

    def _sporax_reachable(self):
        return [self.function]

    def __deepcopy__(self, memo):
        # Fresh caches: the programs compiled so far belong to the original's state.
        return JitFunction(copy.deepcopy(self.function, memo), self.fullgraph, dict(self.options))

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        return types.MethodType(self, instance)

    def __call__(self, *args, **kwargs):
        if is_tracing():
            require_owned(self.cache.states(args, kwargs))
            with _compiling():
                return converted(self.function)(*args, **kwargs)
        if args and getattr(self.function, "__name__", None) == "construct" and is_cell(args[0]) \
                and args[0].__dict__.get("_inputs") is not None:
            check_set_inputs(args[0].__dict__["_inputs"], args[1:])  # a jitted construct keeps set_inputs too
        try:
            # As MindSpore's: a jitted function's graph keeps the Cells' ``training`` flags it was compiled with.
            hooked = leaf_hook_tables(args)  # the program holds the caller's Tensor hooks: one per set of tables
            program, arrays = self.cache.lookup(args, kwargs, self._build, phase="jit",
                                                extra=tuple((position, id(table)) for position, table in hooked)
                                                if hooked else None)
        except TypeError:
            error = entry_error(self.function, args, kwargs)  # arguments that do not bind: MindSpore's words
            if error is None:
                raise
            raise error from None
        if program.eager:
            # Converted, as a Cell's eager fallback runs its converted construct: the graph
            # semantics (builtins as sequences, globals read before assignment) hold either way.
            function = _with_views(converted(self.function), self.function)
            if program.frozen_globals:
                function = _with_global_views(function, program.frozen_globals)
            with helper_changes(eager_outside(self.function, args, kwargs), apply=args):
                return _run_eagerly(function, self.name, args, kwargs)
        if program.argument_writes:
            outputs, values = program(arrays)
            replay(program.helper_replays, args)
            write_arguments(args, kwargs, self.cache.group(args, kwargs).owned, program.argument_writes, values)
        else:
            outputs = program(arrays)
            replay(program.helper_replays, args)
            if program.returned_input is not None:
                return returned_input(program, outputs, args, kwargs, self.cache.group(args, kwargs).owned)
        return restore(outputs, program.returned_list, args) if program.returned_list else outputs

    def _build(self, args, kwargs, arrays, discovered):
        with _compiling():  # MindSpore's graph syntax rules apply from the conversion on
            function = converted(self.function)
        owned = {id(state) for state in discovered.states}
        hooked = leaf_hook_tables(args)
        args, kwargs = skeleton(args, kwargs, owned)
        record = {}

        def returning(*call_args, **call_kwargs):
            # MindSpore 2.10's STRICT GRAPH_MODE changes no outside list; its STRICT jit in PyNative mode no argument
            strict = context.jit_syntax_level() == context.STRICT
            graph_mode = context.get_context("mode") == context.GRAPH_MODE
            outside = Outside(self.function, call_args, call_kwargs, graph_only=strict and graph_mode,
                              arguments_graph_only=strict,
                              refuse_dict_pop=graph_mode and context.jit_syntax_level() != context.LAX)
            share_leaf_hooks(call_args, hooked)  # a gradient inside runs the hooks of the caller's Tensors
            with collect_views() as views, helper_changes(outside, graph_only=strict and graph_mode,
                                                          arguments_graph_only=strict,
                                                          refuse_dict_pop=outside.refuse_dict_pop) as changes:
                outputs = _with_views(function, self.function)(*call_args, **call_kwargs)
            record["helper_replays"] = changes.pending
            outputs, record["returned_list"] = outside.returned_sources(outputs)
            record["rerun"] = outside.undo_changes() or any(view.changed_originals for view in views) \
                or changes.rerun
            record["frozen_globals"] = outside.frozen
            return outputs

        def body(traced_arrays):
            with _compiling():
                return call_rebuilt(returning, args, kwargs, traced_arrays, owned, record)

        program = build_program(body, discovered, arrays, self.name,
                                hint=lambda: conversion_problem(self.function))
        if not program.eager:
            program.argument_writes = record.get("argument_writes", ())
            program.returned_list = record.get("returned_list")
            program.helper_replays = record.get("helper_replays")
            # list methods and attribute updates on outside objects run at every call, as in MindSpore
            # (graph.outside_objects)
            program.eager = bool(record.get("rerun")) and not self.fullgraph
            program.frozen_globals = record.get("frozen_globals")
            if program.eager:
                warn_outside_changes(self.name)
        if program.eager and self.fullgraph:
            raise RuntimeError(
                f"jit(fullgraph=True): '{self.name}' cannot be compiled into one graph: "
                f"{program.error}. Remove the Python branch on a tensor value, or drop fullgraph=True "
                "to let sporax run it eagerly.") from program.error
        return program


def _with_views(function, source):
    """``function`` (``source`` converted), which when called as a method of a Cell (``@jit`` on ``construct``)
    sees the Cell's list and dict attributes as MindSpore's graph does (``sporax.graph.attribute_views``)."""

    @functools.wraps(function)
    def call(*args, **kwargs):
        if not args or not is_cell(args[0]):
            return function(*args, **kwargs)
        # MindSpore 2.10's jit in PyNative mode keeps LAX's rules whatever the context's jit_syntax_level (recorded)
        level = context.LAX if context.get_context("mode") == context.PYNATIVE_MODE else None
        with attribute_views(args[0], source, level) as views:
            return views.unwrap(function(*args, **kwargs))

    return call


def _with_global_views(function, frozen):
    """``function`` seeing the module-level containers ``frozen`` as MindSpore's graph does
    (``sporax.graph.attribute_views.global_views``)."""

    @functools.wraps(function)
    def call(*args, **kwargs):
        with global_views(frozen) as views:
            return views.unwrap(function(*args, **kwargs))

    return call


def _jit_cell(cell, fullgraph, options):
    def call(*args, **kwargs):
        with _compiling():
            return call_compiled(cell, args, kwargs)

    call.__wrapped__ = cell
    return call


def jit(function=None, *, capture_mode="ast", jit_level="O0", dynamic=0, fullgraph=False, backend="", **options):
    """Compile ``function`` (a function, a method or a Cell) into one program per input signature.

    Args:
        function (Callable): the function; when None, ``jit(...)`` returns a decorator.
        capture_mode (str): 'ast', 'bytecode' or 'trace' — sporax always traces the Python. Default: 'ast'.
        jit_level (str): MindSpore's optimisation level, 'O0' or 'O1'; XLA chooses its own. Default: 'O0'.
        dynamic (int): MindSpore's dynamic-shape switch; sporax compiles one program per shape. Default: 0.
        fullgraph (bool): raise instead of falling back to eager execution when the Python
            cannot be traced. Default: False.
        backend (str): accepted for compatibility ('ms_backend', 'GE'). Default: ''.

    Returns:
        Callable, the compiled function.
    """
    # MindSpore 2.10's wording; its jit takes the levels 'O0' and 'O1' only (JitConfig takes 'O2' too)
    if capture_mode not in _CAPTURE_MODES:
        raise ValueError(f"For 'jit', the 'capture_mode' must be str and must be in '{list(_CAPTURE_MODES)}', "
                         f"but got {capture_mode!r}.")
    if jit_level not in ("O0", "O1"):
        raise ValueError(f"For 'jit', the 'jit_level' must be str and must be in '['O0', 'O1']', but got "
                         f"{jit_level!r}.")
    options = dict(options, jit_level=jit_level, dynamic=dynamic, backend=backend)

    def decorate(target):
        if is_cell(target):
            return _jit_cell(target, fullgraph, options)
        if not callable(target):
            raise TypeError(f"For 'jit', the decorated object must be a function, a method or a Cell, but got "
                            f"{type(target).__name__}.")
        if isinstance(target, JitFunction):
            return target
        return JitFunction(target, fullgraph=fullgraph, options=options)

    if function is None:
        return decorate
    return decorate(function)


def jit_class(cls):
    """Mark a user class as usable inside compiled functions (every class is, in sporax)."""
    if not isinstance(cls, type):
        raise TypeError(f"Decorator jit_class can only be used for class type, but got {cls}.")
    if hasattr(cls, "construct") and hasattr(cls, "parameters_and_names"):  # an nn.Cell (graph sits below nn)
        raise TypeError(f"Decorator jit_class is used for user-defined classes and cannot be used for nn.Cell: "
                        f"{cls}. Remove @jit_class: a Cell subclass is compiled through its construct already.")
    cls.__ms_class__ = True  # MindSpore's mark, which user code may read
    return cls


def no_inline(fn=None):
    """Keep a function as a reusable subgraph (a hint; XLA decides inlining itself)."""
    return fn if fn is not None else (lambda function: function)


def lazy_inline(fn=None, attrs=None, policy=None):
    """Compile a Cell's repeated subgraph once (a hint; XLA decides inlining itself)."""
    return fn if fn is not None else (lambda function: function)


def _function_forbid_reuse(func):
    """Mark a function whose calls must not share one compiled subgraph (it draws random numbers).

    MindSpore's compiler reuses a subgraph across calls unless so marked (mindone marks its
    dropout). sporax traces every call afresh, so the mark is only recorded.
    """
    if not inspect.isfunction(func):
        raise TypeError(f"Decorator _function_forbid_reuse can only be used for function type, but got {func}.")
    func.__function_forbid_reuse__ = True
    return func


class JitConfig:
    """Compile options for a Cell (``cell.set_jit_config``) or ``jit`` (``mindspore.JitConfig``).

    sporax records them; XLA picks its own optimisation passes, so the levels do not change the
    program.

    Args:
        jit_level (str): 'O0', 'O1' or 'O2' ('' for the default). Default: ''.
        exc_mode (str): 'auto', 'sink' or 'no_sink'. Default: 'auto'.
        jit_syntax_level (str): MindSpore's syntax support level. Default: ''.
        debug_level (str): 'RELEASE' or 'DEBUG'. Default: 'RELEASE'.
        infer_boost (str): 'on' or 'off'. Default: 'off'.
    """

    def __init__(self, jit_level="", exc_mode="auto", jit_syntax_level="", debug_level="RELEASE",
                 infer_boost="off", **kwargs):
        if jit_level not in ("", "O0", "O1", "O2"):
            raise ValueError("For 'jit_level' must be one of ['O0', 'O1', 'O2'].")
        if exc_mode not in ("auto", "sink", "no_sink"):
            raise ValueError("For 'exc_mode' must be one of '['auto', 'sink', 'no_sink']'.")
        if debug_level not in ("RELEASE", "DEBUG"):
            raise ValueError("For 'debug_level' must be one of ['RELEASE', 'DEBUG'].")
        if infer_boost not in ("on", "off"):
            raise ValueError("For 'infer_boost' must be one of ['on', 'off'].")
        self.jit_config_dict = dict(jit_level=jit_level, exc_mode=exc_mode, jit_syntax_level=jit_syntax_level,
                                    debug_level=debug_level, infer_boost=infer_boost,
                                    backend=kwargs.pop("backend", "ms_backend"))
        self.jit_config_dict.update(kwargs)


def ms_memory_recycle():
    """Release compiled programs' cached memory (JAX frees buffers itself; this clears its caches)."""
    jax.clear_caches()
