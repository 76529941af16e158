"""Control flow on tensors in GRAPH_MODE: sporax compiled vs sporax's eager fallback vs MindSpore.

The issue-12 example: a Cell whose ``construct`` runs ``while i < 10:`` with ``if x.sum() > 0:``
inside, trained with ``value_and_grad`` and an SGD step in GRAPH_MODE (``--model python-counter``). With
``--model tensor-counter`` the counter is a Tensor compared to a Tensor argument, so the trip count is
known only at run time (a ``while`` on a traced condition, differentiated in reverse mode). The same model code runs
on sporax with the control-flow conversion (one XLA program), on sporax with the conversion
switched off (the warned eager fallback, op by op), and, with ``--mindspore-python``, on real
MindSpore in a subprocess of that interpreter. sporax's two variants are timed in interleaved
rounds in this process (best round reported); MindSpore reports its best round the same way.

    python benchmarks/control_flow.py --mindspore-python /tmp/ms/bin/python [--model tensor-counter]
                                      [--steps 200 --repeat 5]
"""
import argparse
import json
import os
import subprocess
import sys
import time
import warnings

import numpy as np

BATCH, WIDTH = 32, 64


def build(ms, nn, ops, model):
    class LoopNet(nn.Cell):
        def __init__(self):
            super().__init__()
            self.dense = nn.Dense(WIDTH, WIDTH)
            self.relu = nn.ReLU()

        def block(self, x):
            if x.sum() > 0:
                x = self.relu(self.dense(x))
            else:
                x = x * 0.5 + 0.1
            return x

        def construct(self, x, n):
            i = 0
            while i < 10:
                x = self.block(x)
                i += 1
            return x

    class TensorLoopNet(LoopNet):
        def construct(self, x, n):
            i = ms.Tensor(0, ms.int32)
            while i < n:
                x = self.block(x)
                i += 1
            return x

    net = LoopNet() if model == "python-counter" else TensorLoopNet()
    loss_fn = nn.MSELoss()
    optimizer = nn.SGD(net.trainable_params(), learning_rate=0.01)

    def forward(x, y, n):
        return loss_fn(net(x, n), y)

    grad_fn = ms.value_and_grad(forward, None, optimizer.parameters)

    def step(x, y, n):
        loss, grads = grad_fn(x, y, n)
        optimizer(grads)
        return loss

    return step


def batch(ms):
    rng = np.random.default_rng(0)
    x = ms.Tensor(np.abs(rng.standard_normal((BATCH, WIDTH))).astype(np.float32))
    y = ms.Tensor(rng.standard_normal((BATCH, WIDTH)).astype(np.float32))
    return x, y, ms.Tensor(10, ms.int32)


def timed(step, data, steps):
    loss = step(*data)
    started = time.perf_counter()
    for _ in range(steps):
        loss = step(*data)
    float(loss.asnumpy())
    return steps / (time.perf_counter() - started)


def mindspore_side(steps, repeat, model):
    import mindspore as ms
    from mindspore import nn, ops

    ms.set_context(mode=ms.GRAPH_MODE, device_target="CPU")
    step = build(ms, nn, ops, model)
    data = batch(ms)
    for _ in range(3):
        step(*data)  # compile
    print(json.dumps({"mindspore": max(timed(step, data, steps) for _ in range(repeat))}))


def sporax_side(steps, repeat, model):
    import sporax as ms
    from sporax import nn, ops
    from sporax.graph.control_flow import set_conversion
    from sporax.state import EagerFallbackWarning

    ms.set_context(mode=ms.GRAPH_MODE)
    data = batch(ms)
    with warnings.catch_warnings():
        warnings.simplefilter("error", EagerFallbackWarning)
        compiled = build(ms, nn, ops, model)
        compiled(*data)
    set_conversion(False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", EagerFallbackWarning)
        eager = build(ms, nn, ops, model)
        eager(*data)
    set_conversion(True)
    results = {"compiled": 0.0, "eager": 0.0}
    fallback_steps = max(steps // 10, 5)
    for _ in range(repeat):
        results["compiled"] = max(results["compiled"], timed(compiled, data, steps))
        results["eager"] = max(results["eager"], timed(eager, data, fallback_steps))
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--model", choices=["python-counter", "tensor-counter"], default="python-counter")
    parser.add_argument("--mindspore-python", help="python of a real MindSpore install (runs the MindSpore side)")
    parser.add_argument("--side", choices=["sporax", "mindspore"], default="sporax", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.side == "mindspore":
        mindspore_side(args.steps, args.repeat, args.model)
        return
    results = sporax_side(args.steps, args.repeat, args.model)
    if args.mindspore_python:
        env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
        env["GLOG_v"] = "3"
        out = subprocess.run([args.mindspore_python, os.path.abspath(__file__), "--side", "mindspore", "--model", args.model, "--steps",
                              str(args.steps), "--repeat", str(args.repeat)], capture_output=True, text=True,
                             env=env, timeout=1800)
        lines = [line for line in out.stdout.splitlines() if line.startswith("{")]
        if not lines:
            sys.exit(f"MindSpore side failed:\n{out.stdout[-2000:]}\n{out.stderr[-4000:]}")
        results.update(json.loads(lines[-1]))
    print(f"model: {args.model}")
    print(f"{'variant':<28}{'steps/s':>10}")
    print(f"{'sporax GRAPH (compiled)':<28}{results['compiled']:>10.1f}")
    print(f"{'sporax eager fallback':<28}{results['eager']:>10.1f}")
    if "mindspore" in results:
        print(f"{'MindSpore 2.10 GRAPH':<28}{results['mindspore']:>10.1f}")
        print(f"compiled / MindSpore: {results['compiled'] / results['mindspore']:.2f}x")
    print(f"compiled / eager fallback: {results['compiled'] / results['eager']:.2f}x")


if __name__ == "__main__":
    main()
