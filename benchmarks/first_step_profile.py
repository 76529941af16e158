"""Where a cold (or warm) first training step of sporax GRAPH_MODE spends its CPU time, phase by phase.

``first_step.py`` gives wall times, which on a shared 2-core machine follow the load more than
the code. This script runs one model's first step in this process and splits it by CPU time (all
threads, and the main thread alone) at the events JAX reports (``jax.monitoring``: the end of each
trace, of the MLIR lowering, of XLA's backend compile, of a persistent-cache read), at the return
of sporax's ``Program.run`` (compiled and dispatched) and at the loss's ``asnumpy`` (executed);
then times ``--steps`` more steps, so the first execution's extra cost (memory first touched,
oneDNN primitives created) shows against a steady one. It also counts the garbage collector's
passes and minor page faults of each phase. Run it in a fresh process per measurement, with an
empty cache folder for a cold compile::

    SPORAX_COMPILATION_CACHE_DIR=$(mktemp -d) PYTHONPATH=src python3 benchmarks/first_step_profile.py resnet18

Measured (CIFAR ResNet-18 b32, cold cache, jaxlib 0.10.2, 2-core AMD EPYC at load 16-19, so CPU
seconds, not wall): trace 0.34 (main thread), lowering 0.07, XLA compile 2.0-2.2 (on XLA's
threads: ~0.25 HLO passes, then MLIR emission of 91 fusion kernels and LLVM code generation on two
codegen threads, per a ``jax.profiler`` trace), persistent-cache write and dispatch 0.01, first
execution 0.77-0.84 against 0.65-0.69 for a steady step (oneDNN's primitives for the 11
convolution shapes are 7 ms of that). Before ``gc.freeze()`` at import (``process_setup`` 8) one
full collection during the trace took 0.12-0.14 more. On two idle cores that is about 0.4 s of
serial tracing, 0.9-1.0 s of compile and 0.35-0.4 s of execution: the first step's floor without
running the step while it compiles, or compiling less.

Tenth pass (``cpu_speed_notes.md``; jaxlib 0.10.2, load 14-20, CPU seconds; the lead's idle-machine
run at the session's start: trace 0.24 + 0.015, lower 0.05, compile 1.15-1.26 s wall / 1.84-2.0 CPU,
first run 0.43-0.45 s wall / 0.74 CPU against 0.29 steady, 1.87 s in all): trace 0.22-0.26, lower
0.045, XLA compile 1.5-2.1 (no XLA option measured changes it), first run 0.67-1.5 (spinning OpenMP
threads under load) against 0.54-0.6 steady, with 41,000-46,000 page faults (0.03-0.11 s system
CPU; ``perf``: the faults and the OpenMP threads waiting on them are the first run's whole extra
cost). Touching those pages in an idle thread during the compile (tried, then removed: see the
notes) cut them to 1,700 but the first step only 1.83 -> 1.80 s on an idle machine.

``--per-op`` runs the first step's program op by op instead (its traced jaxpr evaluated outside ``jax.jit``, as
the per-op path DESIGN 7 names would run the first steps while the whole step compiled in the background):
every distinct operation (sporax's jitted op kernels, JAX primitives) is then an XLA program of its own, and
the script counts those compiles by name. Results and the comparison: ``first_step.md``.
"""
import argparse
import collections
import gc
import os
import resource
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

EVENTS = {"/jax/core/compile/jaxpr_trace_duration": "trace",
          "/jax/core/compile/jaxpr_to_mlir_module_duration": "lower",
          "/jax/core/compile/backend_compile_duration": "XLA compile",
          "/jax/compilation_cache/cache_retrieval_time_sec": "cache read"}


class Timeline:
    """Marks with the wall clock, the process's and the main thread's CPU time, faults and GC time."""

    def __init__(self):
        self.marks = []
        self.gc_seconds = 0.0
        self.gc_passes = [0, 0, 0]
        self._gc_started = None
        self.in_first_step = True

    def mark(self, label):
        usage = resource.getrusage(resource.RUSAGE_SELF)
        self.marks.append((label, time.perf_counter(), time.process_time(), time.thread_time(), usage.ru_minflt,
                           self.gc_seconds, tuple(self.gc_passes), usage.ru_stime))

    def on_gc(self, phase, info):
        if phase == "start":
            self._gc_started = time.thread_time()
        elif self._gc_started is not None:
            self.gc_seconds += time.thread_time() - self._gc_started
            self.gc_passes[info["generation"]] += 1

    def report(self):
        print(f"{'phase (ends at)':44s} {'wall s':>7s} {'CPU s':>6s} {'main':>6s} {'faults':>7s} {'sys s':>6s} {'GC s':>6s}  GC passes")
        for previous, current in zip(self.marks, self.marks[1:]):
            label, wall, cpu, main, faults, gc_seconds, passes, system = current
            print(f"{label:44s} {wall - previous[1]:7.3f} {cpu - previous[2]:6.3f} {main - previous[3]:6.3f} "
                  f"{faults - previous[4]:7d} {system - previous[7]:6.3f} {gc_seconds - previous[5]:6.3f}  "
                  f"{[now - before for now, before in zip(passes, previous[6])]}")


def per_op_run(program, arrays):
    """``program``'s call with its jaxpr evaluated op by op (``Program._final`` outside ``jax.jit``)."""
    from sporax.state.lifting import store
    leaves, new_values = program._final([state._array for state in program.written],
                                        [state._array for state in program.readonly], arrays)
    store(program.written, new_values)
    return program.outputs(leaves)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model", choices=("mlp", "lenet5", "resnet18", "transformer", "lstm"))
    parser.add_argument("--steps", type=int, default=3, help="steady steps timed after the first")
    parser.add_argument("--per-op", action="store_true", help="run the first step's program op by op (see above)")
    args = parser.parse_args()
    import sporax  # noqa: F401  (JAX's options as sporax sets them, the persistent cache included)
    from jax import monitoring

    import first_step
    import recurrent
    from sporax.state import program as program_module

    timeline = Timeline()

    compiles = collections.Counter()

    def listener(event, duration, fun_name="", **_):
        if args.per_op and timeline.in_first_step:
            if event == "/jax/core/compile/backend_compile_duration":
                compiles[fun_name] += 1
            return  # a mark per small compile would bury the phases
        if event in EVENTS:
            timeline.mark(f"{EVENTS[event]} {fun_name}".strip()[:44])
    monitoring.register_event_duration_secs_listener(listener)
    run_program = program_module.Program.run

    def timed_run(program, *arguments, **keywords):
        if args.per_op and timeline.in_first_step:
            timeline.mark("traced")
            result = per_op_run(program, *arguments)
        else:
            result = run_program(program, *arguments, **keywords)
        if timeline.in_first_step:
            timeline.mark("Program.run returned (dispatched)")
        return result
    program_module.Program.run = timed_run
    run = recurrent.sporax_runner(args.model, first_step.BATCH[args.model])
    gc.callbacks.append(timeline.on_gc)
    timeline.mark("start")
    run(1)
    timeline.mark("first step executed (loss read)")
    timeline.in_first_step = False
    for index in range(args.steps):
        run(1)
        timeline.mark(f"steady step {index + 2}")
    timeline.report()
    if args.per_op:
        print(f"first step op by op: {sum(compiles.values())} XLA compiles, {len(compiles)} names: "
              f"{', '.join(f'{name} {count}' for name, count in compiles.most_common())}")
    print(f"load {os.getloadavg()[0]:.1f}; objects tracked by the collector {len(gc.get_objects())}, "
          f"frozen {gc.get_freeze_count()}; peak resident memory "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")


if __name__ == "__main__":
    main()
