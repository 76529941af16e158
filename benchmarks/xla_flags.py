"""XLA:CPU flags measured on whole train steps: each flag set in its own process, interleaved.

For every candidate flag this first checks that the installed jaxlib accepts it (an unknown
flag aborts the process), then times the hand-written JAX LeNet5 (b256, b32) and ResNet-18 (b32)
train steps of ``lowering_step.py`` (sporax's CPU lowerings on) in one process per flag,
``--repeat`` rounds interleaved over the flags; the best round per flag is reported with its
ratio to no flag (sporax's own defaults, ``sporax/core/xla_cpu_flags.py``, are switched off
in these processes). A flag is worth adopting only with a clear win on both.

    python benchmarks/xla_flags.py --repeat 3 --cpu-time
"""
import argparse
import os
import subprocess
import sys

FLAGS = ["", "--xla_cpu_use_onednn=true", "--xla_cpu_experimental_onednn_custom_call=true",
         "--xla_cpu_use_xnnpack=true", "--xla_cpu_experimental_xnn_graph_fusion_mode=XNN_GRAPH_FUSION_MODE_GREEDY",
         "--xla_cpu_use_thunk_runtime=false", "--xla_cpu_prefer_vector_width=512",
         "--xla_cpu_use_fusion_emitters=false", "--xla_cpu_experimental_ynn_fusion_type="]
_HERE = os.path.dirname(os.path.abspath(__file__))
_CHILD = """
import sys, time
sys.path.insert(0, {here!r})
import jax, sporax, lowering_step
from sporax.ops.lowering import pool_cpu
from lowering_candidates import plain
clock = time.process_time if {cpu} else time.perf_counter
def pool(x):
    return pool_cpu.max_pool_tiles(x, (2, 2))
for build, batch, steps in ((lowering_step.lenet5, 256, 8), (lowering_step.resnet18, 32, 2),
                            (lowering_step.lenet5, 32, 40)):
    loss_fn, params, x, y = build(plain, pool, batch)
    step = lowering_step.train_step(loss_fn)
    jax.block_until_ready(step(params, x, y))
    started = clock()
    for _ in range(steps):
        out = step(params, x, y)
    jax.block_until_ready(out)
    print((clock() - started) / steps * 1e3)
"""


def accepted(flag, env):
    probe = subprocess.run([sys.executable, "-c", "import jax; jax.numpy.zeros(1).block_until_ready()"],
                           env={**env, "XLA_FLAGS": flag}, capture_output=True, text=True, timeout=300)
    return probe.returncode == 0


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cpu-time", action="store_true", help="time CPU seconds (steadier under load)")
    parser.add_argument("--flag", action="append", help="flags to measure (default: the built-in list)")
    args = parser.parse_args(argv)
    env = dict(os.environ)
    flags = [""] + [f for f in (args.flag or FLAGS) if f]
    flags = [f for f in flags if not f or accepted(f, env)]
    rejected = sorted(set(args.flag or FLAGS) - set(flags) - {""})
    print(f"# {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}; {'CPU' if args.cpu_time else 'wall'} "
          f"ms per step, best of {args.repeat} interleaved processes; rejected by jaxlib: {rejected or 'none'}")
    best = {flag: [float("inf")] * 3 for flag in flags}
    child = _CHILD.format(here=_HERE, cpu=args.cpu_time)
    for _ in range(args.repeat):
        for flag in flags:
            run = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=900,
                                 env={**env, "XLA_FLAGS": flag, "SPORAX_XLA_CPU_FLAGS": "off"})
            if run.returncode:
                best[flag] = None
                print(f"{flag or '(none)'}: failed: {run.stderr.strip().splitlines()[-1:]}", flush=True)
                continue
            if best[flag] is not None:
                best[flag] = [min(b, float(v)) for b, v in zip(best[flag], run.stdout.split())]
    base = best[""]
    for flag, times in best.items():
        if times is None:
            continue
        print(f"{flag or '(no flag)':<66} lenet5_b256 {times[0]:7.2f} ms {base[0] / times[0]:5.2f}x  "
              f"resnet18_b32 {times[1]:7.2f} ms {base[1] / times[1]:5.2f}x  "
              f"lenet5_b32 {times[2]:6.2f} ms {base[2] / times[2]:5.2f}x", flush=True)
    print(f"# load average {os.getloadavg()[0]:.1f} at end")


if __name__ == "__main__":
    main()
