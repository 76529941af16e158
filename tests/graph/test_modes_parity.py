"""PYNATIVE and GRAPH give the same training trajectory with real nn layers and optimizers.

Dense + BatchNorm1d (moving statistics mutated in construct) + Momentum, trained with
TrainOneStepCell (GradOperation inside construct, optimizer assigning Parameters) and with the
functional value_and_grad loop of the tutorials.
"""
import warnings

import numpy as np
import pytest

import sporax
from sporax import nn, ops
from sporax.core import context
from sporax.core.tensor import Tensor

rng = np.random.RandomState(5)
DATA = rng.randn(8, 4).astype(np.float32)
LABELS = rng.randint(0, 3, 8).astype(np.int32)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(4, 6, weight_init="ones")
        self.norm = nn.BatchNorm1d(6)
        self.relu = nn.ReLU()
        self.fc2 = nn.Dense(6, 3, weight_init="ones")

    def construct(self, x):
        return self.fc2(self.relu(self.norm(self.fc1(x))))


def _initial(net):
    # Deterministic weights, independent of the RNG.
    for index, parameter in enumerate(net.trainable_params()):
        values = np.sin(np.arange(np.prod(parameter.shape), dtype=np.float32) + index).reshape(parameter.shape)
        parameter.set_data(Tensor(values * 0.5))
    return net


def _train_one_step_cell(mode, steps=3):
    context.set_context(mode=mode)
    try:
        net = _initial(Net())
        loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        optimizer = nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)
        trainer = nn.TrainOneStepCell(nn.WithLossCell(net, loss), optimizer)
        trainer.set_train()
        losses = [float(trainer(Tensor(DATA), Tensor(LABELS)).asnumpy()) for _ in range(steps)]
        return losses, net.norm.moving_mean.asnumpy(), net.fc1.weight.asnumpy()
    finally:
        context.set_context(mode=context.PYNATIVE_MODE)


def _functional_loop(mode, steps=3):
    context.set_context(mode=mode)
    try:
        net = _initial(Net())
        loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        optimizer = nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)

        def forward(data, label):
            logits = net(data)
            return loss_fn(logits, label), logits

        grad_fn = sporax.value_and_grad(forward, None, optimizer.parameters, has_aux=True)
        net.set_train()
        losses = []
        for _ in range(steps):
            (loss, _), grads = grad_fn(Tensor(DATA), Tensor(LABELS))
            loss = ops.depend(loss, optimizer(grads))
            losses.append(float(loss.asnumpy()))
        return losses, net.norm.moving_mean.asnumpy(), net.fc1.weight.asnumpy()
    finally:
        context.set_context(mode=context.PYNATIVE_MODE)


@pytest.mark.parametrize("train", [_train_one_step_cell, _functional_loop], ids=["TrainOneStepCell", "value_and_grad"])
def test_pynative_and_graph_train_identically(train):
    pynative = train(context.PYNATIVE_MODE)
    graph = train(context.GRAPH_MODE)
    np.testing.assert_allclose(graph[0], pynative[0], rtol=1e-5)
    np.testing.assert_allclose(graph[1], pynative[1], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(graph[2], pynative[2], rtol=1e-5, atol=1e-6)
    assert pynative[0][-1] < pynative[0][0]
    assert np.any(pynative[1] != 0), "BatchNorm's moving mean was updated inside construct"


def test_both_training_styles_agree():
    np.testing.assert_allclose(_train_one_step_cell(context.PYNATIVE_MODE)[0],
                               _functional_loop(context.PYNATIVE_MODE)[0], rtol=1e-5)


class _Counted(nn.Cell):
    """mindcv's GradientAccumulation in small: a Parameter counter, reset with an int once it reaches 3."""

    def __init__(self):
        super().__init__()
        self.step = sporax.Parameter(Tensor(0, sporax.int32), requires_grad=False)
        self.net = nn.Dense(2, 1)

    def construct(self, x):
        self.step += 1
        if self.step >= 3:
            self.step = 0  # MindSpore's PyNative: TypeError, only when this branch runs
        return self.net(x).mean()


@pytest.mark.parametrize("mode, counts, raised", [(context.PYNATIVE_MODE, [1, 2], True),
                                                  (context.GRAPH_MODE, [1, 2, 0, 1, 2], False)])
def test_a_step_fails_where_mindspore_takes_the_failing_branch(mode, counts, raised):
    # Recorded on MindSpore 2.10 (Model.train, 5 batches): PyNative runs steps 1 and 2 and raises the TypeError
    # at step 3; GRAPH_MODE compiles the assignment and trains all 5 steps. sporax's compiled PyNative step raised
    # at step 1 (tracing took both branches); a branch's error now makes that step run eagerly.
    context.set_context(mode=mode)
    try:
        net = _Counted()
        data = sporax.dataset.NumpySlicesDataset({"x": np.ones((5, 2), np.float32)}, shuffle=False).batch(1)
        seen = []

        class Record(sporax.train.Callback):
            def on_train_step_end(self, run_context):
                seen.append(int(net.step.asnumpy()))

        model = sporax.train.Model(net)
        if raised:
            # PyNative's own compile of the step is sporax's business: its fall back to eager is silent, as
            # MindSpore's PyNative mode has nothing to fall back from.
            with warnings.catch_warnings(record=True) as caught, \
                    pytest.raises(TypeError, match="Parameter 'step' already exists"):
                warnings.simplefilter("always")
                model.train(1, data, callbacks=[Record()], dataset_sink_mode=False)
            assert not [w for w in caught if issubclass(w.category, UserWarning)]
        else:
            model.train(1, data, callbacks=[Record()], dataset_sink_mode=False)
        assert seen == counts
    finally:
        context.set_context(mode=context.PYNATIVE_MODE)
