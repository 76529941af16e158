"""Lazy gradients: a PyNative gradient call whose results stay pending until something uses them.

A PyNative step is ``loss, grads = grad_fn(x, y)`` then ``optimizer(grads)``. Run as two programs,
the gradients leave XLA as outputs of the first and go in again as inputs of the second. Here a
qualifying gradient call (``eligible``) does not run: it returns ``PendingTensor`` objects (Tensors
whose value slot holds the call and their position) and keeps the call's input arrays and the
read-only states' values it would have read. Then:

* ``optimizer(grads)`` given exactly pending gradients of one call (``update``) runs one program:
  the gradient program, then the update on its results, inside XLA (GRAPH's step program, plus the
  gradient function's other outputs). The loss and other outputs are set from that launch; the
  gradients stay pending;
* any other use of a pending Tensor (``asnumpy``, printing, an eager op, a program argument, a
  hook, a second optimizer call, a read after the update) reads its value slot, which runs the
  gradient program alone on the kept arrays and values (``materialise``) and sets every output of
  the call: the values are those of the call run at once.

A call qualifies when its program is compiled, has no side effect (a host random stream's draw must happen when
the call is made, each call), writes no state (the read-only values it keeps are then all it
reads), returns only Tensors, is small (``deferred.MAX_FUSED_ELEMENTS``, or ``MAX_ELEMENTS`` over at most
``MAX_STATES`` states) and no optimizer update is held back
(``sporax.state.deferred``: that pair runs fused as before), unless the held-back update is the one this
gradient program last ran fused with: it is then applied first (``_resumed``). A (gradient, update) pair is
fused from its second occurrence; the first runs both programs. The fused program does not donate the
Parameters the gradient reads: the kept gradients may still be read, which reruns the gradient program on those
values.
``set_enabled(False)`` turns it off.

Example:
    >>> import numpy as np
    >>> import sporax as ms
    >>> from sporax import nn
    >>> net = nn.Dense(2, 1)
    >>> optimizer = nn.SGD(net.trainable_params(), learning_rate=0.5)
    >>> grad_fn = ms.value_and_grad(lambda x: net(x).sum(), None, optimizer.parameters)
    >>> x = ms.Tensor(np.ones((1, 2), np.float32))
    >>> for _ in range(3):
    ...     loss, grads = grad_fn(x)
    ...     _ = optimizer(grads)
    >>> grads[1].asnumpy().tolist()  # the last call's bias gradient, computed when read
    [1.0]
"""
import operator
import threading

import jax

from sporax.core import jax_private, parameter as parameter_module
from sporax.core.tensor import Tensor
from sporax.state import deferred
from sporax.state.arguments import signature
from sporax.state.discovery import change_count
from sporax.state.parameter_storage import after_store
from sporax.state.program import unshared

_settings = {"enabled": True}
_lock = threading.RLock()  # a reader on another thread waits for the run that sets the values
_read_slot = parameter_module.read_slot
_write_slot = parameter_module.write_slot
_new_object = object.__new__


def set_enabled(enabled):
    """Return pending results from qualifying PyNative gradient calls (on by default)."""
    _settings["enabled"] = bool(enabled)


def enabled():
    """Whether qualifying PyNative gradient calls return pending results."""
    return _settings["enabled"]


class PendingTensor(Tensor):
    """An output of a gradient call that has not run: reading or writing its value runs the call first
    (``materialise``); it then becomes a plain ``Tensor`` (the same object)."""

    __slots__ = ()

    @property
    def _array(self):
        with _lock:
            if type(self) is PendingTensor:
                record, index = _read_slot(self)
                leaf = record.leaves[index]
                if leaf is None:
                    materialise(record)
                    leaf = record.leaves[index]
                _write_slot(self, leaf)
                self.__class__ = Tensor
        return _read_slot(self)

    @_array.setter
    def _array(self, array):
        with _lock:
            self.__class__ = Tensor
            _write_slot(self, array)


def _flatten(tensor):
    return (tensor._value,), None


jax.tree_util.register_pytree_node(PendingTensor, _flatten, lambda _, children: Tensor._wrap(children[0]))


class _Call:
    """A held-back gradient call: its program, input arrays, read-only states' values, and the output
    leaves known so far (each PendingTensor takes its own when first used)."""

    __slots__ = ("program", "arrays", "readonly", "leaves", "updated")

    def __init__(self, program, arrays, readonly):
        self.program = program
        self.arrays = arrays
        self.readonly = readonly
        self.leaves = [None] * len(program.output_avals)
        self.updated = False  # an optimizer step took its gradients (they stay pending)


def eligible(program):
    """Whether calls of the just built gradient ``program`` may return pending results (see the module doc)."""
    return (program.tensor_structure is not None and not program.eager and not program.world
            and not program.prints and not program.effects and not program.attributes and not program.written
            and (program.size <= deferred.MAX_FUSED_ELEMENTS
                 or (program.size <= MAX_ELEMENTS and len(program.readonly) <= MAX_STATES))
            and jax.process_count() == 1)


