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

``--compile`` measures what a flag does to XLA's compile instead: sporax's GRAPH ``TrainOneStepCell``
of a model (``--model``, default the CIFAR ResNet-18 b32) is lowered once, then compiled with each
option set (per-compile XLA debug options, no persistent cache) in ``--repeat`` interleaved rounds in
one process, with the compile's CPU seconds (all threads) and wall time, a steady step's CPU time and
whether its outputs are bit-equal to the default's::

    PYTHONPATH=src python3 benchmarks/xla_flags.py --compile --repeat 3

Measured (ResNet-18 b32, jaxlib 0.10.2, 2-core AMD EPYC at load 15-19, so CPU seconds; median of 3
rounds, 2026-11-29): default 2.01 s compile CPU, ``xla_cpu_use_fusion_emitters=false`` 2.28,
``xla_cpu_parallel_codegen_split_count=8`` 1.93, ``xla_cpu_max_isa=AVX2`` 1.89,
``xla_llvm_disable_expensive_passes`` 1.94; steady step CPU 547-619 ms for all, every variant
bit-equal to the default. None is outside the rounds' spread (1.66-2.28 s): no flag cuts the compile.
A ``perf`` profile of the compile puts 14% of its samples in glibc's malloc/free (``_int_malloc``,
``malloc_consolidate``, ``unlink_chunk``), the rest spread over MLIR pattern application and LLVM;
sporax's one-arena malloc options do not change it (compile CPU 1.93-2.11 s with them, 1.84-2.11 s
with ``SPORAX_HOST_MALLOC=off``, three alternated cold processes each).

``--compile --model NAME:SIZE`` takes a mindcv model's train step instead (``compile_time.py``'s: batch 2,
AdamW), ``--option`` picks the entries to compare with the default, and each compiled variant runs
``CHECKED_STEPS`` steps from the same state whose losses are compared with the default's bit for bit.
``--anatomy`` prints what the ``--model`` train step's program is made of (lowered ops and custom calls, XLA's
fusions and how many parts of each run at once on the intra-op threads, the kernels it generated code for). Intel
VM figures (session 23: only LLVM -O0 cuts the compile, and it changes values): ``compile_time.md``.
``--values`` compares element-wise functions (``VALUE_FUNCTIONS``) under ``xla_cpu_use_fusion_emitters=false``
with the default's, and counts correctly rounded results where they differ. Figures: ``compile_time.md``.
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


# A repeated enum option takes the enum's full value names as a compile option (XLA_FLAGS takes the short ones).
YNN_ELTWISE = ",".join(f"LIBRARY_FUSION_TYPE_{kind}" for kind in ("INDIVIDUAL_DOT", "REDUCE", "ELTWISE"))
COMPILE_OPTIONS = {"default": {}, "fusion emitters off": {"xla_cpu_use_fusion_emitters": False},
                   "codegen split 8": {"xla_cpu_parallel_codegen_split_count": 8},
                   "max ISA AVX2": {"xla_cpu_max_isa": "AVX2"},
                   "no expensive LLVM passes": {"xla_llvm_disable_expensive_passes": True},
                   "LLVM -O0": {"xla_backend_optimization_level": 0},
                   "LLVM -O1": {"xla_backend_optimization_level": 1},
                   "LLVM -O2": {"xla_backend_optimization_level": 2},
                   "concurrency scheduler off": {"xla_cpu_enable_concurrency_optimized_scheduler": False},
                   "vector width 256": {"xla_cpu_prefer_vector_width": 256},
                   "no emitter verification": {"xla_cpu_emitter_verification_level": 0},
                   "emitters off + no expensive passes": {"xla_cpu_use_fusion_emitters": False,
                                                          "xla_llvm_disable_expensive_passes": True},
                   "YNN eltwise": {"xla_cpu_experimental_ynn_fusion_type": YNN_ELTWISE},
                   "YNN eltwise + LLVM -O0": {"xla_cpu_experimental_ynn_fusion_type": YNN_ELTWISE,
                                              "xla_backend_optimization_level": 0},
                   "fast-compile preset": {"xla_cpu_opt_preset": "CPU_OPT_PRESET_FAST_COMPILE"}}
