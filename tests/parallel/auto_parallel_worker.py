"""Runs in a subprocess with 4 host devices (test_auto_parallel.py starts it); prints JSON results.

A Dense(16, 256) -> ReLU -> Dense(256, 4) network trained 2 steps under AutoParallel's
recursive_programming search, with the default device memory and with a memory limit the replicated
weights do not fit; each run is compared with the same training on one device.
"""
import json
import os
import sys

os.environ["XLA_FLAGS"] = os.environ.get("XLA_FLAGS", "") + " --xla_force_host_platform_device_count=4"

import numpy as np  # noqa: E402

import sporax as ms  # noqa: E402
from sporax import Tensor, nn  # noqa: E402
from sporax.parallel import algo_parameters, build_searched_strategy  # noqa: E402
from sporax.parallel.auto_parallel import AutoParallel  # noqa: E402

RNG = np.random.RandomState(0)
X = RNG.rand(64, 16).astype(np.float32)
Y = RNG.rand(64, 4).astype(np.float32)


def network():
    ms.set_seed(3)
    return nn.SequentialCell(nn.Dense(16, 256), nn.ReLU(), nn.Dense(256, 4))


def train(parallel_mode=None, capacity=None):
    """(losses of 2 Momentum steps, final weights, the search's layouts)."""
    ms.reset_auto_parallel_context()
    algo_parameters.set_cost_model_context(device_memory_capacity=17179869184.0 if capacity is None else capacity)
    net = network()
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.Momentum(net.trainable_params(), 0.05, 0.9))
    if parallel_mode is not None:
        step = AutoParallel(step, parallel_mode=parallel_mode)
    losses = [float(step(Tensor(X), Tensor(Y)).asnumpy()) for _ in range(2)]
    layouts = {}
    if parallel_mode is not None:
        # after training: the layout the compiled steps left the first weight in
        layouts["trained 0.weight"] = str(getattr(net[0].weight._value.sharding, "spec", "single device"))
        layouts.update({name: str(spec) for name, (spec, _, _) in step._planned.items()})
    return losses, {p.name: p.asnumpy().tolist() for p in net.trainable_params()}, layouts, step


ms.set_context(mode=ms.GRAPH_MODE)
results = {}
single = train()
for label, capacity in (("default_memory", None), ("small_memory", 40000.0)):
    losses, weights, layouts, step = train("recursive_programming", capacity)
    results[label] = {
        "layouts": layouts,
        "losses_equal": bool(np.allclose(losses, single[0], rtol=1e-5)),
        "weights_equal": all(np.allclose(weights[name], single[1][name], rtol=1e-4, atol=1e-6) for name in weights),
    }
    path = os.path.join(sys.argv[1], f"{label}.json")
    step.save_param_strategy_file(path)
    results[label]["strategy_file"] = {name: list(layout.tensor_map[0].dim)
                                       for name, layout in build_searched_strategy(path).items()}
# set_auto_parallel_context(parallel_mode="auto_parallel") (search_mode recursive_programming by default):
# the same search runs before the training step first compiles.
ms.reset_auto_parallel_context()
algo_parameters.set_cost_model_context(device_memory_capacity=40000.0)
ms.set_auto_parallel_context(parallel_mode="auto_parallel")
net = network()
step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.Momentum(net.trainable_params(), 0.05, 0.9))
losses = [float(step(Tensor(X), Tensor(Y)).asnumpy()) for _ in range(2)]
results["context"] = {"losses_equal": bool(np.allclose(losses, single[0], rtol=1e-5)),
                      "trained 0.weight": str(getattr(net[0].weight._value.sharding, "spec", "single device"))}
try:
    train("recursive_programming", 1000.0)
except RuntimeError as error:
    results["too_small"] = str(error)
json.dump(results, sys.stdout)
