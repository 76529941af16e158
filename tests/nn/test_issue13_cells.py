"""Cells, metrics and internals added for MindSpore's own tests (issue 13), against NumPy references."""
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn
from sporax.core import validator
from sporax.core.generator import Generator
from sporax.core.parameter import _Buffer
from sporax.graph.pynative_executor import CreationType, _pynative_executor
from sporax.train import ConfusionMatrix

x1 = np.array([[0.3, -1.2, 0.5], [1.0, 0.2, -0.7]], np.float32)
x2 = np.array([[0.1, 0.4, -0.5], [0.9, -0.3, 0.6]], np.float32)
sign = np.array([1.0, -1.0], np.float32)


def _cos(a, b):
    return np.sum(a * b, -1) / np.linalg.norm(a, axis=-1) / np.linalg.norm(b, axis=-1)


CASES = [
    ("MarginRankingLoss", lambda: nn.MarginRankingLoss(0.3)(Tensor(x1), Tensor(x2), Tensor(np.sign(x1 - x2))),
     np.mean(np.maximum(0, -np.sign(x1 - x2) * (x1 - x2) + 0.3))),
    ("CosineEmbeddingLoss", lambda: nn.CosineEmbeddingLoss(0.1, "none")(Tensor(x1), Tensor(x2), Tensor(sign)),
     np.where(sign > 0, 1 - _cos(x1, x2), np.maximum(0, _cos(x1, x2) - 0.1))),
    ("HingeEmbeddingLoss", lambda: nn.HingeEmbeddingLoss(0.5, "sum")(Tensor(x1), Tensor(np.sign(x2))),
     np.sum(np.where(np.sign(x2) > 0, x1, np.maximum(0, 0.5 - x1)))),
    ("GaussianNLLLoss", lambda: nn.GaussianNLLLoss(full=True)(Tensor(x1), Tensor(x2), Tensor(np.abs(x2) + 0.1)),
     np.mean(0.5 * (np.log(np.abs(x2) + 0.1) + (x1 - x2) ** 2 / (np.abs(x2) + 0.1)) + 0.5 * np.log(2 * np.pi))),
    ("MultiLabelSoftMarginLoss", lambda: nn.MultiLabelSoftMarginLoss()(Tensor(x1), Tensor((x2 > 0).astype(np.float32))),
     np.mean(np.mean(-((x2 > 0) * np.log(1 / (1 + np.exp(-x1))) + (x2 <= 0) * np.log(1 / (1 + np.exp(x1)))), -1))),
]


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
@pytest.mark.parametrize("name,run,expected", CASES, ids=[case[0] for case in CASES])
def test_losses(mode, name, run, expected):
    ms.set_context(mode=mode)
    try:
        np.testing.assert_allclose(run().asnumpy(), expected, rtol=1e-5, atol=1e-6)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_forward_value_and_grad():
    net = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
    loss, grads = nn.ForwardValueAndGrad(net, net.trainable_params(), get_by_list=True)(Tensor(x1[:, :2]))
    np.testing.assert_allclose(loss.asnumpy(), x1[:, :2].sum(1, keepdims=True), rtol=1e-6)
    np.testing.assert_allclose(grads[0].asnumpy(), x1[:, :2].sum(0, keepdims=True), rtol=1e-6)


@pytest.mark.parametrize("normalize", ["no_norm", "target", "prediction", "all"])
def test_confusion_matrix(normalize):
    scores = np.array([[0.9, 0.1, 0.0], [0.2, 0.7, 0.1], [0.1, 0.2, 0.7], [0.6, 0.3, 0.1]])
    labels = np.array([0, 1, 1, 2])
    metric = ConfusionMatrix(3, normalize)
    metric.update(Tensor(scores), Tensor(labels))
    counts = np.zeros((3, 3))
    for true, predicted in zip(labels, scores.argmax(1)):
        counts[true, predicted] += 1
    with np.errstate(invalid="ignore"):
        expected = {"no_norm": counts, "target": counts / counts.sum(1, keepdims=True),
                    "prediction": counts / counts.sum(0, keepdims=True), "all": counts / counts.sum()}[normalize]
    np.testing.assert_allclose(metric.eval(), np.nan_to_num(expected))