CHECKED_STEPS = 3  # losses compared with the default's, bit for bit, over this many steps from the same state


def train_program(model):
    """``(lowered TrainOneStepCell program, its written and read-only state values, its input arrays)``.

    ``model``: a suite model (``first_step.BATCH``) or ``NAME:SIZE`` of a mindcv model made as
    ``compile_time.py`` makes it (batch 2, AdamW, CE with label smoothing)."""
    import jax
    import numpy as np

    sys.path.insert(0, _HERE)
    from sporax.state import program_cache
    if ":" in model:
        import compile_time
        sys.path[:0] = ["/tmp/ecosys-deps", os.path.join(compile_time.DEFAULT_ECOSYS, "mindcv")]
        import sporax.compat
        sporax.compat.install()
        import mindspore
        name, size = model.split(":")
        compile_time.build_step(name, int(size), "train", mindspore)()
        np.random.seed(0)  # the inputs build_step made: the same generator, drawn again
        arrays = [np.random.rand(2, 3, int(size), int(size)).astype(np.float32),
                  np.random.randint(0, 10, (2,)).astype(np.int32)]
    else:
        import first_step
        import recurrent
        import suite_models
        recurrent.sporax_runner(model, first_step.BATCH[model])(1)
        arrays = suite_models.data(model, first_step.BATCH[model])
    program, shapes = program_cache.last_built("eval")  # TrainOneStepCell compiles as an eval-phase root
    state = ([state._array for state in program.written], [state._array for state in program.readonly])
    return program.lower(shapes), state, [jax.numpy.asarray(a) for a in arrays]


def compile_times(model, rounds, names=None):
    """Per ``COMPILE_OPTIONS`` entry (``names``: a selection), in this process, interleaved over ``rounds``:
    compile CPU/wall, steady step CPU and whether ``CHECKED_STEPS`` steps' losses equal the default's."""
    os.environ["SPORAX_COMPILATION_CACHE_DIR"] = "off"
    import time

    import jax
    import numpy as np

    from sporax.core import jax_private
    lowered, (old, readonly), arrays = train_program(model)
    options_by_name = {name: COMPILE_OPTIONS[name] for name in ["default"] + [n for n in names or COMPILE_OPTIONS
                                                                              if n != "default"]}
    reference, figures = None, {name: {"compile": [], "wall": [], "step": []} for name in options_by_name}
    for index in range(rounds):
        for name, options in options_by_name.items():
            # An option XLA:CPU ignores, new each round: JAX keeps one executable per lowering and options.
            options = {**options, "xla_gpu_autotune_level": 1 + index}
            started, cpu_started = time.perf_counter(), time.process_time()
            executable = jax_private.compile_uncached(lowered, options)
            figures[name]["compile"].append(time.process_time() - cpu_started)
            figures[name]["wall"].append(time.perf_counter() - started)
            values, losses, steps = [jax.numpy.array(value, copy=True) for value in old], [], []
            for count in range(CHECKED_STEPS + 12):
                cpu_started = time.process_time()
                leaves, values = executable(values, readonly, arrays)
                jax.block_until_ready(leaves)
                steps.append(time.process_time() - cpu_started)
                if count < CHECKED_STEPS:
                    losses.append(np.asarray(jax.tree_util.tree_leaves(leaves)[0]))
                elif sum(steps[CHECKED_STEPS:]) > 2.0 and len(steps) > CHECKED_STEPS + 3:
                    break
            reference = reference or losses
            figures[name]["equal"] = all(a.tobytes() == b.tobytes() for a, b in zip(reference, losses))
            figures[name]["apart"] = max(float(np.max(np.abs(a.astype(np.float64) - b))) for a, b in zip(reference, losses))
            figures[name]["step"].append(np.median(steps[CHECKED_STEPS:]))
    print(f"# {model}: median of {rounds} interleaved rounds, load average {os.getloadavg()[0]:.1f}")
    for name, figure in figures.items():
        print(f"{name:34s} compile CPU {np.median(figure['compile']):6.2f} s (rounds {min(figure['compile']):.2f}-"
              f"{max(figure['compile']):.2f}), wall {np.median(figure['wall']):6.2f} s; step CPU "
              f"{np.median(figure['step']) * 1e3:6.1f} ms (rounds {min(figure['step']) * 1e3:.1f}-"
              f"{max(figure['step']) * 1e3:.1f}); {CHECKED_STEPS} losses bit-equal to default: {figure['equal']}"
              f" (largest difference {figure['apart']:.1e})", flush=True)


