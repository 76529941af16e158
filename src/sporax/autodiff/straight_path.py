"""The straight path of a repeated PyNative gradient call (issue 26: the host time of a small step).

A PyNative gradient call checks, every time, what could make it run differently: the no-grad mode, the
context mode, hooks on its inputs, on the Parameters and on the Cells it reaches, saved-tensor hooks, the
objects its function references (discovery) and the globals it reads, then looks its program up by the
inputs' signature. On a training loop none of these move between steps. ``StraightPath`` keeps what one
compiled call decided, and the next call with inputs of the same marks (``arguments.plain_marks``) takes
its program after a handful of identity tests:

* ``discovery.change_count()``: one counter that moves when any hook (Tensor, Cell, saved-tensor) is
  registered, removed, entered or left, when a Cell tree changes, or a ``training`` flag is set;
* the thread (saved-tensor hooks are per thread: the count moved when this thread entered them);
* the function's code and defaults, and what it reads from outside its arguments, by identity (a rebound
  global or closure variable, one of a helper it calls, a module, object or Cell attribute, a list element;
  ``reuse.references_snapshot``): what the discovery walk and the program key read from it;
* the no-grad mode, the context mode, a trace in progress, and hooks on the inputs themselves (a Tensor
  hooked before the call was remembered): one test each.

Anything else takes the full path, which remembers again. The program runs as the full path runs it
(``sporax.state.lazy.call``): the same values, hooks and prints where they exist.

Example:
    >>> import numpy as np
    >>> import sporax as ms
    >>> net = ms.nn.Dense(2, 1)
    >>> grad_fn = ms.value_and_grad(lambda x: net(x).sum(), None, net.trainable_params())
    >>> x = ms.Tensor(np.ones((1, 2), np.float32))
    >>> first, second = grad_fn(x), grad_fn(x)  # the second call takes the straight path
    >>> float(first[0]) == float(second[0])
    True
"""
from threading import get_ident

from sporax.autodiff.tensor_hooks import _leaf_tables, has_leaf_hooks
from sporax.core.context import GRAPH_MODE, _context
from sporax.core.grad_mode import disabled as _grad_disabled
from sporax.state import lazy
from sporax.state.arguments import plain_marks
from sporax.state.discovery import _changes, change_count
from sporax.state.reuse import references_snapshot, references_unchanged
from sporax.state.scope import _stack as _scopes

MISSED = object()  # ``run``'s answer when the call must take the full path


def remember(fn, reads, args, group, program, positions):
    """The ``StraightPath`` of a compiled PyNative call of ``fn`` on ``args`` (None when ``args`` are not
    plain Tensors, or tuples of them); ``reads``: the ``OutsideReads`` of ``fn`` the program was looked up by."""
    plain = plain_marks(args)
    references = references_snapshot(fn, reads)
    if plain is None or references is None:
        return None
    return StraightPath(references, plain[1], group, program, bool(positions), reads.identities)


class StraightPath:
    """What one compiled PyNative gradient call decided, re-checked by identity on the next call.

    Args:
        references (tuple): ``reuse.references_snapshot`` of the differentiated function or Cell.
        marks (list): the call's ``plain_marks``.
        group: its ``ProgramCache`` group.
        program: the compiled gradient program.
        distinct (bool): the call differentiates inputs, each a different Tensor: a later call must pass
            distinct Tensors too (a repeated one sums its gradients: another program).
        identities (frozenset): ``OutsideReads.identities`` of the function: a later input among them runs eagerly.
    """

    __slots__ = ("count", "thread", "marks", "programs", "group", "program", "distinct", "references", "identities")

    def __init__(self, references, marks, group, program, distinct, identities=frozenset()):
        self.count = change_count()
        self.thread = get_ident()
        self.marks = marks
        self.group = group
        self.programs = group.programs
        self.program = program
        self.distinct = distinct
        self.references = references
        self.identities = identities

    def run(self, args):
        """The call's outputs on ``args``, or ``MISSED`` when something it relied on moved."""
        # The module-level states behind change_count(), grad_disabled(), is_tracing(), get_mode() and
        # has_leaf_hooks() are read directly: this runs once per training step (issue 26).
        if self.count != _changes[0] or self.thread != get_ident():
            return MISSED
        plain = plain_marks(args)
        if plain is None or plain[1] != self.marks or (self.distinct and len(set(map(id, args))) != len(args)) or (
                self.identities and not self.identities.isdisjoint(map(id, args))):  # its Python compares inputs
            return MISSED
        if (_grad_disabled[0] > 0 or _scopes.scopes or _context["mode"] == GRAPH_MODE
                or (_leaf_tables and has_leaf_hooks(args)) or self.group.programs is not self.programs
                or not references_unchanged(self.references)):
            return MISSED
        return lazy.call(self.program, plain[0])
