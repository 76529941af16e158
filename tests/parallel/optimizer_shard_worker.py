"""Runs in a subprocess with 4 host devices (test_optimizer_shard.py starts it); prints JSON results.

A Dense(16, 256) -> ReLU -> Dense(256, 64) -> ReLU -> Dense(64, 4) network trained 3 steps with Momentum
and with Adam under the parallel optimizer (AutoParallel.hsdp, and set_auto_parallel_context(
enable_parallel_optimizer=True)), threshold 8 KB: the first weight (16 KB) is split, the last (1 KB) is
too small, the middle one (64 KB) opts out with parallel_optimizer=False. Each run is compared with the
same training on one device.
"""
import json
import os
import re
import sys

os.environ["XLA_FLAGS"] = os.environ.get("XLA_FLAGS", "") + " --xla_force_host_platform_device_count=4"

import numpy as np  # noqa: E402

import sporax as ms  # noqa: E402
from sporax import Tensor, nn  # noqa: E402
from sporax.parallel.auto_parallel import AutoParallel  # noqa: E402

RNG = np.random.RandomState(0)
X = RNG.rand(32, 16).astype(np.float32)
Y = RNG.rand(32, 4).astype(np.float32)


def network():
    ms.set_seed(3)
    net = nn.SequentialCell(nn.Dense(16, 256), nn.ReLU(), nn.Dense(256, 64), nn.ReLU(), nn.Dense(64, 4))
    net[2].weight.parallel_optimizer = False
    return net


def layout(param):
    """How one Parameter lies over the devices: its spec and the fraction of it each device holds."""
    array = param._value
    shards = array.addressable_shards
    return {"spec": str(getattr(array.sharding, "spec", "single device")), "devices": len(shards),
            "fraction": [shard.data.size / array.size for shard in shards]}


def train(optimizer, how):
    """(losses of 3 steps, final weights, the layouts of the weights and optimizer slots)."""
    ms.reset_auto_parallel_context()
    net = network()
    weights = net.trainable_params()
    chosen = nn.Momentum(weights, 0.05, 0.9) if optimizer == "momentum" else nn.Adam(weights, 0.01)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), chosen)
    if how == "hsdp":
        step = AutoParallel(step, parallel_mode="semi_auto")
        step.hsdp(threshold=8)
    elif how == "hsdp_groups_of_2":
        step = AutoParallel(step, parallel_mode="semi_auto")
        step.hsdp(shard_size=2, threshold=8)
    elif how == "context":
        ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", enable_parallel_optimizer=True,
                                     parallel_optimizer_config={"parallel_optimizer_threshold": 8})
    losses = [float(step(Tensor(X), Tensor(Y)).asnumpy()) for _ in range(3)]
    layouts = {param.name: layout(param) for param in chosen.get_parameters() if param.ndim >= 1}
    # the bytes of weights and optimizer state the first device holds
    held = sum(param._value.addressable_shards[0].data.nbytes for param in chosen.get_parameters())
    return losses, {p.name: p.asnumpy().tolist() for p in weights}, layouts, held


ms.set_context(mode=ms.GRAPH_MODE)
results = {}
for optimizer in ("momentum", "adam"):
    single = train(optimizer, None)
    for how in ("hsdp", "hsdp_groups_of_2", "context"):
        losses, weights, layouts, held = train(optimizer, how)
        results[f"{optimizer} {how}"] = {
            "layouts": layouts, "bytes_per_device": held, "bytes_one_device": single[3],
            "losses_equal": bool(np.allclose(losses, single[0], rtol=1e-5)),
            "weights_equal": all(np.allclose(weights[name], single[1][name], rtol=1e-4, atol=1e-6)
                                 for name in weights),
        }


