"""GRAPH_MODE for Cells: ``Cell.__call__`` hands the call to ``call_compiled``.

Each Cell keeps its ``ProgramCache`` (``sporax.state.program_cache``: one program per static
signature and phase, ``compile_phase_key``) in its ``__dict__``. Parameters passed as arguments are lifted like the Cell's own: one that
``construct`` assigns holds the new value afterwards. A call inside a running trace (a child
Cell, or a Cell inside a jitted function) runs ``construct`` inline.
"""
import types

from sporax.autodiff.bprop import call_with_bprop
from sporax.autodiff.grad import GradFunction
from sporax.core import context, seeded_streams
from sporax.graph.attribute_views import attribute_views, collect_views, global_views
from sporax.graph.control_flow import conversion_problem, converted
from sporax.graph.control_flow.call_arguments import entry_error
from sporax.graph.dynamic_shape import check_set_inputs
from sporax.graph.helper_changes import eager_outside, helper_changes, replay
from sporax.graph.outside_objects import Outside, restore, warn_outside_changes
from sporax.state import deferred, lazy
from sporax.state.arguments import call_rebuilt, skeleton, write_arguments
from sporax.state.program import build_program, require_owned, walked_by_active_scope
from sporax.state.program_cache import ProgramCache, state_arguments
from sporax.state.returned_inputs import returned_input
from sporax.state.scope import _stack as _scopes, compiling_graph, is_tracing, note_cell_call
from sporax.state.world import before_first_compile, global_batch

_ATTRIBUTE = "_sporax_compiled"


def run_construct(cell, args, kwargs):
    """``construct`` of ``cell`` as it runs in a trace (a custom ``bprop`` takes effect), with its
    Python control flow on tensors converted (``sporax.graph.control_flow``), and its list and dict
    attributes changed as MindSpore's graph changes them (``sporax.graph.attribute_views``)."""
    construct = traceable_construct(cell)
    with attribute_views(cell, getattr(type(cell), "construct", None)) as views:
        if callable(getattr(type(cell), "bprop", None)):
            return views.unwrap(call_with_bprop(cell, args, kwargs, construct=construct))
        return views.unwrap(construct(*args, **kwargs))


def traceable_construct(cell):
    """``cell.construct`` converted for tracing; ``_construct_eager`` when a subclass overrides that."""
    if not getattr(type(cell)._construct_eager, "runs_construct_only", False):
        return cell._construct_eager
    return converted(cell.construct)


def _check_unregistered_names(cell, states):
    """MindSpore 2.10's GRAPH_MODE error for a Parameter outside ``cell``'s registered tree (a Cell kept in a plain
    list or tuple attribute keeps its bare names: 'weight') whose name another Parameter of the graph has."""
    registered = {id(parameter) for parameter in cell.get_parameters()}
    # a Primitive's own state (ops.Dropout's seed words, one per instance, all of one name) is no Cell's
    # Parameter in MindSpore: only trainable Parameters are checked
    states = [state for state in states if getattr(state, "requires_grad", False)]
    names = {}
    for state in states:
        if getattr(state, "name", None) is not None:
            names.setdefault(state.name, []).append(state)
    for state in states:
        if id(state) not in registered and len(names.get(getattr(state, "name", None), ())) > 1:
            raise RuntimeError(f"The parameter {state.name!r} of '{type(cell).__name__}.construct', its name "
                               f"'{state.name}' already exists. Please set a unique name for the parameter. (Cells "
                               "kept in a plain list or tuple attribute are not registered and keep their Parameters' "
                               "bare names; hold them in nn.CellList or nn.SequentialCell.)")


