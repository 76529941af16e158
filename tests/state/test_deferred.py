"""A PyNative optimizer update is launched with the next gradient program (sporax.state.deferred):
the values equal running the two programs one after the other, bit for bit, and any access to a
Parameter in between sees (or follows) the update."""
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn, ops
from sporax.graph.cell_jit import compiled_cell
from sporax.state import deferred, lazy

STEPS = 6


@pytest.fixture(autouse=True)
def calls_run_at_once():
    """These tests are about the deferred update, which follows a gradient call run at once (lazy gradients,
    tests/state/test_lazy.py, launch the update with the gradient call they were given instead)."""
    lazy.set_enabled(False)
    yield
    lazy.set_enabled(True)


class SmallCNN(nn.Cell):
    """Convolution, depthwise convolution and BatchNorm (the gradient program writes its statistics)."""

    def __init__(self):
        super().__init__()
        self.features = nn.SequentialCell(
            nn.Conv2d(3, 8, 3, 2, pad_mode="pad", padding=1), nn.BatchNorm2d(8), nn.ReLU(),
            nn.Conv2d(8, 8, 3, 1, pad_mode="pad", padding=1, group=8), nn.BatchNorm2d(8), nn.ReLU())
        self.head = nn.Dense(8, 4)

    def construct(self, x):
        return self.head(self.features(x).mean((2, 3)))


def build(kind):
    ms.set_context(mode=ms.PYNATIVE_MODE)
    ms.set_seed(0)
    rng = np.random.default_rng(0)
    if kind == "mlp":
        network = nn.SequentialCell([nn.Dense(5, 16), nn.ReLU(), nn.Dense(16, 1)])
        x, y = Tensor(rng.standard_normal((8, 5)).astype(np.float32)), Tensor(rng.standard_normal((8, 1)).astype(np.float32))
        loss_fn, optimizer = nn.MSELoss(), nn.Momentum(network.trainable_params(), 0.01, 0.9)
    else:
        network = SmallCNN()
        x, y = Tensor(rng.standard_normal((4, 3, 8, 8)).astype(np.float32)), Tensor(rng.integers(0, 4, 4).astype(np.int32))
        loss_fn, optimizer = nn.CrossEntropyLoss(), nn.Adam(network.trainable_params(), 1e-2)
    network.set_train()

    def forward(data, label):
        logits = network(data)
        return loss_fn(logits, label), logits

    grad_fn = ms.value_and_grad(forward, None, optimizer.parameters, has_aux=True)
    return network, optimizer, grad_fn, x, y


def state_of(network, optimizer):
    return {p.name: p.asnumpy().copy() for p in list(network.get_parameters()) + list(optimizer.get_parameters())}


def train(kind, enabled, steps=STEPS, between=None):
    """Losses and final states of ``steps`` PyNative steps; ``between(step, network, optimizer)`` runs after
    each optimizer call."""
    deferred.set_enabled(enabled)
    try:
        network, optimizer, grad_fn, x, y = build(kind)
        losses = []
        for step in range(steps):
            (loss, _), grads = grad_fn(x, y)
            optimizer(grads)
            losses.append(loss)
            if between is not None:
                between(step, network, optimizer)
        return [loss.asnumpy() for loss in losses], state_of(network, optimizer), (network, optimizer, grad_fn)
    finally:
        deferred.set_enabled(True)


def assert_same(first, second):
    assert first.keys() == second.keys()
    for name in first:
        np.testing.assert_array_equal(first[name], second[name], err_msg=name)


@pytest.mark.parametrize("kind", ["mlp", "cnn"])
def test_fused_steps_equal_separate_programs_bit_for_bit(kind):
    losses_off, state_off, _ = train(kind, False)
    losses_on, state_on, (_, optimizer, grad_fn) = train(kind, True)
    for off, on in zip(losses_off, losses_on):
        np.testing.assert_array_equal(off, on)
    assert_same(state_off, state_on)
    # The steps did run fused: the update's program and the gradient's as one launch.
    update = compiled_cell(optimizer).programs[0]
    assert isinstance(grad_fn._cache.programs[0].fused_with.get(update), deferred.Fused)
    assert losses_on[-1] < losses_on[0]