def train_split_batch(net, level):
    """3 Adam steps of ``net`` on a batch split over the 4 devices, under hsdp(threshold=8, optimizer_level=level)
    (None: one device): ({losses, weights}, the step's lowered program, or None for one device)."""
    import jax
    from jax.sharding import NamedSharding, PartitionSpec

    from sporax.graph.cell_jit import _build, compiled_cell
    from sporax.parallel import strategy

    weights = net.trainable_params()
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.Adam(weights, 0.01))
    if level is not None:
        step = AutoParallel(step, parallel_mode="semi_auto")
        step.hsdp(threshold=8, optimizer_level=level)
    mesh = strategy.strategy_mesh(4)
    batch = NamedSharding(mesh, PartitionSpec(tuple(mesh.axis_names)))
    x, y = (Tensor._wrap(jax.device_put(array, batch)) for array in (X, Y))
    found = {"losses": [float(step(x, y).asnumpy()) for _ in range(3)],
             "weights": {p.name: p.asnumpy().tolist() for p in weights}}
    if level is None:
        return found, None
    program, arrays = compiled_cell(step).lookup((x, y), {}, _build(step))
    return found, program.lower(arrays)


def train_level(level):
    """optimizer_level on the network above: the losses and weights, the sharding annotations of the gradients'
    layouts in the lowered program, and the compiled program's memory figures per device."""
    ms.reset_auto_parallel_context()
    found, lowered = train_split_batch(network(), level)
    if lowered is not None:
        # The layouts the program asks for on the split weight's shape (Shardy's sharding_constraint): the
        # weight gathered before use, its gradient, its update.
        found["shardings"] = re.findall(r"sdy.sharding_constraint [^<]*<@mesh, (\[.*\])> : tensor<256x16xf32>",
                                        lowered.as_text())
        compiled = lowered.compile()
        found["weight_all_gather"] = bool(re.search(r"f32\[256,16\]\{1,0\} all-gather\(", compiled.as_text()))
        memory = compiled.memory_analysis()
        found["memory"] = {"arguments": memory.argument_size_in_bytes, "temporaries": memory.temp_size_in_bytes,
                           "outputs": memory.output_size_in_bytes}
    return found


def train_regather(level):
    """level2 against level3 where the backward needs a split weight: Dense(16, 256, relu) -> Dense(256, 64) ->
    ReLU -> Dense(64, 4), threshold 8 KB (the first two weights split). The losses and weights, where the
    compiled step all-gathers the (64, 256) weight (forward or backward, by the op's name), and the compiled
    program's temporary bytes per device."""
    ms.reset_auto_parallel_context()
    ms.set_seed(3)
    net = nn.SequentialCell(nn.Dense(16, 256, activation="relu"), nn.Dense(256, 64), nn.ReLU(), nn.Dense(64, 4))
    found, lowered = train_split_batch(net, level)
    if lowered is not None:
        compiled = lowered.compile()
        gathers = re.findall(r"f32\[64,256\]\{1,0\} all-gather\(.*op_name=\"([^\"]*)\"", compiled.as_text())
        found["gathers"] = ["backward" if "transpose" in name else "forward" for name in gathers]
        found["temporaries"] = compiled.memory_analysis().temp_size_in_bytes
    return found


results["regather"] = {level or "single": train_regather(level) for level in (None, "level2", "level3")}

level_results = {"single": train_level(None)}
for level in ("level1", "level2", "level3"):
    level_results[level] = train_level(level)
results["levels"] = level_results

# shard groups of 3 do not divide 4 devices; more than the devices is refused
errors = {}
for label, shard_size in (("groups_of_3", 3), ("groups_of_8", 8)):
    ms.reset_auto_parallel_context()
    net = network()
    step = AutoParallel(nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                                            nn.Momentum(net.trainable_params(), 0.05, 0.9)), parallel_mode="semi_auto")
    step.hsdp(shard_size=shard_size)
    try:
        step(Tensor(X), Tensor(Y))
    except ValueError as error:
        errors[label] = str(error)
results["errors"] = errors
json.dump(results, sys.stdout)
