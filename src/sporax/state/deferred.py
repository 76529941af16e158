"""Deferred updates: a PyNative optimizer step launched together with the next program.

A PyNative training step is two calls: ``grads = grad_fn(x, y)`` (one compiled program) and
``optimizer(grads)`` (another). On a small network the second launch is a large part of the
step. So an optimizer call whose program qualifies (``deferrable``: compiled, its outputs known
without running it, every state a Parameter, small) does not run at once: it is recorded as
*pending* and returns its (static) outputs. Then:

* the next compiled program that is called (the next ``grad_fn(x, y)``) runs as one XLA program
  that first applies the pending update and then computes its own results from the updated
  values (``Fused``): one launch per step, and the values are those of the two programs run one
  after the other (the same operations on the same inputs);
* anything else that touches a Parameter's value first applies the pending update on its own
  (``flush``): a read (``asnumpy``, printing, an eager op, a checkpoint), a write (``set_data``,
  ``assign``), a program that is not fused. ``Parameter``'s value slot calls ``flush`` while an
  update is pending (``sporax.core.parameter.deferred_update``), so a Parameter read after the
  optimizer call always sees the update, as in MindSpore.

A pair (pending update, next program) is fused from its second occurrence (a program called once
after an update, such as an evaluation, does not compile a fused variant), and only while both
programs are small (``MAX_FUSED_ELEMENTS``): on a large network a launch is a negligible part of
the step and the fused variant would be one more long compile. ``set_enabled(False)`` turns
deferral off (every optimizer call then runs at once).

Example:
    >>> import numpy as np
    >>> import sporax as ms
    >>> from sporax import nn
    >>> net = nn.Dense(2, 1)
    >>> optimizer = nn.SGD(net.trainable_params(), learning_rate=0.5)
    >>> grad_fn = ms.value_and_grad(lambda x: net(x).sum(), None, optimizer.parameters)
    >>> x = ms.Tensor(np.ones((1, 2), np.float32))
    >>> before = net.bias.asnumpy().copy()
    >>> for _ in range(3):
    ...     loss, grads = grad_fn(x)
    ...     _ = optimizer(grads)
    >>> float((before - net.bias.asnumpy())[0])  # three updates of 0.5 * 1.0, read after the last
    1.5
"""
import contextlib
import threading

import jax
import numpy as np

from sporax.core import jax_private, parameter as parameter_module
from sporax.core.parameter import Parameter
from sporax.state.parameter_storage import after_store, linked

# A program whose held-back updates were applied on their own this many times in a row (something
# reads the Parameters after every update, or the next program is not fused) runs at once from then on.
MAX_UNFUSED_UPDATES = 3

# Pairs whose states and inputs hold more elements than this (the tiny MLP ~15 thousand, the seed
# MLP 784-512-512-10 ~0.7 million with its moments) are not fused: there a launch (~10 us) is a
# negligible part of the step (measured: the seed MLP's step was no faster fused, 0.94-0.99x GRAPH
# either way), and compiling a fused variant of a large network would take seconds.
MAX_FUSED_ELEMENTS = 1 << 18

_settings = {"enabled": True}
_lock = threading.RLock()  # a reader on another thread waits until the update is applied
_pending = None  # the pending _Update


def concrete():
    """A context in which a program called now runs on its concrete inputs: ``jax.ensure_compile_time_eval``
    inside a trace (a read inside some trace may apply a held-back call), nothing outside one. Outside a trace
    the context would only change the jitted call's trace key (its ``eager_constant_folding``): the program
    was then traced and compiled again, once inside the context and once outside, every time a loop took
    the other path (issue 26: ~60 ms each time a PyNative loop followed another network's held-back update)."""
    return jax.ensure_compile_time_eval() if jax_private.is_transforming() else contextlib.nullcontext()


def set_enabled(enabled):
    """Defer qualifying optimizer updates to the next program launch (on by default); off applies any pending one."""
    if not enabled:
        flush()
    _settings["enabled"] = bool(enabled)


def enabled():
    """Whether qualifying optimizer updates are deferred."""
    return _settings["enabled"]


class _Update:
    """A program call held back: the program, its call's arrays and its read-only states' values at the call."""

    __slots__ = ("program", "arrays", "readonly", "running")

    def __init__(self, program, arrays):
        self.program = program
        self.arrays = arrays
        self.readonly = list(map(parameter_module.read_slot, program.readonly))  # nothing is pending now
        self.running = False


def deferrable(program, constant_outputs):
    """Whether calls of the just built ``program`` may be held back: compiled, not a world program, its
    outputs known without running it (``constant_outputs``: ``True``, ``None``), every state it writes a
    Parameter (a plain Tensor's slot does not apply a pending update when read; the read-only ones are
    taken at the call). Only a small one is held back (``defer``); a larger one may still run fused with the
    pending gradients it updates (``sporax.state.lazy``)."""
    return (constant_outputs and not program.eager and not program.world
            and all(isinstance(state, Parameter) for state in program.written))