def call(program, arrays):
    """``program(arrays)``: pending results when enabled and the call qualifies, else run at once."""
    qualifies = program.lazy
    if qualifies is None:
        qualifies = program.lazy = eligible(program)
    if (not qualifies or not _settings["enabled"] or jax_private.is_transforming()
            or (parameter_module.deferred_update is not None and not _resumed(program))):
        return program(arrays)
    # No update is pending, and a program's states are never PendingTensors (a state's value was read when
    # the program was built, and a PendingTensor never becomes pending again): the slots hold the values.
    record = _Call(program, arrays, list(map(_read_slot, program.readonly)))
    tensors = []
    for index in range(len(record.leaves)):
        tensor = _new_object(PendingTensor)
        _write_slot(tensor, (record, index))
        tensor._init = None
        tensors.append(tensor)
    return program.tensor_structure.unflatten(tensors)  # the treedef's own method: one call fewer


def _resumed(program):
    """Whether the held-back update (``sporax.state.deferred``) was applied now so that this call of the gradient
    ``program`` may be pending: when it is the update this program last ran fused with.

    Why: a pending call needs no update held back, and a gradient call that runs at once gives the optimizer
    plain gradients, whose update is then held back again: without this, one step that took the deferred path
    (its gradients read before the optimizer, another network's update held back when the loop started) kept
    every later step on it (two programs fused by ``deferred``, not one pending step: issue 26, the tiny-MLP
    benchmark's PyNative loop ran none of its steps fused after its first round, ``benchmarks/pynative_measured.md``
    session 18). After ``MAX_RESUMES`` in a row that did not end in a fused step (the gradients are read before
    every update), the deferred pair runs as before.
    """
    last = program.lazy_last
    if last is None or program.lazy_resumes >= MAX_RESUMES or deferred.pending_program() is not last[4]:
        return False
    program.lazy_resumes += 1
    deferred.flush(resumed=True)
    return parameter_module.deferred_update is None


def materialise(record):
    """Run the held-back call on its own: every output's value is then known."""
    with _lock:
        if record.arrays is None:
            return
        with deferred.concrete():  # concrete values even when a read inside some trace needs them
            leaves, _ = record.program._donating([], record.readonly, record.arrays)
        record.leaves = list(leaves)
        record.arrays = record.readonly = None


# A gradient program over more than deferred.MAX_FUSED_ELEMENTS elements still returns pending results when it
# reads at most MAX_STATES states (an MLP's few weight matrices: its fused step is a short compile, unlike a
# deep network's second whole-step program) and at most MAX_ELEMENTS elements, and so does an update that large.
# Measured (issue 26, benchmarks/pynative_measured.md session 33): the seed MLP's step (0.7 million weights,
# 19 states of SGD) fused 0.89-0.90x -> 1.00-1.02x GRAPH in CPU time: its gradients no longer leave XLA.
MAX_ELEMENTS = 1 << 23
MAX_STATES = 16
MAX_RESUMES = 3  # see _resumed
_SEEN = "seen"  # the pair occurred once: fuse it the next time
_NEVER = "never"


class _Placeholder:
    """A gradient's shape and dtype where the optimizer's program lookup takes its array (``aval``, as a
    ``jax.Array``'s, is what the signature reads)."""

    __slots__ = ("shape", "dtype")

    def __init__(self, aval):
        self.shape, self.dtype = aval.shape, aval.dtype

    @property
    def aval(self):
        return self


class NotBuilt(Exception):
    """The update program for pending gradients is not compiled yet (it is built from real arrays)."""


def not_built(*_):
    raise NotBuilt()


def update(gradients, compiled):
    """``optimizer(gradients)`` for a tuple of PendingTensors: ``(True, outputs)`` when it ran fused with
    their gradient call, else ``(False, defer)``: the gradients are then plain Tensors holding their values
    and the caller runs the update itself, held back only when ``defer`` (not on a pair's first occurrence,
    so that the next gradient call may be pending again).

    ``compiled``: the optimizer's ``ProgramCache``.
    """
    with _lock:
        record = _read_slot(gradients[0])[0] if type(gradients[0]) is PendingTensor else None
        positions = []
        for tensor in gradients:
            slot = _read_slot(tensor) if type(tensor) is PendingTensor else None
            if slot is None or slot[0] is not record:
                defer = True
                break
            positions.append(slot[1])
        else:
            fused, result = _update(record, tuple(positions), compiled)
            if fused:
                return True, result
            defer = result
        for tensor in gradients:
            if type(tensor) is PendingTensor:
                tensor._array  # noqa: B018 - the read sets its value
        return False, defer


