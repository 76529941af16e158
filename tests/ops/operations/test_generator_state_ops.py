"""``_inner_ops.Generator`` (the random-state Primitive mindnlp's mindtorch builds) against MindSpore 2.10.

Every value and message below was recorded from MindSpore 2.10 (``/tmp/ms``) with the same calls.
"""
import numpy as np
import pytest

from sporax import Tensor, int32, int64, uint8
from sporax.ops.operations.generator_state_ops import Generator
from tests.compat.test_hook import hook  # noqa: F401  (the shared install/uninstall fixture)


def _int(value):
    return Tensor(value, int64)


def _values(result):
    return [None if item is None else item.asnumpy().tolist() for item in result]


def test_commands_read_and_write_the_state_given_at_construction():
    seed, offset = _int(3), _int(4)
    generator = Generator(seed, offset)
    other_seed, other_offset = _int(10), _int(20)
    # STEP returns the state as it was and advances the constructor's offset, not the call's inputs.
    assert _values(generator(0, (other_seed, other_offset, _int(2)))) == [3, 4, None]
    assert (int(seed), int(offset), int(other_seed), int(other_offset)) == (3, 6, 10, 20)
    assert generator(4, (other_seed, other_offset, _int(9))) is None  # MANUAL_SEED: seed 9, offset back to 0
    assert (int(seed), int(offset)) == (9, 0)
    assert _values(generator(0, (seed, offset, _int(5)))) == [9, 0, None]
    state = generator(2, (seed, offset))  # GET_STATE: seed then offset, Int64 little-endian bytes
    assert state[:2] == (None, None) and state[2].dtype == uint8
    assert state[2].asnumpy().tolist() == [9, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0]
    assert _values(generator(0, (seed, offset, _int(-3)))) == [9, 5, None]
    assert generator(3, (seed, offset, state[2])) is None  # SET_STATE
    assert (int(seed), int(offset)) == (9, 5)
    assert _values(generator(5, (seed, offset))) == [9]  # INITIAL_SEED: the current seed
    # A 16-byte state of any shape: bytes 0..7 are the seed 506097522914230528, 8..15 the offset.
    assert generator(3, (seed, offset, Tensor(np.arange(16, dtype=np.uint8).reshape(4, 4)))) is None
    assert (int(seed), int(offset)) == (506097522914230528, 1084818905618843912)


def test_seed_command_draws_a_seed_and_resets_the_offset():
    seed, offset = _int(1), _int(8)
    generator = Generator(seed, offset)
    (drawn,) = generator(True, (seed, offset))  # MindSpore takes True as cmd 1 (SEED)
    assert drawn.dtype == int64 and 0 <= int(drawn) < 2**32
    assert (int(seed), int(offset)) == (int(drawn), 0)


@pytest.mark.parametrize("cmd, inputs, error, message", [
    (7, (_int(0), _int(0)), RuntimeError, "Unknown Generator cmd: 7"),
    (-1, (_int(0), _int(0)), RuntimeError, "Unknown Generator cmd: -1"),
    (0, (_int(0), _int(0)), RuntimeError, "STEP expects 3 inputs: seed, offset, step."),
    (0, (_int(0), _int(0), _int(1), _int(2)), RuntimeError, "STEP expects 3 inputs: seed, offset, step."),
    (1, (_int(0),), RuntimeError, "SEED expects 2 inputs: seed, offset."),
    (2, (_int(0),), RuntimeError, "GET_STATE expects 2 inputs: seed, offset."),
    (3, (_int(0), _int(0)), RuntimeError, "SET_STATE expects 3 inputs: seed, offset, state."),
    (4, (_int(0), _int(0)), RuntimeError, "MANUAL_SEED expects 3 inputs: seed, offset, new_seed."),
    (5, (_int(0), _int(0), _int(1)), RuntimeError, "INITIAL_SEED expects 2 inputs: seed, offset."),
    (0, (_int(0), _int(0), 5), RuntimeError, "Invalid tensor input: Step"),
    (0, (_int(0), _int(0), Tensor(2, int32)), RuntimeError, "Step data type must be Int64, but got Int32"),
    (4, (_int(0), _int(0), 5), RuntimeError, "Invalid tensor input: Seed"),
    (4, (_int(0), _int(0), Tensor(3, int32)), RuntimeError, "Seed data type must be Int64, but got Int32"),
    (3, (_int(0), _int(0), 5), RuntimeError, "Invalid tensor input: State"),
    (3, (_int(0), _int(0), Tensor(np.zeros(8, np.uint8))), RuntimeError, "State data size must be 16, but got 8"),
    (3, (_int(0), _int(0), Tensor(np.zeros(16, np.int64))), RuntimeError,
     "State data type must be UInt8, but got Int64"),
])
def test_bad_commands_raise_mindspore_messages(cmd, inputs, error, message):
    seed, offset = _int(1), _int(2)
    # sporax's messages start with MindSpore's text and go on to say what was expected.
    with pytest.raises(error, match="^" + message.replace(".", r"\.")):
        Generator(seed, offset)(cmd, inputs)
    assert (int(seed), int(offset)) == (1, 2)  # a refused command leaves the state alone


@pytest.mark.parametrize("seed, offset, message", [
    (1, _int(2), "Invalid tensor input: Seed"),
    (_int(1), 2, "Invalid tensor input: Offset"),
    (_int(1), Tensor(2, int32), "Offset data type must be Int64, but got Int32"),
    (Tensor(np.array([1, 2], np.int64)), _int(0), "Seed data size must be 1, but got 2"),
])
def test_construction_checks_the_state_tensors(seed, offset, message):
    with pytest.raises(RuntimeError, match="^" + message):
        Generator(seed, offset)


def test_no_argument_construction_fails_as_mindnlp_mindtorch_meets_it(hook):
    # mindtorch (mindnlp 0.5) builds `Generator()` at import; MindSpore 2.10 raises this TypeError there.
    from mindspore.ops.operations._inner_ops import Generator as served

    assert served is Generator
    with pytest.raises(TypeError, match="missing 2 required positional arguments: 'seed' and 'offset'"):
        served()
    assert served(_int(0), _int(0)).attrs["side_effect_mem"] is True


def test_under_jit_the_state_steps_per_call_but_graph_shapes_differ():
    """PyNative/GRAPH difference pinned: MindSpore 2.10's jit also advances the state once per call (results
    3 then 5, offset 4 then 6, recorded) but returns the step's outputs with shape (1,); sporax runs the
    host-side command eagerly inside jit (a fallback warning), so they stay scalars, as in PyNative."""
    import sporax
    from sporax import Parameter

    seed = Parameter(_int(0), name="seed", requires_grad=False)
    offset = Parameter(_int(0), name="offset", requires_grad=False)
    generator = Generator(seed, offset)
    step = _int(2)

    @sporax.jit
    def stepped(x):
        seed_now, offset_now = generator(0, (seed, offset, step))[:2]
        return x + seed_now + offset_now

    with pytest.warns(Warning, match=r"runs '\S*stepped' eagerly"):
        assert int(stepped(_int(1))) == 1
    second, third = stepped(_int(1)), stepped(_int(1))
    assert (int(second), int(third), int(seed), int(offset)) == (3, 5, 0, 6)
    assert second.shape == ()  # MindSpore GRAPH: (1,)
