"""The parallel optimizer's levels on 4 host devices: what each device holds and what each step gathers (issue 25).

Four Dense(1024, 1024, tanh) layers (4 MiB of weight each), Adam, ``AutoParallel(...).hsdp(optimizer_level=...)``
over 4 devices of one process (``--xla_force_host_platform_device_count=4``), batch 32 split over the devices.
For each level: the compiled step's all-gathers of a (1024, 1024) weight (forward / backward, by the op's
name), its temporary and argument bytes per device (XLA's memory analysis: exact, not timed), and that the
losses of 2 steps equal level1's. level3 gathers each weight again in the backward instead of keeping the
forward's gathered copy, so its temporaries shrink by about the gathered weights.

    python3 benchmarks/optimizer_levels.py
"""
import os
import re

os.environ["XLA_FLAGS"] = os.environ.get("XLA_FLAGS", "") + " --xla_force_host_platform_device_count=4"

import jax  # noqa: E402
import numpy as np  # noqa: E402
from jax.sharding import NamedSharding, PartitionSpec  # noqa: E402

import sporax as ms  # noqa: E402
from sporax import Tensor, nn  # noqa: E402
from sporax.graph.cell_jit import _build, compiled_cell  # noqa: E402
from sporax.parallel import strategy  # noqa: E402
from sporax.parallel.auto_parallel import AutoParallel  # noqa: E402

WIDTH = 1024


def measure(level, inputs, targets):
    """(losses of 2 steps, [forward/backward per weight all-gather], temporary bytes, argument bytes)."""
    ms.reset_auto_parallel_context()
    ms.set_seed(3)
    net = nn.SequentialCell(*[nn.Dense(WIDTH, WIDTH, activation="tanh") for _ in range(4)])
    step = AutoParallel(nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                                            nn.Adam(net.trainable_params(), 0.001)), parallel_mode="semi_auto")
    step.hsdp(threshold=64, optimizer_level=level)
    mesh = strategy.strategy_mesh(4)
    batch = NamedSharding(mesh, PartitionSpec(tuple(mesh.axis_names)))
    x, y = (Tensor._wrap(jax.device_put(array, batch)) for array in (inputs, targets))
    losses = [float(step(x, y).asnumpy()) for _ in range(2)]
    program, arrays = compiled_cell(step).lookup((x, y), {}, _build(step))
    compiled = program.lower(arrays).compile()
    names = re.findall(rf"f32\[{WIDTH},{WIDTH}\]\{{1,0\}} all-gather\(.*op_name=\"([^\"]*)\"", compiled.as_text())
    gathers = ["backward" if "transpose" in name else "forward" for name in names]
    memory = compiled.memory_analysis()
    return losses, gathers, memory.temp_size_in_bytes, memory.argument_size_in_bytes


def main():
    ms.set_context(mode=ms.GRAPH_MODE)
    generator = np.random.default_rng(0)
    inputs = generator.random((32, WIDTH), dtype=np.float32)
    targets = generator.random((32, WIDTH), dtype=np.float32)
    rows = {level: measure(level, inputs, targets) for level in ("level1", "level2", "level3")}
    print(f"{'level':8} {'weight all-gathers (fwd+bwd)':>30} {'temporaries MiB':>16} {'arguments MiB':>14} "
          f"{'losses = level1':>16}")
    for level, (losses, gathers, temporaries, arguments) in rows.items():
        count = f"{gathers.count('forward')}+{gathers.count('backward')}"
        same = bool(np.allclose(losses, rows["level1"][0], rtol=1e-5))
        print(f"{level:8} {count:>30} {temporaries / 2 ** 20:16.1f} {arguments / 2 ** 20:14.1f} {str(same):>16}")


if __name__ == "__main__":
    main()
