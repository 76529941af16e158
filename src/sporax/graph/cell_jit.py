"""GRAPH_MODE for Cells: ``Cell.__call__`` hands the call to ``call_compiled``.

Each Cell keeps its compiled programs (one per static signature: argument shapes/dtypes, static
argument values, the tree's ``training`` flags, so ``set_train()`` recompiles) in its
``__dict__``. A call inside a running trace (a child Cell, or a Cell inside a jitted function)
runs ``construct`` inline.
"""
from sporax.graph.control_flow import conversion_problem, converted
from sporax.state.arguments import signature
from sporax.state.discovery import DiscoveryCache, _structure_version
from sporax.state.program import build_program, require_owned
from sporax.state.scope import is_tracing
from sporax.state.world import before_first_compile, global_batch

_ATTRIBUTE = "_sporax_compiled"


def run_construct(cell, args, kwargs):
    """``construct`` of ``cell`` as it runs in a trace (a custom ``bprop`` takes effect), with its
    Python control flow on tensors converted (``sporax.graph.control_flow``)."""
    construct = traceable_construct(cell)
    if callable(getattr(type(cell), "bprop", None)):
        from sporax.autodiff.bprop import call_with_bprop

        return call_with_bprop(cell, args, kwargs, construct=construct)
    return construct(*args, **kwargs)


def traceable_construct(cell):
    """``cell.construct`` converted for tracing; ``_construct_eager`` when a subclass overrides that."""
    if type(cell)._construct_eager is not _base_construct_eager():
        return cell._construct_eager
    return converted(cell.construct)


def _base_construct_eager():
    from sporax.nn.cell import Cell

    return Cell._construct_eager


class CompiledCell:
    """The compile cache of one Cell."""

    __slots__ = ("cell", "cache", "discovered", "owned", "programs", "name")

    def __init__(self, cell):
        self.cell = cell
        self.cache = DiscoveryCache(cell)
        self.discovered = None
        self.programs = {}
        self.name = f"{type(cell).__name__}.construct"

    # A copied or pickled Cell compiles afresh: programs and discovery belong to the original.
    def __deepcopy__(self, memo):
        return None

    def __copy__(self):
        return None

    def __reduce__(self):
        return (_no_cache, ())

    def invalidate(self):
        """Forget the discovered Parameters and programs (after the Cell tree changed)."""
        self.cache = DiscoveryCache(self.cell)
        self.discovered = None
        self.programs = {}

    def _refresh(self):
        discovered = self.cache.get()
        if discovered is not self.discovered:
            self.discovered = discovered
            self.owned = {id(state) for state in discovered.states}
            self.programs = {}
        return discovered

    def __call__(self, args, kwargs):
        discovered = self.discovered
        if discovered is None or self.cache.version != _structure_version[0]:
            discovered = self._refresh()
        key, arrays = signature(args, kwargs, self.owned)
        arrays = global_batch(arrays)
        key = (key, discovered.training_flags())
        program = self.programs.get(key)
        if program is None:
            if not self.programs:
                before_first_compile(self.cell, arrays)
            program = self._build(args, kwargs, arrays)
            self.programs[key] = program
        if program.eager:
            return run_construct(self.cell, args, kwargs)
        return program(arrays)

    def compiled_text(self, args, kwargs):
        """The optimised HLO text of the program a call with these arguments runs (built if needed).

        For inspection and tests (the collectives GSPMD inserted, fusion decisions).
        """
        discovered = self._refresh()
        key, arrays = signature(args, kwargs, self.owned)
        arrays = global_batch(arrays)
        key = (key, discovered.training_flags())
        program = self.programs.get(key)
        if program is None:
            program = self.programs[key] = self._build(args, kwargs, arrays)
        if program.eager:
            raise RuntimeError(f"{self.name} runs eagerly (it could not be traced), so it has no compiled program.")
        return program.lower(arrays).compile().as_text()

    def _build(self, args, kwargs, arrays):
        from sporax.state.arguments import rebuild, skeleton

        cell, owned = self.cell, self.owned
        args, kwargs = skeleton(args, kwargs, owned)

        def body(traced_arrays):
            new_args, new_kwargs = rebuild(args, kwargs, traced_arrays, owned)
            return run_construct(cell, new_args, new_kwargs)

        program = build_program(body, self.discovered, arrays, self.name,
                                hint=lambda: conversion_problem(getattr(cell, "construct", None)))
        self.owned = {id(state) for state in self.discovered.states}
        return program


def _no_cache():
    return None


def compiled_cell(cell):
    """The compile cache attached to ``cell`` (created on first use)."""
    state = cell.__dict__
    compiled = state.get(_ATTRIBUTE)
    if compiled is None:
        compiled = state[_ATTRIBUTE] = CompiledCell(cell)
    return compiled


def call_compiled(cell, args, kwargs):
    """Run ``cell(*args, **kwargs)`` as one compiled program (GRAPH_MODE), or inline in a trace."""
    if is_tracing():
        compiled = compiled_cell(cell)
        require_owned(compiled._refresh().states)
        return run_construct(cell, args, kwargs)
    return compiled_cell(cell)(args, kwargs)


def compiled_text(cell, *args, **kwargs):
    """The optimised HLO text of the program GRAPH_MODE compiles for ``cell(*args, **kwargs)``."""
    return compiled_cell(cell).compiled_text(args, kwargs)