def test_a_read_after_the_optimizer_call_sees_the_update():
    seen = {True: [], False: []}

    def read(step, network, optimizer):
        seen[deferred.enabled()].append((network[0].weight.asnumpy().copy(), optimizer.global_step.asnumpy().copy(),
                                         float(network[2].bias.value().asnumpy()[0])))

    train("mlp", False, between=read)
    train("mlp", True, between=read)
    for (weight_off, step_off, bias_off), (weight_on, step_on, bias_on) in zip(seen[False], seen[True]):
        np.testing.assert_array_equal(weight_off, weight_on)
        np.testing.assert_array_equal(step_off, step_on)
        assert bias_off == bias_on
    assert [int(step[0]) for _, step, _ in seen[True]] == list(range(1, STEPS + 1))


def test_a_write_after_the_optimizer_call_is_not_overtaken_by_the_update():
    def overwrite(step, network, optimizer):
        if step == 2:
            network[0].bias.set_data(Tensor(np.full(16, 0.25, np.float32)))
            ops.assign(network[2].weight, Tensor(np.zeros((1, 16), np.float32)))

    _, state_off, _ = train("mlp", False, between=overwrite)
    _, state_on, _ = train("mlp", True, between=overwrite)
    assert_same(state_off, state_on)


def test_other_programs_and_eager_ops_between_steps_see_updated_weights():
    def evaluate(step, network, optimizer):
        network.set_train(False)
        outputs = network(Tensor(np.ones((2, 5), np.float32)))  # an eager forward pass
        network.set_train(True)
        results.setdefault(deferred.enabled(), []).append(outputs.asnumpy())

    results = {}
    _, state_off, _ = train("mlp", False, between=evaluate)
    _, state_on, _ = train("mlp", True, between=evaluate)
    assert_same(state_off, state_on)
    for off, on in zip(results[False], results[True]):
        np.testing.assert_array_equal(off, on)


def test_a_failing_call_after_the_update_leaves_it_applied():
    _, expected, _ = train("mlp", False, steps=2)
    deferred.set_enabled(True)
    network, optimizer, grad_fn, x, y = build("mlp")
    for _ in range(2):
        _, grads = grad_fn(x, y)
        optimizer(grads)
    assert deferred._pending is not None
    with pytest.raises(Exception):  # a batch of the wrong width: the Dense layer rejects it
        grad_fn(Tensor(np.ones((8, 7), np.float32)), y)
    assert_same(expected, state_of(network, optimizer))


def test_switching_off_applies_the_pending_update():
    _, expected, _ = train("mlp", False, steps=1)
    network, optimizer, grad_fn, x, y = build("mlp")
    _, grads = grad_fn(x, y)
    optimizer(grads)
    assert deferred._pending is not None  # held back
    deferred.set_enabled(False)
    try:
        assert deferred._pending is None  # applied, without any read of the Parameters
        assert_same(expected, state_of(network, optimizer))
    finally:
        deferred.set_enabled(True)


def test_two_optimizers_taking_turns_equal_separate_programs():
    """A GAN-style loop: two networks, each with its gradient and optimizer; updates keep their order."""
    def run(enabled):
        deferred.set_enabled(enabled)
        try:
            ms.set_seed(0)
            rng = np.random.default_rng(1)
            first, second = nn.Dense(4, 4), nn.Dense(4, 1)
            x = Tensor(rng.standard_normal((6, 4)).astype(np.float32))
            first_opt = nn.Momentum(first.trainable_params(), 0.05, 0.9)
            second_opt = nn.SGD(second.trainable_params(), 0.05)
            first_grad = ms.value_and_grad(lambda data: (second(first(data)) ** 2).mean(), None, first_opt.parameters)
            second_grad = ms.value_and_grad(lambda data: ((second(first(data)) - 1) ** 2).mean(), None,
                                            second_opt.parameters)
            losses = []
            for _ in range(STEPS):
                loss, grads = first_grad(x)
                first_opt(grads)
                other, grads = second_grad(x)
                second_opt(grads)
                losses += [loss, other]
            states = {"first." + name: value for name, value in state_of(first, first_opt).items()}
            states.update({"second." + name: value for name, value in state_of(second, second_opt).items()})
            return [loss.asnumpy() for loss in losses], states
        finally:
            deferred.set_enabled(True)

    losses_off, state_off = run(False)
    losses_on, state_on = run(True)
    for off, on in zip(losses_off, losses_on):
        np.testing.assert_array_equal(off, on)
    assert_same(state_off, state_on)
