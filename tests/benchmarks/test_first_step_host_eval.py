"""first_step_host_eval.py's NumPy evaluation of a jaxpr: JAX's values for the primitives it covers, and a
whole GRAPH train step's loss and new weights. No timing here."""
import os
import sys

import jax
import jax.numpy as jnp
import numpy as np
import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                                "benchmarks"))
import first_step_host_eval  # noqa: E402


def _evaluate(function, *arguments):
    closed = jax.make_jaxpr(function)(*arguments)
    return first_step_host_eval.HostEvaluator().run(closed.jaxpr, closed.consts, [np.asarray(a) for a in arguments])


def test_primitives_give_jax_values():
    rng = np.random.default_rng(0)
    a = rng.standard_normal((2, 3, 4)).astype(np.float32)
    b = rng.standard_normal((2, 4, 5)).astype(np.float32)
    n = np.array([7, -7, 9, -9], np.int32)

    @jax.jit
    def inner(x):  # a nested program and a custom-JVP function (relu)
        return jax.nn.relu(x) * 2.0

    def function(a, b, n):
        batched = jax.lax.dot_general(a, b, (((2,), (1,)), ((0,), (0,))))  # (2, 3, 5)
        scaled = batched / jnp.sqrt(jnp.sum(jnp.square(a), axis=(0, 2)))[None, :, None]
        picked = jnp.where(scaled > 0, scaled, -scaled)
        rows = jax.lax.broadcasted_iota(jnp.int32, (3, 5), 0)
        return (inner(picked).max(axis=-1), jax.lax.rsqrt(jnp.square(a) + 1), jax.lax.div(n, jnp.int32(2)),
                jnp.exp(-a).T, rows, a.astype(jnp.int32), jax.lax.stop_gradient(a).reshape(6, 4))

    expected = jax.jit(function)(a, b, n)
    got = _evaluate(function, a, b, n)
    assert len(got) == len(expected)
    for value, reference in zip(got, expected):
        assert value.dtype == reference.dtype and value.shape == reference.shape
        np.testing.assert_allclose(value, np.asarray(reference), rtol=2e-6, atol=1e-6)


def test_an_input_returned_as_it_is_and_a_value_used_twice():
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    got = _evaluate(lambda x: (x, x * x + x, (x * x).sum()), x)
    np.testing.assert_array_equal(got[0], x)
    np.testing.assert_array_equal(got[1], x * x + x)
    assert got[2] == (x * x).sum()


def test_an_unknown_primitive_raises():
    with pytest.raises(KeyError, match="sin"):
        _evaluate(jnp.sin, np.ones(3, np.float32))


def test_a_train_step_gives_the_compiled_loss_and_weights():
    """The measured route's values: a Dense network's GRAPH ``TrainOneStepCell`` step (Momentum, whose FFI update
    runs through JAX or, with ``numpy_momentum``, NumPy) evaluated by NumPy, against the compiled step."""
    import sporax as ms
    from sporax.state import program as program_module

    ms.set_context(mode=ms.GRAPH_MODE)
    data = np.random.default_rng(0).standard_normal((16, 5)).astype(np.float32)
    labels = np.random.default_rng(1).integers(0, 3, 16).astype(np.int32)
    captured = []
    original = program_module.Program.run

    def capture(program, arrays, *rest, **keywords):
        captured.append((program, [s._array for s in program.written],
                         [s._array for s in program.readonly], arrays))
        return original(program, arrays, *rest, **keywords)

    ms.set_seed(0)
    network = ms.nn.SequentialCell([ms.nn.Dense(5, 8), ms.nn.ReLU(), ms.nn.Dense(8, 3)])
    step = ms.nn.TrainOneStepCell(ms.nn.WithLossCell(network, ms.nn.SoftmaxCrossEntropyWithLogits(sparse=True,
                                                                                                   reduction="mean")),
                                  ms.nn.Momentum(network.trainable_params(), 0.1, 0.9))
    program_module.Program.run = capture
    try:
        step(ms.Tensor(data), ms.Tensor(labels))
    finally:
        program_module.Program.run = original
    program, written, readonly, arrays = captured[-1]
    closed = jax.make_jaxpr(program._final)(written, readonly, arrays)
    leaves = [np.asarray(leaf) for leaf in jax.tree_util.tree_leaves((written, readonly, arrays))]
    expected = jax.tree_util.tree_leaves(jax.jit(program._final)(written, readonly, arrays))
    for numpy_momentum in (False, True):
        got = first_step_host_eval.HostEvaluator(numpy_momentum).run(closed.jaxpr, closed.consts, leaves)
        assert len(got) == len(expected)
        for value, reference in zip(got, expected):
            np.testing.assert_allclose(value, np.asarray(reference), rtol=1e-5, atol=1e-6)
