"""The Primitives MindSpore's layers hold (``LayerNorm.layer_norm``, ``Conv2d.conv2d`` ...): subclasses call
them in their own construct and must get what the layer computes."""
import numpy as np
import pytest

from sporax import nn, ops
from sporax.core.tensor import Tensor

RNG = np.random.default_rng(0)
X = Tensor(RNG.standard_normal((2, 3, 8, 8)).astype(np.float32))


@pytest.mark.parametrize("pad_mode,padding,stride", [("same", 0, 1), ("same", 0, 2), ("valid", 0, 2),
                                                     ("pad", (1, 2, 0, 1), 1)])
def test_conv2d_primitive_and_bias_add_compute_the_layer(pad_mode, padding, stride):
    conv = nn.Conv2d(3, 4, 3, stride=stride, pad_mode=pad_mode, padding=padding, has_bias=True)
    assert isinstance(conv.conv2d, ops.Conv2D) and conv.conv2d is conv.conv2d  # built once
    out = conv.bias_add(conv.conv2d(X, conv.weight), conv.bias)
    np.testing.assert_allclose(out.asnumpy(), conv(X).asnumpy(), rtol=1e-5, atol=1e-5)


def test_weight_standardised_conv_subclass_as_mindcv_writes_it():
    class StdConv2d(nn.Conv2d):
        def construct(self, x):
            w = self.weight
            w = (w - w.mean((1, 2, 3), keep_dims=True)) / ops.sqrt(w.var((1, 2, 3), keepdims=True) + 1e-10)
            return self.conv2d(x, w)

    conv = StdConv2d(3, 4, 3)
    w = conv.weight.asnumpy()
    w = (w - w.mean((1, 2, 3), keepdims=True)) / np.sqrt(w.var((1, 2, 3), keepdims=True) + 1e-10)
    plain = nn.Conv2d(3, 4, 3, weight_init=Tensor(w))
    np.testing.assert_allclose(conv(X).asnumpy(), plain(X).asnumpy(), rtol=1e-4, atol=1e-4)


def test_layer_norm_primitive_channels_first_subclass():
    class ChannelsFirstLayerNorm(nn.LayerNorm):  # mindcv's ConvNextLayerNorm
        def construct(self, x):
            y, _, _ = self.layer_norm(ops.transpose(x, (0, 2, 3, 1)), self.gamma, self.beta)
            return ops.transpose(y, (0, 3, 1, 2))

    norm = ChannelsFirstLayerNorm((3,), epsilon=1e-6)
    x = X.asnumpy()
    mean, var = x.mean(1, keepdims=True), x.var(1, keepdims=True)
    np.testing.assert_allclose(norm(X).asnumpy(), (x - mean) / np.sqrt(var + 1e-6), rtol=1e-4, atol=1e-5)
    assert norm.layer_norm.begin_norm_axis == -1 and norm.layer_norm.epsilon == 1e-6


def test_dense_batchnorm_and_activation_primitives():
    dense = nn.Dense(8, 5)
    flat = X.reshape(-1, 8)
    np.testing.assert_allclose(dense.bias_add(dense.matmul(flat, dense.weight), dense.bias).asnumpy(),
                               dense(flat).asnumpy(), rtol=1e-5, atol=1e-6)
    norm = nn.BatchNorm2d(3, momentum=0.8)
    norm.set_train(False)
    inferred = norm.bn_infer(X, norm.gamma, norm.beta, norm.moving_mean, norm.moving_variance)[0]
    np.testing.assert_allclose(inferred.asnumpy(), norm(X).asnumpy(), rtol=1e-5, atol=1e-6)
    assert norm.bn_train.is_training and abs(norm.bn_train.momentum - 0.2) < 1e-9  # MindSpore's conversion
    for cell, name in [(nn.ReLU(), "relu"), (nn.Sigmoid(), "sigmoid"), (nn.Tanh(), "tanh"), (nn.ReLU6(), "relu6"),
                       (nn.HSwish(), "hswish"), (nn.HSigmoid(), "hsigmoid"), (nn.Softmax(1), "softmax"),
                       (nn.LogSoftmax(1), "log_softmax")]:
        np.testing.assert_allclose(getattr(cell, name)(X).asnumpy(), cell(X).asnumpy(), rtol=1e-5, atol=1e-6)
    assert nn.Dropout(p=0.25).dropout.keep_prob == 0.75


def test_a_subclass_may_assign_its_own_object_under_the_name():
    class Custom(nn.ReLU):
        def __init__(self):
            super().__init__()
            self.relu = ops.Sigmoid()

    assert isinstance(Custom().relu, ops.Sigmoid)

    class DenseWithDropout(nn.Dense):
        def __init__(self):
            super().__init__(8, 5)
            self.dropout = nn.Dropout(p=0.5)  # a child Cell: not Dropout's Primitive
            self.matmul = nn.ReLU()

        def construct(self, x):
            return self.matmul(super().construct(x))

    layer = DenseWithDropout()
    assert isinstance(layer.dropout, nn.Dropout) and isinstance(layer.matmul, nn.ReLU)
    assert "matmul" in dict(layer.name_cells())
    flat = X.reshape(-1, 8)
    assert (layer(flat).asnumpy() >= 0).all()


def test_dense_subclass_reaching_into_shape_reshape_matmul_bias_add():
    # mindpet's LoRADense: flattens a (*, in) input with Dense's own shape_op/reshape, then matmul + bias_add.
    class FlatteningDense(nn.Dense):
        def construct(self, x):
            shape = self.shape_op(x)
            flat = self.reshape(x, (-1, shape[-1]))
            out = self.bias_add(self.matmul(flat, self.weight), self.bias)
            return self.reshape(out, shape[:-1] + (-1,))

    dense = FlatteningDense(8, 5)
    assert isinstance(dense.shape_op, ops.Shape) and isinstance(dense.reshape, ops.Reshape)
    x = Tensor(RNG.standard_normal((2, 3, 8)).astype(np.float32))
    expected = x.asnumpy() @ dense.weight.asnumpy().T + dense.bias.asnumpy()
    np.testing.assert_allclose(dense(x).asnumpy(), expected, rtol=1e-5, atol=1e-5)
