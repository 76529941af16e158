"""Adapters around an op-table entry's runner (``face_runners.runner``): results written into the inputs
MindSpore updates in place (``storing``, ``updating``, through the state layer's ``write``), and inputs that may
be one Tensor instead of a sequence of them (``one_or_many``), and settings that must be constants when
compiled (``constant_settings``).

Example:
    >>> import numpy as np
    >>> from sporax import Parameter, Tensor
    >>> from sporax.ops.op_table import TABLE
    >>> from sporax.ops.face_runners import runner
    >>> weight = Parameter(Tensor(np.zeros(2, np.float32)), name="weight")
    >>> _ = storing(TABLE["assign"], runner(TABLE["assign"]))(weight, Tensor(np.ones(2, np.float32)))
    >>> weight.asnumpy().tolist()
    [1.0, 1.0]
"""
import jax

from sporax.core.tensor import Tensor
from sporax.ops._dispatch import describe
from sporax.state.assign import write


def storing(entry, run, leading=0):
    """``run`` that stores its result into the input ``entry.writes`` (in place) and returns that input;
    ``leading`` arguments come before the op's own (``with_key``'s key)."""
    name, op_name, snapshot = entry.writes, entry.name, entry.snapshot
    position = list(entry.signature.parameters).index(name) + leading
    store = entry.writer or write  # ``assign``: MindSpore's Assign gradient (``Op.writer``)

    def run_and_store(*values):
        if not isinstance(values[position], Tensor):
            raise TypeError(f"For '{op_name}', '{name}' must be a Parameter (it is updated in place), but got "
                            f"{describe(values[position])}.")
        stored = store(values[position], run(*values), op_name)
        return Tensor._wrap(stored._array) if snapshot else stored  # ``Op.snapshot``: a new Tensor of its value

    return run_and_store


def updating(entry, run):
    """``run`` that stores the new values its kernel returns beside the result into the inputs ``entry.updates``
    (in place) and returns the result."""
    names, op_name = list(entry.signature.parameters), entry.name
    targets = [(names.index(name), name) for name in entry.updates]

    def run_and_update(*values):
        result, *new_values = run(*values)
        for (position, name), value in zip(targets, new_values):
            if value._array is None or values[position] is None:  # the kernel left this input as it is (None)
                continue
            if not isinstance(values[position], Tensor):
                raise TypeError(f"For '{op_name}', '{name}' must be a Tensor or Parameter (it is updated in place), "
                                f"but got {describe(values[position])}.")
            write(values[position], value, op_name)
        return result

    return run_and_update


def one_or_many(entry, run):
    """``run`` whose inputs ``entry.one_or_many`` may each be one Tensor instead of a tuple or list of them: it
    reaches the kernel as a one-tuple, and the one output of the kernel's tuple is returned alone."""
    names = list(entry.signature.parameters)
    positions = [names.index(name) for name in entry.one_or_many]

    def run_one_or_many(*values):
        if all(isinstance(values[position], (tuple, list)) for position in positions if position < len(values)):
            return run(*values)
        values = list(values)
        for position in positions:
            if position < len(values) and not isinstance(values[position], (tuple, list)):
                values[position] = (values[position],)
        result = run(*values)
        return result[0] if isinstance(result, tuple) and len(result) == 1 else result

    return run_one_or_many


def constant_settings(entry, run):
    """``run`` that refuses a value of ``entry.constant_settings`` known only when a compiled function runs."""
    op_name = entry.name
    positions = [(list(entry.signature.parameters).index(name), name) for name in entry.constant_settings]

    def run_with_constants(*values):
        for position, name in positions:
            value = values[position] if position < len(values) else None
            if isinstance(value, Tensor) and isinstance(value._value, jax.core.Tracer):
                raise RuntimeError(f"For '{op_name}', the '{name}' is a unknown variable, which is not supported "
                                   "now: it decides how many outputs there are, so it must be a constant when the "
                                   "function is compiled (pass a plain Python int, not mutable(...) or a Tensor).")
        return run(*values)

    return run_with_constants
