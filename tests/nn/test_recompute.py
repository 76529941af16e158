"""Cell.recompute and mindspore.recompute: same values and gradients, less memory."""
import json
import os
import sys
import warnings

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import sporax as ms
from sporax import nn
from sporax.autodiff.checkpoint import checkpoint
from sporax.autodiff.recompute import recompute
from sporax.core import context
from sporax.core.tensor import Tensor
from sporax.state.binding import Bound

ORACLE_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures", "oracle")
sys.path.insert(0, ORACLE_DIR)
from hooks_cases import recompute_cases  # noqa: E402

with open(os.path.join(ORACLE_DIR, "hooks.json")) as _handle:
    ORACLE = json.load(_handle)["recompute"]


@pytest.mark.parametrize("mode", [context.PYNATIVE_MODE, context.GRAPH_MODE])
def test_matches_mindspore(mode):
    context.set_context(mode=mode)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            results = recompute_cases(ms, recompute)
    finally:
        context.set_context(mode=context.PYNATIVE_MODE)
    assert results == ORACLE


class Block(nn.Cell):
    """A residual block: x + fc2(relu(fc1(x)))."""

    def __init__(self, width):
        super().__init__()
        self.fc1 = nn.Dense(width, width)
        self.fc2 = nn.Dense(width, width)
        self.act = nn.ReLU()

    def construct(self, data):
        return data + self.fc2(self.act(self.fc1(data)))


class Stack(nn.Cell):
    def __init__(self, depth, width, recomputed):
        super().__init__()
        self.blocks = nn.CellList([Block(width) for _ in range(depth)])
        if recomputed:
            for block in self.blocks:
                block.recompute()

    def construct(self, data):
        for block in self.blocks:
            data = block(data)
        return (data * data).mean()


def _compiled_value_and_grad(net, data):
    """The loss and its gradient w.r.t. every weight as one jitted program (and that program)."""
    parameters = net.trainable_params()

    def loss(values, array):
        with Bound(parameters, values, "loss"):
            return net(Tensor._wrap(array))._value

    values = [parameter._value for parameter in parameters]
    program = jax.jit(jax.value_and_grad(loss)).lower(values, data).compile()
    return program(values, data), program


def test_deep_residual_stack_needs_less_memory_with_the_same_gradients():
    """30 residual blocks of width 512, batch 256: the compiled gradient program's temporary
    memory falls (measured by XLA's memory analysis) and the loss and gradients are identical."""
    plain, recomputed = Stack(30, 512, False), Stack(30, 512, True)
    for source, target in zip(plain.trainable_params(), recomputed.trainable_params()):
        target.set_data(Tensor(source.asnumpy()))
    data = jnp.asarray(np.random.default_rng(0).standard_normal((256, 512)).astype(np.float32))
    (loss_plain, grads_plain), program_plain = _compiled_value_and_grad(plain, data)
    (loss_recomputed, grads_recomputed), program_recomputed = _compiled_value_and_grad(recomputed, data)
    np.testing.assert_allclose(float(loss_recomputed), float(loss_plain), rtol=1e-6)
    for got, expected in zip(grads_recomputed, grads_plain):
        np.testing.assert_allclose(np.asarray(got), np.asarray(expected), rtol=1e-5, atol=1e-7)
    memory_plain = program_plain.memory_analysis().temp_size_in_bytes
    memory_recomputed = program_recomputed.memory_analysis().temp_size_in_bytes
    assert memory_recomputed * 2 < memory_plain, (memory_plain, memory_recomputed)
    # The recomputation is really in the program: one more matmul per block (fc1; fc2 is not needed).
    dots_plain = program_plain.as_text().count(" dot(")
    assert program_recomputed.as_text().count(" dot(") >= dots_plain + 30


def test_checkpoint_keeps_its_recomputation_on_cpu():
    """jax.checkpoint's recomputation is merged back by XLA's CPU pipeline; sporax's is not."""
    def block(weights, data):
        return data + jax.nn.relu(jax.nn.relu(data @ weights[0]) @ weights[1])

    def network(wrap):
        def loss(weights, data):
            for layer in weights:
                data = wrap(block)(layer, data)
            return (data * data).mean()
        return loss

    weights = [(jnp.full((128, 128), 0.01), jnp.full((128, 128), 0.01)) for _ in range(8)]
    data = jnp.ones((256, 128))
    programs = {name: jax.jit(jax.grad(network(wrap))).lower(weights, data).compile()
                for name, wrap in (("plain", lambda f: f), ("sporax", checkpoint))}
    assert (programs["sporax"].memory_analysis().temp_size_in_bytes * 2
            < programs["plain"].memory_analysis().temp_size_in_bytes)
    grads = {name: jax.jit(jax.grad(network(wrap)))(weights, data)
             for name, wrap in (("plain", lambda f: f), ("sporax", checkpoint))}
    for got, expected in zip(jax.tree_util.tree_leaves(grads["sporax"]), jax.tree_util.tree_leaves(grads["plain"])):
        np.testing.assert_array_equal(np.asarray(got), np.asarray(expected))


class Noisy(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(4, 4)
        self.bn = nn.BatchNorm1d(4)
        self.drop = nn.Dropout(p=0.5)

    def construct(self, data):
        return self.drop(self.bn(self.fc(data)))


@pytest.mark.parametrize("how", ["cell", "function"])
def test_recomputed_state_updates_and_random_masks_match(how):
    """BatchNorm statistics update once and dropout draws the same mask in the recomputation."""
    data = Tensor(np.random.default_rng(1).standard_normal((8, 4)).astype(np.float32))
    results = []
    initial = None
    for recomputed in (False, True):
        ms.set_seed(7)  # before building: MindSpore's Dropout takes its kernel's seeds then
        cell = Noisy().set_train()
        if initial is None:
            initial = [Tensor(p.asnumpy()) for p in cell.get_parameters()]
        for parameter, value in zip(cell.get_parameters(), initial):
            # a copy: set_data(value) would share value's storage (as in MindSpore), and the first run's
            # BatchNorm update would then reach the second run's starting statistics
            parameter.set_data(value.copy())
        if recomputed and how == "cell":
            cell.recompute()
        use_function = recomputed and how == "function"

        def loss(value):
            out = recompute(cell, value) if use_function else cell(value)
            return (out * out).sum()

        value, grads = ms.value_and_grad(loss, grad_position=0, weights=cell.trainable_params())(data)
        results.append([value.asnumpy(), grads[0].asnumpy()] + [g.asnumpy() for g in grads[1]]
                       + [cell.bn.moving_mean.asnumpy(), cell.bn.moving_variance.asnumpy()])
    for got, expected in zip(results[1], results[0]):
        np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-7)


def test_recompute_argument_checks():
    block = Block(2)
    with pytest.raises(ValueError, match="keyword 'mode' is not recognized"):
        block.recompute(mode=True)
    with pytest.raises(TypeError):
        block.recompute(True)
    with pytest.raises(TypeError, match="must be bool"):
        block.recompute(mp_comm_recompute=1)
    assert block.recompute(mp_comm_recompute=True) is None