def _build(cell):
    """The builder of ``cell``'s programs for ``ProgramCache.lookup``."""

    def build(args, kwargs, arrays, discovered):
        if context.get_context("mode") == context.GRAPH_MODE:
            _check_unregistered_names(cell, discovered.states)
        owned = {id(state) for state in discovered.states}
        args, kwargs = skeleton(args, kwargs, owned)
        record = {}

        def returning(*new_args, **new_kwargs):
            outside = Outside(getattr(cell, "construct", None), new_args, new_kwargs, owner=cell,
                              graph_only=context.jit_syntax_level() == context.STRICT,
                              refuse_dict_pop=context.jit_syntax_level() != context.LAX)
            with collect_views() as views, helper_changes(outside, graph_only=outside.graph_only,
                                                          refuse_dict_pop=outside.refuse_dict_pop) as changes:
                outputs = run_construct(cell, new_args, new_kwargs)
            record["helper_replays"] = changes.pending
            outputs, record["returned_list"] = outside.returned_sources(outputs)
            record["rerun"] = outside.undo_changes() or any(view.changed_originals for view in views) \
                or changes.rerun
            record["frozen_globals"] = outside.frozen
            return outputs

        def body(traced_arrays):
            return call_rebuilt(returning, args, kwargs, traced_arrays, owned, record)

        pairs_before = seeded_streams.pairs_taken()
        program = build_program(body, discovered, arrays, f"{type(cell).__name__}.construct",
                                hint=lambda: conversion_problem(getattr(cell, "construct", None)),
                                warn=_compile_requested(cell))
        program.reseeds = seeded_streams.pairs_taken() != pairs_before
        if not program.eager:
            program.argument_writes = record.get("argument_writes", ())
            program.returned_list = record.get("returned_list")
            program.helper_replays = record.get("helper_replays")
            # list methods and attribute updates on outside objects run at every call (graph.outside_objects)
            program.eager = bool(record.get("rerun"))
            program.frozen_globals = record.get("frozen_globals")
            if program.eager:
                warn_outside_changes(f"{type(cell).__name__}.construct")
        return program

    return build


def _compile_requested(cell):
    """Whether the user asked for ``cell`` to be compiled: GRAPH_MODE, its jit config or ``compile_and_run``. In
    PYNATIVE_MODE sporax also compiles a training step, an optimizer update and Model's steps behind the user's
    back; one that cannot be traced runs eagerly as PyNative code does, with no fallback warning."""
    return (context.get_context("mode") == context.GRAPH_MODE or _JIT_CONFIG in cell.__dict__
            or "_compile_inputs" in cell.__dict__)


def compiled_cell(cell):
    """The program cache attached to ``cell`` (created on first use)."""
    state = cell.__dict__
    compiled = state.get(_ATTRIBUTE)
    if compiled is None:
        compiled = state[_ATTRIBUTE] = ProgramCache(f"{type(cell).__name__}.construct", cell)
    return compiled


def call_compiled(cell, args, kwargs):
    """Run ``cell(*args, **kwargs)`` as one compiled program (GRAPH_MODE), or inline in a trace."""
    return _call(cell, args, kwargs, False)


def call_update(cell, args, kwargs):
    """``call_compiled`` for an optimizer update: on a small network the call may be held back and
    launched with the next program, a read of any Parameter applying it first (``sporax.state.deferred``)."""
    if (len(args) == 1 and not kwargs and type(args[0]) is tuple and args[0] and type(args[0][0]) is lazy.PendingTensor
            and not _scopes.scopes and _JIT_CONFIG not in cell.__dict__):
        # A training step's optimizer given pending gradients (sporax.state.lazy): straight to the fused
        # launch with their gradient call, past the frames below (issue 26: once per step).
        compiled = cell.__dict__.get(_ATTRIBUTE) or compiled_cell(cell)
        fused, result = lazy.update(args[0], compiled)
        if fused:
            return result
        return _call(cell, args, kwargs, result)  # the gradients are values now: the update's own program
    return _call(cell, args, kwargs, True)


_JIT_CONFIG = "_jit_config_dict"


def compile_phase_key(cell):
    """What keys ``cell``'s programs besides its arguments: in GRAPH_MODE its own phase (``'train'`` until
    ``set_train(False)``; ``set_train`` on a parent leaves it), as MindSpore keys a Cell's graph; None (the
    whole tree's ``training`` flags) in PYNATIVE_MODE, where a compiled step must see every flag as it is now."""
    if context.get_mode() != context.GRAPH_MODE or not getattr(type(cell), "keys_programs_on_phase", True):
        return None
    return cell.__dict__.get("_phase", "train")


