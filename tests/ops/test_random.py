"""Random ops: the global seed repeats them, shapes and dtypes, rough moments, dropout rules."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

from sporax import ops
from sporax.core import dtype as mstype
from sporax.core import random_state
from sporax.core.tensor import Tensor

DRAWS = [
    ("normal", lambda: ops.normal((400, 50), 1.0, 2.0), mstype.float32, (1.0, 2.0)),
    ("normal_tensor_params", lambda: ops.normal((400, 50), Tensor(0.0, mstype.float64), Tensor(0.5)), mstype.float64, (0.0, 0.5)),
    ("standard_normal", lambda: ops.standard_normal((400, 50)), mstype.float32, (0.0, 1.0)),
    ("uniform", lambda: ops.uniform((400, 50), Tensor(-1.0), Tensor(3.0)), mstype.float32, (1.0, 4 / 12 ** 0.5)),
    ("uniform_int", lambda: ops.uniform((400, 50), Tensor(0, mstype.int32), Tensor(10, mstype.int32), dtype=mstype.int32),
     mstype.int32, (4.5, (99 / 12) ** 0.5)),
    ("rand", lambda: ops.rand(400, 50), mstype.float32, (0.5, 12 ** -0.5)),
    ("randn", lambda: ops.randn((400, 50), dtype=mstype.float64), mstype.float64, (0.0, 1.0)),
    ("rand_like", lambda: ops.rand_like(Tensor(np.zeros((400, 50), np.float16))), mstype.float16, (0.5, 12 ** -0.5)),
    ("randn_like", lambda: ops.randn_like(Tensor(np.zeros((400, 50), np.float32))), mstype.float32, (0.0, 1.0)),
    ("randint", lambda: ops.randint(2, 6, (400, 50)), mstype.int64, (3.5, (15 / 12) ** 0.5)),
    ("randint_like", lambda: ops.randint_like(Tensor(np.zeros((400, 50), np.int32)), 0, 2), mstype.int32, (0.5, 0.5)),
    ("standard_laplace", lambda: ops.standard_laplace((400, 50)), mstype.float32, (0.0, 2 ** 0.5)),
    ("laplace", lambda: ops.laplace((400, 50), Tensor(1.0), Tensor(0.5)), mstype.float32, (1.0, 0.5 * 2 ** 0.5)),
    ("bernoulli", lambda: ops.bernoulli(Tensor(np.zeros((400, 50), np.float32)), 0.25), mstype.float32, (0.25, 0.75 ** 0.5 * 0.5)),
]


@pytest.mark.parametrize("name,draw,dtype,moments", DRAWS, ids=[d[0] for d in DRAWS])
def test_draws_repeat_after_set_seed_and_have_the_right_moments(name, draw, dtype, moments):
    random_state.set_seed(7)
    first = draw()
    second = draw()
    random_state.set_seed(7)
    again = draw()
    assert first.dtype == dtype and first.shape[:2] == (400, 50)
    np.testing.assert_array_equal(first.asnumpy(), again.asnumpy())
    assert not np.array_equal(first.asnumpy(), second.asnumpy())
    values = first.asnumpy().astype(np.float64)
    mean, std = moments
    assert abs(values.mean() - mean) < 0.05 * max(std, 1.0)
    assert abs(values.std() - std) < 0.05 * max(std, 1.0)


def test_op_seed_changes_the_stream():
    random_state.set_seed(1)
    plain = ops.rand(3)
    random_state.set_seed(1)
    seeded = ops.rand(3, seed=5)
    assert not np.array_equal(plain.asnumpy(), seeded.asnumpy())


def test_permutations_and_multinomial():
    random_state.set_seed(3)
    assert sorted(ops.randperm(10).asnumpy().tolist()) == list(range(10))
    shuffled = ops.shuffle(Tensor(np.arange(6).reshape(3, 2)))
    assert sorted(shuffled.asnumpy()[:, 0].tolist()) == [0, 2, 4]
    draws = ops.multinomial(Tensor([[0.0, 1.0, 0.0], [0.5, 0.0, 0.5]]), 200)
    assert draws.dtype == mstype.int32 and draws.shape == (2, 200)
    assert set(draws.asnumpy()[0].tolist()) == {1} and set(draws.asnumpy()[1].tolist()) == {0, 2}
    unique = ops.multinomial(Tensor([0.2, 0.3, 0.5]), 3, replacement=False).asnumpy()
    assert sorted(unique.tolist()) == [0, 1, 2]


def test_dropout_scales_kept_values_and_is_identity_in_eval():
    random_state.set_seed(0)
    x = Tensor(np.ones((200, 100), np.float32))
    out = ops.dropout(x, p=0.2).asnumpy()
    assert set(np.unique(out).tolist()) <= {0.0, 1.25}
    assert abs((out == 0).mean() - 0.2) < 0.02
    np.testing.assert_array_equal(ops.dropout(x, p=0.2, training=False).asnumpy(), x.asnumpy())
    channels = ops.dropout2d(Tensor(np.ones((4, 50, 3, 3), np.float32))).asnumpy()
    assert np.all(channels.min(axis=(2, 3)) == channels.max(axis=(2, 3)))
    with pytest.raises(ValueError, match="dropout.*\\[0, 1\\)"):
        ops.dropout(x, p=1.0)


def test_random_ops_advance_the_state_under_jit():
    random_state.set_seed(11)

    def step(array):
        return ops.dropout(Tensor._wrap(array), p=0.5)._value

    x = jnp.ones((64,), jnp.float32)
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


def test_gumbel_softmax_and_channel_dropout_3d():
    random_state.set_seed(2)
    logits = Tensor(np.log(np.array([[0.1, 0.6, 0.3]], np.float32)).repeat(2000, 0))
    soft = ops.gumbel_softmax(logits, tau=0.5).asnumpy()
    np.testing.assert_allclose(soft.sum(-1), 1.0, rtol=1e-5)
    hard = ops.gumbel_softmax(logits, hard=True).asnumpy()
    assert set(np.unique(hard).tolist()) == {0.0, 1.0}
    np.testing.assert_allclose(hard.mean(0), [0.1, 0.6, 0.3], atol=0.04)
    out, mask = ops.Dropout3D(0.5)(Tensor(np.ones((2, 40, 2, 2, 2), np.float32)))
    assert mask.dtype == mstype.bool_
    values = out.asnumpy().reshape(2, 40, -1)
    assert np.all(values.min(-1) == values.max(-1)) and set(np.unique(values).tolist()) <= {0.0, 2.0}
    assert ops.StandardLaplace(seed=3)((4,)).shape == (4,)


def test_gamma_and_poisson_draws():
    random_state.set_seed(9)
    gamma = ops.random_gamma((4000,), Tensor([4.0, 1.0]))
    assert gamma.shape == (4000, 2) and gamma.dtype == mstype.float32
    np.testing.assert_allclose(gamma.asnumpy().mean(0), [4.0, 1.0], rtol=0.08)
    poisson = ops.random_poisson((4000,), Tensor(9.0))
    assert poisson.dtype == mstype.float32 and abs(poisson.asnumpy().mean() - 9.0) < 0.3
