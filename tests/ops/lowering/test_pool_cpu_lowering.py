"""The tiled max pool equals sporax's plain max pool (first maximum wins) in value and gradient."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

from sporax.ops.functional.pooling import _max_pool
from sporax.ops.lowering import plain_lowering, pool_cpu

CASES = [  # (shape, kernel)
    ((2, 3, 8, 8), (2, 2)),
    ((2, 3, 9, 7), (2, 2)),  # floor mode: the last row/column are outside every window
    ((1, 2, 9, 12), (3, 3)),
    ((2, 2, 6, 8), (2, 4)),
    ((1, 2, 4, 6, 6), (2, 2, 2)),
    ((3, 10), (3,)),
]


def _value_and_grad(array, kernel, cotangent):
    pads = ((0, 0),) * len(kernel)
    out, pullback = jax.vjp(lambda a: _max_pool(a, kernel, kernel, pads), array)
    return out, pullback(cotangent)[0]


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("shape, kernel", CASES)
def test_matches_plain_lowering_with_ties_and_nan(shape, kernel, dtype):
    rng = np.random.default_rng(0)
    values = rng.integers(0, 3, shape).astype(dtype)  # many ties inside each window
    values.reshape(-1)[:: 7] = np.nan
    array = jnp.asarray(values)
    pads = ((0, 0),) * len(kernel)
    assert pool_cpu.applies(array, kernel, kernel, pads, None)
    with plain_lowering():
        plain_out = _max_pool(array, kernel, kernel, pads)
    cotangent = jnp.asarray(rng.standard_normal(plain_out.shape).astype(dtype))
    fast = jax.jit(lambda a, c: _value_and_grad(a, kernel, c))(array, cotangent)
    with plain_lowering():
        plain = jax.jit(lambda a, c: _value_and_grad(a, kernel, c))(array, cotangent)
    np.testing.assert_array_equal(np.asarray(fast[0]), np.asarray(plain[0]))
    np.testing.assert_array_equal(np.asarray(fast[1]), np.asarray(plain[1]))


def test_gradient_goes_to_the_first_maximum():
    array = jnp.asarray(np.array([[[[1.0, 2.0], [2.0, 0.0]]]], np.float32))
    grad = jax.grad(lambda a: pool_cpu.max_pool_tiles(a, (2, 2)).sum())(array)
    np.testing.assert_array_equal(np.asarray(grad), [[[[0.0, 1.0], [0.0, 0.0]]]])


def test_applies_only_to_tiling_windows():
    array = jnp.zeros((1, 1, 8, 8), jnp.float32)
    assert pool_cpu.applies(array, (2, 2), (2, 2), ((0, 0), (0, 0)), (1, 1))
    assert not pool_cpu.applies(array, (3, 3), (2, 2), ((0, 0), (0, 0)), None)
    assert not pool_cpu.applies(array, (2, 2), (2, 2), ((1, 1), (0, 0)), None)
    assert not pool_cpu.applies(array, (2, 2), (2, 2), ((0, 0), (0, 0)), (2, 2))
    assert not pool_cpu.applies(array.astype(jnp.int32), (2, 2), (2, 2), ((0, 0), (0, 0)), None)


def test_tiled_form_is_taken_on_cpu_only_when_allowed():
    array = jnp.zeros((1, 2, 8, 8), jnp.float32)

    def program():
        return str(jax.make_jaxpr(lambda a: _max_pool(a, (2, 2), (2, 2), ((0, 0), (0, 0))))(array))
    assert ("custom_jvp_call" in program()) == (jax.default_backend() == "cpu")
    with plain_lowering():
        assert "custom_jvp_call" not in program()


@pytest.mark.parametrize("shape, kernel", CASES[:3])
def test_forward_mode_matches_plain_lowering(shape, kernel):
    rng = np.random.default_rng(1)
    array = jnp.asarray(rng.integers(0, 3, shape).astype(np.float32))
    tangent = jnp.asarray(rng.standard_normal(shape).astype(np.float32))
    pads = ((0, 0),) * len(kernel)

    def pushforward():
        return jax.jit(lambda a, t: jax.jvp(lambda b: _max_pool(b, kernel, kernel, pads), (a,), (t,)))(array, tangent)
    fast = pushforward()
    with plain_lowering():
        plain = pushforward()
    np.testing.assert_array_equal(np.asarray(fast[0]), np.asarray(plain[0]))
    np.testing.assert_array_equal(np.asarray(fast[1]), np.asarray(plain[1]))