def _update(record, positions, compiled):
    gradient = record.program
    if record.updated or record.arrays is None:
        return False, True
    count = change_count()
    last = gradient.lazy_last
    # The straight path of a training loop: the same optimizer on the same gradients as the last step, and
    # nothing its program lookup reads (Cell trees, training flags, hooks) changed since.
    if last is not None and last[0] is compiled and last[1] == positions and last[2] == count:
        return _run_step(record, gradient, last[3], last[4], last[5])
    placeholders = gradient.lazy_placeholders.get(positions)
    if placeholders is None:
        arguments = (tuple(Tensor._wrap(_Placeholder(gradient.output_avals[i])) for i in positions),)
        placeholders = gradient.lazy_placeholders[positions] = (arguments, signature(arguments, {}))
    try:
        program, arrays = compiled.lookup(placeholders[0], {}, not_built, signed=placeholders[1])
    except NotBuilt:  # the first update of these gradients: both run now, the next call may be pending again
        return False, False
    # The optimizer's arrays must be the gradients alone (list equality: identity of each placeholder).
    if (program.eager or not program.deferrable or program.size > MAX_ELEMENTS or program.argument_writes
            or program.prints
            or arrays != placeholders[1][1]):
        return False, True
    key = (program, positions)
    step = gradient.lazy_steps.get(key)
    if step is None:  # the pair's first occurrence: both run now, the next gradient call may be pending again
        gradient.lazy_steps[key] = _SEEN
        return False, False
    if step is _NEVER:
        return False, True
    if step is _SEEN:
        step = gradient.lazy_steps[key] = _Step(gradient, program, positions)
    gradient.lazy_last = (compiled, positions, count, step, program, key)
    return _run_step(record, gradient, step, program, key)


def _run_step(record, gradient, step, program, key):
    if parameter_module.deferred_update is not None:  # another optimizer's update is held back: apply it
        parameter_module.deferred_update()
    current = list(map(_read_slot, gradient.readonly))
    if any(map(operator.is_not, current, record.readonly)):
        return False, True  # a Parameter changed since the gradient call: it runs on the values it was called with
    try:
        step(record, current)
    except Exception:  # noqa: BLE001 - nothing was written: the two programs run one after the other
        gradient.lazy_steps[key] = _NEVER
        gradient.lazy_last = None
        return False, True
    gradient.lazy_resumes = 0
    return True, program.constant_output[0]


class _Step:
    """A gradient program and an optimizer update on its gradients as one launch.

    Inputs: the update's written states the gradient program does not read (donated), those it reads
    (kept: the pending gradients may still be read, and the gradient program then reruns on them), the
    gradient program's other read-only states, the update's other read-only states, the gradient
    call's arrays.
    """

    __slots__ = ("update", "donated", "kept", "gradient_only", "readonly", "others", "stored", "_donating")

    def __init__(self, gradient, update, positions):
        reads = {id(state): index for index, state in enumerate(gradient.readonly)}
        written = {id(state) for state in update.written}
        self.update = update
        self.donated = [state for state in update.written if id(state) not in reads]
        # The new values come back donated states first, in the donated inputs' order: JAX gives a donated
        # input's buffer to the first output of its shape, so in the update's own order (weights before
        # their moments, of the same shapes) the moments' buffers went to the new weights and XLA copied
        # every moment (the tiny MLP: 6 copies a step, ~7 us of its CPU time; issue 26).
        self.stored = self.donated + [state for state in update.written if id(state) in reads]
        update_place = {id(state): index for index, state in enumerate(update.written)}
        stored_order = [update_place[id(state)] for state in self.stored]
        self.kept = [reads[id(state)] for state in update.written if id(state) in reads]
        self.gradient_only = [index for index, state in enumerate(gradient.readonly) if id(state) not in written]
        self.readonly = [state for state in update.readonly if id(state) not in written and id(state) not in reads]
        self.others = [index for index in range(len(gradient.output_avals)) if index not in positions]
        place = {id(state): index for index, state in enumerate(self.donated)}
        for index in self.kept + self.gradient_only:
            place[id(gradient.readonly[index])] = len(place)
        for state in self.readonly:
            place[id(state)] = len(place)
        gradient_reads = [place[id(state)] for state in gradient.readonly]
        update_written = [place[id(state)] for state in update.written]
        update_reads = [place[id(state)] for state in update.readonly]
        others = self.others

        def final(donated, kept, gradient_values, update_values, arrays):
            values = list(donated) + list(kept) + list(gradient_values) + list(update_values)
            leaves, _ = gradient._final([], [values[i] for i in gradient_reads], arrays)
            _, new_values = update._final([values[i] for i in update_written], [values[i] for i in update_reads],
                                          [leaves[i] for i in positions])
            return [leaves[i] for i in others], [new_values[i] for i in stored_order]

        self._donating = jax.jit(final, donate_argnums=(0,))

    def __call__(self, record, current):
        """Run the step of ``record``'s call; ``current``: the gradient program's read-only states' values."""
        # no update is held back (checked by the caller)
        donated = unshared(list(map(_read_slot, self.donated)))
        leaves, new_values = self._donating(donated, [current[i] for i in self.kept], [current[i] for i in self.gradient_only],
                                      list(map(_read_slot, self.readonly)), record.arrays)
        record.updated = True
        any(map(_write_slot, self.stored, new_values))  # Parameters (deferrable): each returns None
        after_store(self.stored)
        for index, leaf in zip(self.others, leaves):
            record.leaves[index] = leaf