def defer(program, arrays):
    """Hold back ``program(arrays)`` until the next program launch or Parameter access; True when held.

    The caller returns ``program.constant_output[0]`` (the outputs are constants). An update already pending
    is applied first, so updates keep their order.
    """
    global _pending
    if (not _settings["enabled"] or not program.deferrable or program.size > MAX_FUSED_ELEMENTS
            or program.unfused_updates >= MAX_UNFUSED_UPDATES
            or jax_private.is_transforming() or linked(program.written)):
        return False  # (a held ``p.data`` is a plain Tensor: reading it would not apply the update)
    with _lock:
        if _pending is not None:
            flush()
        _pending = _Update(program, arrays)
        parameter_module.deferred_update = flush
    return True


def pending_program():
    """The program of the update held back now, or None."""
    update = _pending
    return None if update is None else update.program


def _clear():
    global _pending
    _pending = None
    parameter_module.deferred_update = None


def flush(resumed=False):
    """Apply the pending update now, on its own (nothing when none is pending). ``resumed``: applied so that the
    next gradient call may be pending (``sporax.state.lazy``): not counted as an update that could not fuse."""
    with _lock:
        update = _pending
        if update is None or update.running:
            return  # none, or being applied by this thread (its own reads of the states)
        update.running = True
        update.program.unfused_updates += not resumed
        try:
            with concrete():  # concrete values even when a read inside some trace triggers the update
                update.program.run(update.arrays, update.readonly)
        finally:
            _clear()


class Fused:
    """Two programs as one launch: ``first`` (a pending update) then ``second`` on the updated states.

    Args:
        first (Program): the held-back program (its outputs are static).
        second (Program): the program called next.

    The states either program writes are donated (one buffer each, the new values written back
    once); ``first`` reads its read-only states as they were when it was called.
    """

    __slots__ = ("written", "readonly", "_donating")

    def __init__(self, first, second):
        written = list(first.written)
        position = {id(state): index for index, state in enumerate(written)}
        for state in second.written:
            if id(state) not in position:
                position[id(state)] = len(written)
                written.append(state)
        count = len(written)
        readonly = []
        for state in second.readonly:
            if id(state) not in position:
                position[id(state)] = count + len(readonly)
                readonly.append(state)
        self.written, self.readonly = written, readonly
        first_written = [position[id(state)] for state in first.written]
        second_written = [position[id(state)] for state in second.written]
        second_readonly = [position[id(state)] for state in second.readonly]

        def final(written_values, first_readonly, readonly_values, first_arrays, second_arrays):
            values = list(written_values) + list(readonly_values)
            _, new_values = first._final([values[i] for i in first_written], first_readonly, first_arrays)
            for index, value in zip(first_written, new_values):
                values[index] = value
            leaves, new_values = second._final([values[i] for i in second_written],
                                               [values[i] for i in second_readonly], second_arrays)
            for index, value in zip(second_written, new_values):
                values[index] = value
            return leaves, values[:count]

        self._donating = jax.jit(final, donate_argnums=(0,))

    def __call__(self, update, second_arrays, unshared):
        read = parameter_module.read_slot
        old = unshared(list(map(read, self.written)))
        readonly = list(map(read, self.readonly))
        leaves, new_values = self._donating(old, update.readonly, readonly, update.arrays, second_arrays)
        any(map(parameter_module.write_slot, self.written, new_values))  # each returns None: all run
        after_store(self.written)
        return leaves


def run_after_pending(program, arrays, unshared):
    """``program(arrays)``'s output leaves, run in one launch with the pending update; None when the
    pair is not fused (the update has then been applied, and the caller runs ``program`` itself)."""
    with _lock:
        update = _pending
        if update is None or update.running:
            return None
        fused = program.fused_with.get(update.program)
        if fused is None:
            # First occurrence of the pair (or a pair that cannot fuse): apply the update on its own.
            small = update.program.size + program.size + _elements(update.arrays) + _elements(arrays) \
                <= MAX_FUSED_ELEMENTS
            fusable = small and not program.eager and not program.world and _settings["enabled"]
            program.fused_with[update.program] = _SEEN if fusable else _NEVER
            flush()
            return None
        if fused is _NEVER:
            flush()
            return None
        if fused is _SEEN:
            fused = program.fused_with[update.program] = Fused(update.program, program)
        update.running = True
        try:
            leaves = fused(update, arrays, unshared)
        except Exception:  # noqa: BLE001 - nothing was written: apply the update alone, then the caller runs
            program.fused_with[update.program] = _NEVER
            update.running = False
            flush()
            return None
        update.program.unfused_updates = 0
        _clear()
        return leaves


def _elements(arrays):
    return sum(int(np.size(array)) for array in arrays)


_SEEN = "seen"  # the pair occurred once: fuse it the next time
_NEVER = "never"  # the pair is not fused
