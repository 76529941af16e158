"""XLA:CPU flags measured on whole train steps: each flag set in its own process, interleaved.

For every candidate flag this first checks that the installed jaxlib accepts it (an unknown
flag aborts the process), then times the hand-written JAX LeNet5 (b256, b32) and ResNet-18 (b32)
train steps of ``lowering_step.py`` (sporax's CPU lowerings on) in one process per flag,
``--repeat`` rounds interleaved over the flags; the best round per flag is reported with its
ratio to no flag (sporax's own defaults, ``sporax/core/process_setup.py``, are switched off
in these processes). A flag is worth adopting only with a clear win on both.

    python benchmarks/xla_flags.py --repeat 3 --cpu-time

oneDNN in jaxlib 0.10.2 (checked in the optimized HLO, ``--xla_dump_to``; 2026-11-27): with
``--xla_cpu_use_onednn=true``, ``--xla_cpu_experimental_onednn_custom_call=true`` (with or
without ``--xla_cpu_use_thunk_runtime=false``) or ``--xla_cpu_experimental_onednn_fusion_type=
individual_convolution`` alone, the program is unchanged: every convolution stays an XLA
``convolution`` (Eigen), no ``__onednn$convolution`` custom call appears. Only
``--xla_cpu_use_onednn=true`` together with ``--xla_cpu_experimental_onednn_fusion_type`` naming
``individual_dot``/``dot`` moves the matrix products into ``onednn_fusion`` kCustom fusions
(convolutions still Eigen, also with ``individual_convolution``). sporax GRAPH LeNet5 (space-to-depth
convolutions), steps/s ratio to no flag in interleaved suite workers, machine loaded (load 12-15):
b32 0.95x (individual_dot) / 0.96x (+ individual_convolution, dot, eltwise); b256 1.42x / 1.16x
over a baseline round that ran 34.6 steps/s where it ran 44 in the rounds before: no reliable win,
not adopted. ``--xla_cpu_multi_thread_eigen=false`` (Eigen's convolutions on one thread): b32
1.03x, b256 1.32x and 1.68x in two loaded runs: one thread waits on no descheduled sibling; it
could not be measured on a quiet machine, where two threads should pay for the large
convolutions, so it is not adopted either.
"""
import argparse
import os
import subprocess
import sys

FLAGS = ["", "--xla_cpu_use_onednn=true", "--xla_cpu_experimental_onednn_custom_call=true",
         "--xla_cpu_use_xnnpack=true", "--xla_cpu_experimental_xnn_graph_fusion_mode=XNN_GRAPH_FUSION_MODE_GREEDY",
         "--xla_cpu_use_thunk_runtime=false", "--xla_cpu_prefer_vector_width=512",
         "--xla_cpu_use_fusion_emitters=false", "--xla_cpu_experimental_ynn_fusion_type=",
         "--xla_cpu_use_onednn=true --xla_cpu_experimental_onednn_fusion_type=individual_dot",
         "--xla_cpu_use_onednn=true --xla_cpu_experimental_onednn_fusion_type=individual_convolution",
         "--xla_cpu_multi_thread_eigen=false"]
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