def anatomy(model):
    """What the train step's one XLA program is made of: the lowered StableHLO's ops and custom calls, then
    (``--xla_dump_to`` a temporary folder) XLA:CPU's fusions after optimization and the kernels it generated
    code for (one object file each: XLA compiles a fusion computation once for all its instances)."""
    import collections
    import re
    import tempfile
    folder = tempfile.mkdtemp(prefix="sporax-anatomy-")
    os.environ["XLA_FLAGS"] = f"{os.environ.get('XLA_FLAGS', '')} --xla_dump_to={folder}".strip()
    os.environ["SPORAX_COMPILATION_CACHE_DIR"] = "off"
    lowered = train_program(model)[0]
    text = lowered.as_text()
    ops = collections.Counter(re.findall(r"= (?:\")?([a-z_]+\.[a-z_]+)", text))
    calls = collections.Counter(re.findall(r"custom_call @([A-Za-z_$0-9.]+)", text))
    print(f"# {model}: lowered StableHLO {text.count(chr(10))} lines, {sum(ops.values())} ops, "
          f"{text.count('func.func')} functions; {dict(ops.most_common(8))}; custom calls {dict(calls)}")
    lowered.compile()
    optimized = next(os.path.join(folder, name) for name in os.listdir(folder)
                     if "jit_final" in name and name.endswith("cpu_after_optimizations.txt"))
    with open(optimized) as optimized_text:
        optimized_text = optimized_text.read()
    names = re.findall(r"^  %([a-z_.0-9]+) = .* fusion\(", optimized_text, re.M)
    fusions = collections.Counter(re.sub(r"\.\d+$", "", name) for name in names)
    # XLA:CPU's parallel task assignment splits a large loop fusion's outer dimension into parts that its thunk runs
    # on the intra-op threads at once (YNNPACK's fusions are scheduled by YNNPACK): a trace has one event per fusion
    # whatever its parts, so fusions that never overlap there may still each use every thread
    # (cpu_speed_notes.md, twenty-first pass).
    split = collections.Counter()
    for line in re.findall(r"^  %[a-z_.0-9]+ = .* fusion\(.*$", optimized_text, re.M):
        parts = re.search(r'"outer_dimension_partitions":\[([^]]*)\]', line)
        parts = parts.group(1).replace('"', "") if parts else ""
        kind = "YNNPACK" if "__ynn_fusion" in line else re.search(r"kind=(k[A-Za-z]+)", line).group(1)
        split[(kind, f"{parts} parts" if parts else "1 part")] += 1
    kernels = collections.Counter(re.sub(r"(\.\d+)?(_kernel_module)?\.o$", "", name.split("obj-file.")[1]
                                         .replace("__compute_module_", "")) for name in os.listdir(folder)
                                  if "jit_final.obj-file." in name)
    print(f"after optimization: {sum(fusions.values())} fusions {dict(fusions.most_common())}")
    print("fusions by kind and parts run at once (XLA's outer_dimension_partitions): "
          + ", ".join(f"{kind} {parts}: {count}" for (kind, parts), count in sorted(split.items())))
    print(f"kernels generated: {sum(kernels.values())} {dict(kernels.most_common())}; dump in {folder}")