def _call(cell, args, kwargs, defer):
    if is_tracing():
        return _call_at_level(cell, args, kwargs, defer)
    declared = cell.__dict__.get("_inputs")
    if declared is not None:
        check_set_inputs(declared, args)
    level = cell.__dict__.get(_JIT_CONFIG, {}).get("jit_syntax_level")
    if not level:
        outputs = _call_at_level(cell, args, kwargs, defer)
        return _strict_outputs(outputs) if isinstance(outputs, dict) else outputs
    with context.config_syntax_level(level):
        return _strict_outputs(_call_at_level(cell, args, kwargs, defer))


def _compiled_each_call(args, kwargs):
    """Whether MindSpore 2.10 recompiles a GRAPH_MODE Cell at every call with these arguments: a list, or a
    plain function (a ``grad`` function handed to an optimizer), among them."""
    return any(type(value) is list or isinstance(value, (types.FunctionType, types.MethodType, GradFunction))
               for value in (*args, *kwargs.values()))


def _strict_outputs(outputs):
    """STRICT syntax has no dict outputs: MindSpore returns the tuple of the values."""
    if isinstance(outputs, dict) and context.jit_syntax_strict():
        return tuple(outputs.values())
    return outputs


def _call_at_level(cell, args, kwargs, defer):
    compiled = compiled_cell(cell)
    if is_tracing():
        # A Cell whose tree the trace's discovery walked holds no state the trace lacks, unless the call
        # passes Parameters (lifted as its arguments).
        if not walked_by_active_scope(cell) or (compiled.lift_arguments and state_arguments(args, kwargs)):
            require_owned(compiled.states(args, kwargs))
        outputs = run_construct(cell, args, kwargs)
        if not kwargs and compiling_graph():
            note_cell_call(cell, args)
        return outputs
    if defer and len(args) == 1 and not kwargs and type(args[0]) is tuple and args[0] \
            and type(args[0][0]) is lazy.PendingTensor:
        # An optimizer given pending gradients: one launch with their gradient call (sporax.state.lazy).
        fused, result = lazy.update(args[0], compiled)
        if fused:
            return result
        defer = result
    try:
        program, arrays = compiled.lookup(args, kwargs, _build(cell), prepare=global_batch,
                                          first_compile=lambda arrays: before_first_compile(cell, arrays),
                                          phase=compile_phase_key(cell))
    except TypeError:
        error = entry_error(cell.construct, args, kwargs, cell=True)  # arguments that do not bind: MindSpore's words
        if error is None:
            raise
        raise error from None
    if program.reseeds and program.has_run and not program.eager and _compiled_each_call(args, kwargs):
        # MindSpore compiles a Cell anew at every call given a list or a function: its seeded random ops
        # take new seed pairs each call (fresh streams, as in PyNative), not a stream running on.
        compiled.forget(program)
        program, arrays = compiled.lookup(args, kwargs, _build(cell), prepare=global_batch, phase=compile_phase_key(cell))
    program.has_run = True
    if program.eager:
        # the module-level containers as MindSpore's graph keeps seeing them (graph.attribute_views.global_views)
        with global_views(program.frozen_globals) as views, \
                helper_changes(eager_outside(getattr(cell, "construct", None), args, kwargs, cell), apply=args):
            return views.unwrap(run_construct(cell, args, kwargs))
    replay(program.helper_replays, args)  # the Python side of the program's run, as MindSpore's graph makes it
    if program.argument_writes:
        outputs, values = program(arrays)
        write_arguments(args, kwargs, compiled.group(args, kwargs).owned, program.argument_writes, values)
    elif defer and program.deferrable and deferred.defer(program, arrays):
        return program.constant_output[0]
    else:
        outputs = program(arrays)
        if program.returned_input is not None:
            return returned_input(program, outputs, args, kwargs, compiled.group(args, kwargs).owned)
    return restore(outputs, program.returned_list, args) if program.returned_list else outputs


def compiled_text(cell, *args, **kwargs):
    """The optimised HLO text of the program GRAPH_MODE compiles for ``cell(*args, **kwargs)``.

    For inspection and tests (the collectives GSPMD inserted, fusion decisions).
    """
    program, arrays = compiled_cell(cell).lookup(args, kwargs, _build(cell), prepare=global_batch,
                                                 phase=compile_phase_key(cell))
    if program.eager:
        raise RuntimeError(f"{program.name} runs eagerly (it could not be traced), so it has no compiled program.")
    return program.lower(arrays).compile().as_text()
