"""``Cell.set_data_parallel`` in SEMI_AUTO_PARALLEL / AUTO_PARALLEL on 4 devices against the same network on one
device (STAND_ALONE): forward values, gradients, and how the batch is laid out. shard_worker.py's process (4 host
devices; test_shard_devices.py starts it) runs ``results()``: one process of 4 host devices for both files' checks.
"""
import jax
import numpy as np

import sporax as ms
from sporax import Parameter, Tensor, nn, ops

RNG = np.random.RandomState(0)
X = RNG.rand(8, 4).astype(np.float32)
W1 = RNG.randn(4, 6).astype(np.float32) * 0.5
W2 = RNG.randn(6, 3).astype(np.float32) * 0.5


class Net(nn.Cell):
    """A Primitive-built layer (ops.MatMul / ops.ReLU attributes) followed by a functional one."""

    def __init__(self):
        super().__init__()
        self.w1 = Parameter(Tensor(W1), name="w1")
        self.w2 = Parameter(Tensor(W2), name="w2")
        self.matmul = ops.MatMul()
        self.relu = ops.ReLU()

    def construct(self, x):
        return ops.matmul(self.relu(self.matmul(x * 2.0, self.w1)), self.w2)


def run(mode, data_parallel):
    ms.reset_auto_parallel_context()
    ms.set_auto_parallel_context(parallel_mode=mode, device_num=4 if mode != "stand_alone" else 1)
    net = Net()
    if data_parallel:
        net.set_data_parallel()
    seen = []
    # Registered after set_data_parallel's hook: sees the inputs as the compiled program gets them.
    # (In value_and_grad the hook runs inside the trace, where values carry no placement: skipped.)
    def record(cell, args):
        if not isinstance(args[0]._value, jax.core.Tracer):
            seen.append(args[0]._value.sharding.shard_shape(X.shape))

    net.register_forward_pre_hook(record)
    out = net(Tensor(X))

    def loss(x):
        return (net(x) ** 2).mean()

    value, (grad_x, grads) = ms.value_and_grad(loss, grad_position=0, weights=net.trainable_params())(Tensor(X))
    return {"out": out.asnumpy().tolist(), "out_shard": list(out._value.sharding.shard_shape(out.shape)),
            "loss": float(value.asnumpy()), "grad_x": grad_x.asnumpy().tolist(),
            "grads": [g.asnumpy().tolist() for g in grads], "input_shard": list(seen[0]),
            "attrs": [net.matmul.attrs.get("strategy_gen_mode"), net.relu.attrs.get("strategy_gen_mode")]}


def results():
    """Every run's values and layouts, by mode (``base``: the network without set_data_parallel)."""
    ms.set_context(mode=ms.GRAPH_MODE)
    runs = {"base": run("stand_alone", False), "stand_alone": run("stand_alone", True)}
    for mode in ("semi_auto_parallel", "auto_parallel"):
        runs[mode] = run(mode, True)
    return runs