# Element-wise functions whose values ``--values`` compares between XLA:CPU's fusion emitters and its older
# elemental emitters (``xla_cpu_use_fusion_emitters=false``), each on 16384 normal values of scale 4.
VALUE_FUNCTIONS = {
    "exp": "jnp.exp(x)", "log": "jnp.log(jnp.abs(x) + 1e-3)", "log1p": "jnp.log1p(jnp.abs(x))", "tanh": "jnp.tanh(x)",
    "sigmoid": "jax.nn.sigmoid(x)", "softplus": "jax.nn.softplus(x)", "gelu": "jax.nn.gelu(x)", "erf": "jax.lax.erf(x)",
    "sin": "jnp.sin(x)", "tan": "jnp.tan(x)", "atan": "jnp.arctan(x)", "asinh": "jnp.arcsinh(x)",
    "sqrt": "jnp.sqrt(jnp.abs(x))", "rsqrt": "jax.lax.rsqrt(jnp.abs(x) + 1e-3)", "cbrt": "jnp.cbrt(x)",
    "power": "jnp.abs(x) ** (x / 4)", "softmax": "jax.nn.softmax(x.reshape(16, -1), axis=-1)",
    "layer norm": "(x - x.mean()) * jax.lax.rsqrt(x.var() + 1e-5)", "sum": "jnp.sum(x.reshape(4, -1), axis=1)"}


def emitter_values():
    """Per dtype and ``VALUE_FUNCTIONS`` entry: whether the older emitters give the default's values bit for bit,
    and where not, how many results each rounds correctly (float64 NumPy's value rounded to the dtype)."""
    import jax
    import jax.numpy as jnp
    import ml_dtypes
    import numpy as np
    jax.config.update("jax_enable_x64", True)
    x = np.random.default_rng(0).standard_normal(1 << 14) * 4
    for dtype in (np.float32, np.float16, ml_dtypes.bfloat16):
        differ = []
        for name, expression in VALUE_FUNCTIONS.items():
            function = eval(f"lambda x: {expression}", {"jax": jax, "jnp": jnp})  # noqa: S307 - the table above
            lowered = jax.jit(function).lower(x.astype(dtype))
            default, older = (np.asarray(lowered.compile(options)(x.astype(dtype)))
                              for options in ({}, {"xla_cpu_use_fusion_emitters": False}))
            if default.tobytes() != older.tobytes():
                exact = np.asarray(function(x.astype(dtype).astype(np.float64))).astype(dtype)
                differ.append(f"{name} ({np.sum(default == exact)} / {np.sum(older == exact)} of {exact.size} "
                              "correctly rounded)")
        print(f"{np.dtype(dtype).name}: {len(VALUE_FUNCTIONS) - len(differ)} of {len(VALUE_FUNCTIONS)} bit-equal; "
              f"differ (default / emitters off): {', '.join(differ) or 'none'}", flush=True)


def accepted(flag, env):
    probe = subprocess.run([sys.executable, "-c", "import jax; jax.numpy.zeros(1).block_until_ready()"],
                           env={**env, "XLA_FLAGS": flag}, capture_output=True, text=True, timeout=300)
    return probe.returncode == 0


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cpu-time", action="store_true", help="time CPU seconds (steadier under load)")
    parser.add_argument("--flag", action="append", help="flags to measure (default: the built-in list)")
    parser.add_argument("--compile", action="store_true",
                        help="XLA compile time of sporax's train step per COMPILE_OPTIONS entry, in one process")
    parser.add_argument("--model", default="resnet18",
                        help="--compile: a suite model (first_step.BATCH) or a mindcv NAME:SIZE (batch 2)")
    parser.add_argument("--option", action="append", choices=tuple(COMPILE_OPTIONS),
                        help="--compile: the COMPILE_OPTIONS entries to measure beside the default (default: all)")
    parser.add_argument("--values", action="store_true",
                        help="element-wise values with XLA:CPU's older emitters against the default's (VALUE_FUNCTIONS)")
    parser.add_argument("--anatomy", action="store_true",
                        help="the --model train step's lowered ops, fusions and generated kernels (anatomy())")
    args = parser.parse_args(argv)
    if args.anatomy:
        anatomy(args.model)
        return
    if args.values:
        emitter_values()
        return
    if args.compile:
        compile_times(args.model, args.repeat, args.option)
        return
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