def test_validator_checks():
    assert validator.check_value_type("window", 3, [int], "Rolling") == 3
    with pytest.raises(TypeError, match="For 'Rolling', the 'center'"):
        validator.check_value_type("center", 1, [bool], "Rolling")
    with pytest.raises(TypeError):
        validator.check_value_type("axis", True, [int], "Rolling")
    with pytest.raises(ValueError):
        validator.check_positive_int(0, "window", "Rolling")
    with pytest.raises(TypeError, match="Float32"):
        validator.check_tensor_dtype_valid("x", ms.int8, [ms.float32], "Rolling")


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_generator_steps_and_state(mode):
    ms.set_context(mode=mode)

    class Step(nn.Cell):
        def construct(self, generator):
            return generator._step(Tensor(2, ms.int64))

    try:
        generator = Generator().manual_seed(7)
        seeds = [tuple(int(v) for v in Step()(generator)) for _ in range(2)]
        assert seeds == [(7, 0), (7, 2)]
        state = generator.get_state()
        Step()(generator)
        restored = Generator()
        restored.set_state(state)
        assert [int(v) for v in restored.get_state()] == [7, 4]
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_buffer_attribute_registers_and_executor():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.scale = _Buffer(Tensor(np.array([2.0], np.float32)))

        def construct(self, x):
            return x * self.scale

    net = Net()
    assert [name for name, _ in net.named_buffers()] == ["scale"]
    np.testing.assert_allclose(net(Tensor(np.array([3.0], np.float32))).asnumpy(), [6.0])
    tensor = Tensor(np.ones(2, np.float32))
    _pynative_executor.set_creation_type(tensor, CreationType.DEFAULT)
    assert _pynative_executor.get_creation_type(tensor) == CreationType.DEFAULT
    _pynative_executor.sync()


def test_pooling_shuffle_and_channel_dropout_cells():
    x = np.arange(2 * 4 * 4, dtype=np.float32).reshape(1, 2, 4, 4)
    unshuffled = nn.PixelUnshuffle(2)(Tensor(x)).asnumpy()
    np.testing.assert_array_equal(unshuffled, x.reshape(1, 2, 2, 2, 2, 2).transpose(0, 1, 3, 5, 2, 4).reshape(1, 8, 2, 2))
    line = np.array([[[1.0, -2.0, 3.0, 4.0]]], np.float32)
    np.testing.assert_allclose(nn.LPPool1d(2, 2)(Tensor(line)).asnumpy(), [[[np.sqrt(5.0), 5.0]]], rtol=1e-6)
    np.testing.assert_allclose(nn.AdaptiveMaxPool1d(2)(Tensor(line)).asnumpy(), [[[1.0, 4.0]]])
    cube = np.arange(27, dtype=np.float32).reshape(1, 1, 3, 3, 3)
    np.testing.assert_allclose(nn.AvgPool3d(kernel_size=3)(Tensor(cube)).asnumpy(), [[[[[13.0]]]]])
    dropout = nn.Dropout1d(p=1.0)
    dropout.set_train()
    np.testing.assert_array_equal(dropout(Tensor(line)).asnumpy(), np.zeros_like(line))
    with pytest.raises(ValueError, match="Dropout1d"):
        nn.Dropout1d(p=1.5)


def test_buffer_names_and_get_buffer():
    outer = nn.SequentialCell([nn.Dense(1, 1)])
    outer[0].register_buffer("steps", Tensor(np.array([3.0], np.float32)))
    np.testing.assert_array_equal(outer.get_buffer("0.steps").asnumpy(), [3.0])
    with pytest.raises(TypeError, match="buffer name should be a string"):
        outer.register_buffer(2, Tensor(np.zeros(1, np.float32)))
    with pytest.raises(KeyError, match='contain "."'):
        outer.register_buffer("a.b", Tensor(np.zeros(1, np.float32)))
    with pytest.raises(AttributeError, match="has no attribute"):
        outer.get_buffer("missing")
