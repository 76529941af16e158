"""The PyNative-step benchmark's workloads: the PyNative tutorial loop and GRAPH's TrainOneStepCell train
the same model to the same losses (the benchmark compares like with like). No timing here."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                                "benchmarks"))
import pynative_step  # noqa: E402

import sporax as ms  # noqa: E402


def _losses(workload, mode, steps=3):
    ms.set_context(mode=ms.PYNATIVE_MODE if mode == "pynative" else ms.GRAPH_MODE)
    try:
        ms.set_seed(0)
        network, loss_fn, optimizer = pynative_step.ms_workload(ms, workload)
        x, y = (ms.Tensor(a) for a in pynative_step.data(workload))
        if mode == "pynative":
            grad_fn = ms.value_and_grad(lambda d, t: loss_fn(network(d), t), None, optimizer.parameters)

            def step():
                loss, grads = grad_fn(x, y)
                optimizer(grads)
                return loss
        else:
            step = ms.nn.TrainOneStepCell(ms.nn.WithLossCell(network, loss_fn), optimizer)
            step = (lambda train=step: train(x, y))
        return [float(step().asnumpy()) for _ in range(steps)]
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_tiny_mlp_pynative_and_graph_train_alike():
    pynative, graph = _losses("tiny_mlp", "pynative"), _losses("tiny_mlp", "graph")
    np.testing.assert_allclose(pynative, graph, rtol=1e-5)
    assert pynative[-1] < pynative[0]  # Momentum on a fixed batch lowers the loss


def test_workloads_shapes():
    x, y = pynative_step.data("seed_mlp")
    assert x.shape == (64, 1, 28, 28) and y.dtype == np.int32 and y.max() < 10
    assert pynative_step.data("small_cnn")[0].shape == (16, 3, 32, 32)
