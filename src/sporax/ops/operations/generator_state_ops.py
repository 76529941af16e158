"""``Generator``: MindSpore's private Primitive (``_inner_ops``) that keeps a random-number state.

``Generator(seed, offset)`` holds two scalar Int64 Tensors and answers ``generator(cmd, inputs)``:

==============  ===========================  ==============================================================
cmd             inputs                        effect and result
==============  ===========================  ==============================================================
0 STEP          (seed, offset, step)          ``(seed, offset, None)`` as they were; the offset grows by step
1 SEED          (seed, offset)                a new non-deterministic seed, offset 0; ``(seed,)``
2 GET_STATE     (seed, offset)                ``(None, None, state)``: 16 UInt8, seed then offset, little-endian
3 SET_STATE     (seed, offset, state)         seed and offset read back from ``state``; ``None``
4 MANUAL_SEED   (seed, offset, new_seed)      seed := new_seed, offset 0; ``None``
5 INITIAL_SEED  (seed, offset)                ``(seed,)``
==============  ===========================  ==============================================================

As in MindSpore 2.10, the ``seed``/``offset`` inputs of a call are only counted: the state is the pair given
at construction, which every command reads and writes in place (values and messages recorded from MindSpore
2.10, ``tests/ops/operations/test_generator_state_ops.py``). Each message starts with MindSpore's own text.

Example:
    >>> from sporax import Tensor, int64
    >>> seed, offset = Tensor(3, int64), Tensor(0, int64)
    >>> generator = Generator(seed, offset)
    >>> [int(value) for value in generator(0, (seed, offset, Tensor(5, int64)))[:2]], int(offset)
    ([3, 0], 5)
"""
import numpy as np

from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor
from sporax.ops.primitive import Primitive
from sporax.state.assign import write

STEP, SEED, GET_STATE, SET_STATE, MANUAL_SEED, INITIAL_SEED = range(6)
_COMMANDS = {  # cmd -> (name, the inputs it expects)
    STEP: ("STEP", ("seed", "offset", "step")),
    SEED: ("SEED", ("seed", "offset")),
    GET_STATE: ("GET_STATE", ("seed", "offset")),
    SET_STATE: ("SET_STATE", ("seed", "offset", "state")),
    MANUAL_SEED: ("MANUAL_SEED", ("seed", "offset", "new_seed")),
    INITIAL_SEED: ("INITIAL_SEED", ("seed", "offset")),
}


def _int64_scalar(value, role):
    """``value`` as a Python int, checked as MindSpore's GeneratorImpl checks a seed/offset/step Tensor."""
    expected = f" (For 'Generator', the {role.lower()} must be a one-element Int64 Tensor"
    if not isinstance(value, Tensor):
        raise RuntimeError(f"Invalid tensor input: {role}{expected}, but got {type(value).__name__}.)")
    if value.dtype != mstype.int64:
        raise RuntimeError(f"{role} data type must be Int64, but got {value.dtype}{expected}.)")
    if value.size != 1:
        raise RuntimeError(f"{role} data size must be 1, but got {value.size}{expected}.)")
    return int(value.asnumpy().reshape(()))


class Generator(Primitive):
    """Manage the state of random number generation (``mindspore.ops.operations._inner_ops.Generator``).

    Args:
        seed (Tensor): Int64 scalar, the seed; written in place by SEED, SET_STATE and MANUAL_SEED.
        offset (Tensor): Int64 scalar, the offset; written in place by every command that changes the state.

    Inputs:
        - **cmd** (int) - the operation: 0 STEP, 1 SEED, 2 GET_STATE, 3 SET_STATE, 4 MANUAL_SEED, 5 INITIAL_SEED.
        - **inputs** (tuple[Tensor]) - ``(seed, offset)`` followed by the operand of STEP (step), SET_STATE
          (state) or MANUAL_SEED (new_seed).

    Outputs:
        A tuple ``(seed, offset, state)`` cut to what the command returns (see the module table), or None.
    """

    def __init__(self, seed, offset):
        super().__init__("Generator")
        self.add_prim_attr("side_effect_mem", True)
        _int64_scalar(seed, "Seed")
        _int64_scalar(offset, "Offset")
        self._seed = seed
        self._offset = offset

    def __call__(self, cmd, inputs):
        if not isinstance(cmd, (int, np.integer)):  # a bool passes, as in MindSpore (True is SEED)
            raise RuntimeError(f"For 'Generator', 'cmd' must be an int (0 STEP ... 5 INITIAL_SEED), but got "
                               f"{type(cmd).__name__}.")
        if not isinstance(inputs, tuple):
            raise TypeError(f"For 'Generator', 'inputs' must be a tuple of Tensors, but got {type(inputs).__name__}.")
        if int(cmd) not in _COMMANDS:
            raise RuntimeError(f"Unknown Generator cmd: {cmd} (expected 0 STEP ... 5 INITIAL_SEED)")
        name, expected = _COMMANDS[int(cmd)]
        if len(inputs) != len(expected):
            raise RuntimeError(f"{name} expects {len(expected)} inputs: {', '.join(expected)}.")
        return getattr(self, "_command_" + name.lower())(*inputs[2:])

    def _set(self, seed, offset):
        write(self._seed, Tensor(seed, mstype.int64), "Generator")
        write(self._offset, Tensor(offset, mstype.int64), "Generator")

    def _current(self):
        return _int64_scalar(self._seed, "Seed"), _int64_scalar(self._offset, "Offset")

    def _command_step(self, step):
        step = _int64_scalar(step, "Step")
        seed, offset = self._current()
        self._set(seed, offset + step)
        return Tensor(seed, mstype.int64), Tensor(offset, mstype.int64), None

    def _command_seed(self):
        # MindSpore draws the seed from std::random_device (32-bit values); any 32-bit draw stands in.
        seed = int(np.random.SeedSequence().entropy % 2**32)
        self._set(seed, 0)
        return (Tensor(seed, mstype.int64),)

    def _command_get_state(self):
        state = np.array(self._current(), dtype="<i8").view(np.uint8)
        return None, None, Tensor(state, mstype.uint8)

    def _command_set_state(self, state):
        expected = " (For 'Generator' SET_STATE, the state must be the 16-UInt8 Tensor that GET_STATE returns"
        if not isinstance(state, Tensor):
            raise RuntimeError(f"Invalid tensor input: State{expected}, but got {type(state).__name__}.)")
        if state.dtype != mstype.uint8:
            raise RuntimeError(f"State data type must be UInt8, but got {state.dtype}{expected}.)")
        if state.size != 16:
            raise RuntimeError(f"State data size must be 16, but got {state.size}{expected}.)")
        seed, offset = state.asnumpy().reshape(-1).view("<i8")
        self._set(int(seed), int(offset))

    def _command_manual_seed(self, new_seed):
        self._set(_int64_scalar(new_seed, "Seed"), 0)

    def _command_initial_seed(self):
        return (Tensor(self._current()[0], mstype.int64),)
