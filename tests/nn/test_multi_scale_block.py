"""A Res2Net-style multi-scale block trains as on MindSpore 2.10, in GRAPH and PYNATIVE mode.

tests/fixtures/nn/record_multi_scale_block.py recorded the values: a split with an unused output, Conv2d +
BatchNorm2d (batch statistics) + ReLU on one part, Pad + AvgPool2d(3, 2, 'valid') on another, concatenated.
These were the suspects when mindcv's res2net50 reached a different loss at its second GRAPH train step
(1.630 vs 1.921); the block agrees, and that second loss moves as much on MindSpore itself when the input
changes by 1e-6 (1.685 to 1.921 over 6 draws): batch 2 at 64 px makes the trajectory chaotic.
"""
import json
import os

import numpy as np
import pytest

import sporax
from sporax import Tensor, nn, ops
from sporax.core import context

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "fixtures", "nn", "multi_scale_block_mindspore.json")
rng = np.random.RandomState(23)
INPUT = rng.randn(2, 6, 5, 5).astype(np.float32)
CONV_WEIGHT = (rng.randn(2, 2, 3, 3) * 0.5).astype(np.float32)
LOSS_WEIGHTS = rng.randn(2, 4, 3, 3).astype(np.float32)


class MultiScaleBlock(nn.Cell):
    """Conv + BatchNorm + ReLU on the first third of the channels, padded average pool on the last."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 2, 3, stride=2, pad_mode="pad", padding=1, weight_init=Tensor(CONV_WEIGHT))
        self.norm = nn.BatchNorm2d(2)
        self.relu = nn.ReLU()
        self.pool = nn.SequentialCell([nn.Pad(paddings=((0, 0), (0, 0), (1, 1), (1, 1))),
                                       nn.AvgPool2d(kernel_size=3, stride=2)])

    def construct(self, x, loss_weights):
        # The middle part of the split is never used: its gradient must be zero, not missing.
        parts = ops.split(x, 2, axis=1)
        out = ops.concat((self.relu(self.norm(self.conv(parts[0]))), self.pool(parts[2])), axis=1)
        return (out * loss_weights).sum()


@pytest.mark.parametrize("mode", ["graph", "pynative"])
def test_loss_gradients_and_moving_statistics_match_mindspore(mode):
    with open(FIXTURE) as handle:
        expected = json.load(handle)[mode]
    previous = context.get_context("mode")
    sporax.set_context(mode=sporax.GRAPH_MODE if mode == "graph" else sporax.PYNATIVE_MODE)
    try:
        block = MultiScaleBlock()
        block.set_train(True)
        params = block.trainable_params()
        loss, (input_grad, param_grads) = sporax.value_and_grad(block, grad_position=0, weights=params)(
            Tensor(INPUT), Tensor(LOSS_WEIGHTS))
    finally:
        sporax.set_context(mode=previous)
    np.testing.assert_allclose(float(loss.asnumpy()), expected["loss"], rtol=1e-5)
    np.testing.assert_allclose(input_grad.asnumpy(), expected["input_grad"], rtol=1e-4, atol=1e-6)
    assert not input_grad.asnumpy()[:, 2:4].any()
    for param, grad in zip(params, param_grads):
        key = ".".join(param.name.split(".")[-2:])
        np.testing.assert_allclose(grad.asnumpy(), expected[key], rtol=1e-4, atol=1e-6, err_msg=key)
    np.testing.assert_allclose(block.norm.moving_mean.asnumpy(), expected["moving_mean"], rtol=1e-5)
    np.testing.assert_allclose(block.norm.moving_variance.asnumpy(), expected["moving_variance"], rtol=1e-5)
