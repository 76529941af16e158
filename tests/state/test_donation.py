"""Donation of written states' old buffers (``sporax.state.program.unshared``): a buffer another object
holds is copied and the copy donated, so one compiled program serves every step (issue 26: mindcv's
EMA train step compiled twice, its EMA weights sharing the network's buffers before step 1)."""
import logging

import jax
import jax.numpy as jnp
import numpy as np

from sporax import context, nn, ops
from sporax.core.parameter import Parameter, ParameterTuple
from sporax.state.program import unshared
from tests.state.helpers import add, assign, tensor, wrap


class _Compiles(logging.Handler):
    """The names of the programs XLA compiles while ``jax.log_compiles`` is on."""

    def __init__(self):
        super().__init__()
        self.names = []

    def emit(self, record):
        message = record.getMessage()
        if message.startswith("Compiling "):
            self.names.append(message.split()[1])


def _counting(run):
    handler = _Compiles()
    logger = logging.getLogger("jax")
    logger.addHandler(handler)
    try:
        with jax.log_compiles():
            run()
    finally:
        logger.removeHandler(handler)
    return handler.names


class _EmaStep(nn.Cell):
    """A weight moved each step, and its moving average in a clone that shares its buffer at first."""

    def __init__(self):
        super().__init__()
        self.weight = Parameter(tensor([1.0, 2.0]), name="weight")
        self.weights = ParameterTuple([self.weight])
        self.ema = self.weights.clone("ema", init="same")

    def construct(self, x):
        assign(self.weight, add(self.weight, x))
        for average, weight in zip(self.ema, self.weights):
            ops.assign(average, average * 0.5 + weight * 0.5)
        return self.weight * 1.0


def test_ema_clone_sharing_buffers_compiles_the_step_once():
    context.set_context(mode=context.GRAPH_MODE)
    try:
        step = _EmaStep()
        assert step.ema[0]._array is step.weight._array, "the premise: init='same' shares the buffer"
        first = step.weight._array
        names = _counting(lambda: [step(tensor([1.0, 1.0])) for _ in range(3)])
    finally:
        context.set_context(mode=context.PYNATIVE_MODE)
    assert names.count("jit(final)") == 1, f"the train step compiled {names.count('jit(final)')} times: {names}"
    np.testing.assert_allclose(np.asarray(first), [1.0, 2.0], err_msg="the shared buffer was not donated")
    weight, ema = np.array([1.0, 2.0]), np.array([1.0, 2.0])
    for _ in range(3):
        weight = weight + 1.0
        ema = ema * 0.5 + weight * 0.5
    np.testing.assert_allclose(step.weight.asnumpy(), weight)
    np.testing.assert_allclose(step.ema[0].asnumpy(), ema)


def test_unshared_copies_only_shared_buffers():
    private, shared = jnp.ones(2), jnp.zeros(3)
    held = [shared]  # another object's reference
    values = unshared([jnp.ones(2) + 1.0, shared])
    assert values[1] is not shared and values[1].tolist() == [0.0, 0.0, 0.0]
    assert not values[1].is_deleted() and held[0].tolist() == [0.0, 0.0, 0.0]
    alone = [private + 1.0, private * 3.0]
    del private
    assert unshared(alone) is alone, "no shared buffer: the same list, nothing copied"
    assert wrap(values[0]).asnumpy().tolist() == [2.0, 2.0]
