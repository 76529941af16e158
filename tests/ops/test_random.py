"""Random ops beyond the op table's checks (tests/ops/test_op_table.py draws every random entry against its
distribution, face by face under one seed): op seeds, errors, dropout rules, state under jit."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

from sporax import ops
from sporax.core import dtype as mstype
from sporax.core import random_state
from sporax.core.tensor import Tensor


def test_op_seed_changes_the_stream():
    random_state.set_seed(1)
    plain = ops.rand(3)
    random_state.set_seed(1)
    seeded = ops.rand(3, seed=5)
    assert not np.array_equal(plain.asnumpy(), seeded.asnumpy())


def test_dropout_is_identity_in_eval_and_draws_nothing():
    # the scaled values and their frequency: the op table (dropout's Distribution)
    x = Tensor(np.ones((20, 10), np.float32))
    random_state.set_seed(0)
    np.testing.assert_array_equal(ops.dropout(x, p=0.2, training=False).asnumpy(), x.asnumpy())
    np.testing.assert_array_equal(ops.dropout2d(Tensor(np.ones((2, 3, 1, 1), np.float32)), p=0.0).asnumpy(), 1.0)
    after_eval = ops.rand(3).asnumpy()
    random_state.set_seed(0)
    np.testing.assert_array_equal(ops.rand(3).asnumpy(), after_eval)  # outside training the state stays put
    np.testing.assert_array_equal(ops.dropout3d(Tensor(np.ones((2, 3, 1, 1, 1), np.float32)), p=1.0).asnumpy(), 0.0)
    channels = ops.dropout2d(Tensor(np.ones((4, 50, 3, 3), np.float32))).asnumpy()
    assert np.all(channels.min(axis=(2, 3)) == channels.max(axis=(2, 3)))
    with pytest.raises(ValueError, match="dropout.*\\[0, 1\\)"):
        ops.dropout(x, p=1.0)


def test_random_ops_advance_the_state_under_jit():
    random_state.set_seed(11)

    def step(array):  # bernoulli without an op seed draws from the global key even when seeded
        return ops.bernoulli(Tensor._wrap(array), 0.5)._value

    x = jnp.ones((4, 64, 1), jnp.float32)
    eager_first = step(x)
    random_state.set_seed(11)
    state = random_state.global_state

    def lifted(key_data, array):
        # What the state layer does: bind the key, run, read it back.
        saved = state._array
        state._array = key_data
        try:
            out = step(array)
            return out, state._array
        finally:
            state._array = saved

    out, new_key = jax.jit(lifted)(state._array, x)
    np.testing.assert_array_equal(out, eager_first)
    assert not np.array_equal(new_key, state._array)


@pytest.mark.parametrize("call,error,pattern", [
    (lambda: ops.randn(2, dtype=mstype.int32), ValueError, "randn.*float"),
    (lambda: ops.uniform((2,), 0.0, 1.0), TypeError, "uniform.*Tensors"),
    (lambda: ops.randint(5, 5, (2,)), ValueError, "randint.*low"),
    (lambda: ops.multinomial(Tensor([0.5, 0.5]), 3, replacement=False), ValueError, "without replacement"),
    (lambda: ops.normal((2,), "0", 1.0), TypeError, "normal.*mean"),
])
def test_random_errors(call, error, pattern):
    with pytest.raises(error, match=pattern):
        call()


def test_choice_with_mask_and_primitive_samplers():
    random_state.set_seed(5)
    flags = Tensor(np.array([[True, False, True], [False, True, False]]))
    index, mask = ops.choice_with_mask(flags, 5)
    assert index.dtype == mstype.int32 and index.shape == (5, 2) and mask.dtype == mstype.bool_
    picked = {tuple(row) for row, keep in zip(index.asnumpy().tolist(), mask.asnumpy()) if keep}
    assert picked == {(0, 0), (0, 2), (1, 1)} and mask.asnumpy().sum() == 3
    index2, mask2 = ops.RandomChoiceWithMask(2)(flags)
    assert index2.shape == (2, 2) and mask2.asnumpy().all()
    draws = ops.Multinomial(dtype=mstype.int64)(Tensor([[0.0, 1.0]]), 4)
    assert draws.dtype == mstype.int64 and draws.asnumpy().tolist() == [[1, 1, 1, 1]]


def test_channel_dropout_3d_and_standard_laplace_primitive():
    random_state.set_seed(2)
    out, mask = ops.Dropout3D(0.5)(Tensor(np.ones((2, 40, 2, 2, 2), np.float32)))
    assert mask.dtype == mstype.bool_
    values = out.asnumpy().reshape(2, 40, -1)
    assert np.all(values.min(-1) == values.max(-1)) and set(np.unique(values).tolist()) <= {0.0, 2.0}
    assert ops.StandardLaplace(seed=3)((4,)).shape == (4,)
