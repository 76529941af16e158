"""Where a sporax GRAPH train step's time goes on XLA:CPU: per-kind time from a profiler trace, and core use.

Builds a ``suite_models`` workload as the suite's ``sporax-graph`` contender does (``TrainOneStepCell``,
Momentum), times ``--steps`` steps (wall and CPU seconds of all threads: CPU / wall is the number of
cores the step kept busy), then records one ``jax.profiler`` trace of ``--trace-steps`` steps and sums
the XLA thunks' durations by kind (FFI calls into oneDNN, fusions, transposes, copies, ...) and by
thread, with the step's span in the trace. Run it from the repository root::

    PYTHONPATH=src python3 benchmarks/step_profile.py --only resnet18_b32 --top 25

Under load (other processes on the cores) the wall and per-thunk times stretch; CPU time per step
is the dependable figure. The profiler itself slows the oneDNN calls (their OpenMP teams; an
isolated convolution took 48 ms plain and 374 ms traced), so their share in the trace is an upper
bound; compare fusions with fusions.
"""
import argparse
import collections
import glob
import gzip
import json
import os
import re
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import suite_models  # noqa: E402


def build(workload):
    """A ``step()`` of the sporax GRAPH contender and a ``finish(loss)`` that waits for it."""
    import sporax as ms
    model, batch = suite_models.WORKLOADS[workload]
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(0)
    network = suite_models.ms_network(ms, model)
    network.set_train()
    optimizer = ms.nn.Momentum(network.trainable_params(), 0.01, 0.9)
    train_step = ms.nn.TrainOneStepCell(ms.nn.WithLossCell(network, suite_models.ms_loss(ms, model)), optimizer)
    x, y = (ms.Tensor(a) for a in suite_models.data(model, batch))
    return lambda: train_step(x, y), lambda loss: loss.asnumpy()


def thread_cpu_seconds():
    """CPU seconds of each of this process's threads, by thread id (Linux ``/proc``; empty elsewhere)."""
    ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    seconds = {}
    for thread in os.listdir("/proc/self/task") if os.path.isdir("/proc/self/task") else ():
        try:
            with open(f"/proc/self/task/{thread}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except OSError:  # the thread ended meanwhile
            continue
        seconds[thread] = (int(fields[11]) + int(fields[12])) / ticks
    return seconds


def timed(step, finish, steps):
    """(wall seconds, CPU seconds, CPU seconds of each thread that worked) of ``steps`` steps."""
    threads = thread_cpu_seconds()
    started, started_cpu = time.perf_counter(), time.process_time()
    loss = None
    for _ in range(steps):
        loss = step()
    finish(loss)
    wall, cpu = time.perf_counter() - started, time.process_time() - started_cpu
    used = {thread: value - threads.get(thread, 0.0) for thread, value in thread_cpu_seconds().items()}
    return wall, cpu, sorted((value for value in used.values() if value > 0.005 * steps), reverse=True)


# The trace names a thunk by its HLO instruction, so sporax's oneDNN calls all show as ffi_call.N.
_KINDS = ((r"^ffi_call", "FFI call (sporax's oneDNN kernels)"), (r"convolution", "XLA convolution"),
          (r"^(dot|.*_dot)", "matrix product"), (r"transpose", "transpose"), (r"^copy", "copy"),
          (r"reduce", "reduction fusion"), (r"fusion", "elementwise fusion"), (r"conditional", "conditional"))


def kind_of(name):
    for pattern, kind in _KINDS:
        if re.search(pattern, name):
            return kind
    return "other: " + re.sub(r"[.\d]+$", "", name)


def profile(step, finish, steps, top):
    import jax
    folder = tempfile.mkdtemp(prefix="sporax-profile-")
    with jax.profiler.trace(folder, create_perfetto_trace=True):
        finish(step())  # the trace's first step pays the profiler's start; not summed
        for _ in range(steps):
            loss = step()
        finish(loss)
    trace_file = sorted(glob.glob(os.path.join(folder, "**", "perfetto_trace.json.gz"), recursive=True))[-1]
    with gzip.open(trace_file) as handle:
        events = json.load(handle)
    events = events["traceEvents"] if isinstance(events, dict) else events
    threads = {(e.get("pid"), e.get("tid")): e["args"]["name"] for e in events
               if e.get("ph") == "M" and e.get("name") == "thread_name"}
    # XLA:CPU thunks are complete events whose args name the HLO op ("hlo_op") or whose name is the op.
    thunks = [e for e in events if e.get("ph") == "X" and "hlo_op" in e.get("args", {})]
    if not thunks:
        raise SystemExit(f"no XLA thunks in {trace_file}; event names: "
                         f"{sorted({e.get('name') for e in events if e.get('ph') == 'X'})[:40]}")
    thunks.sort(key=lambda e: e["ts"])
    # Keep the last `steps` runs of the program: the thunks after the first step's end.
    programs = sorted((e for e in events if e.get("ph") == "X" and e.get("name", "").startswith(("jit_", "pjit_"))
                       and "hlo_op" not in e.get("args", {})), key=lambda e: e["ts"])
    start = programs[-steps]["ts"] if len(programs) >= steps else thunks[0]["ts"]
    thunks = [e for e in thunks if e["ts"] >= start]
    end = max(e["ts"] + e["dur"] for e in thunks)
    by_kind, by_op, by_thread = collections.Counter(), collections.Counter(), collections.Counter()
    counts = collections.Counter()
    for e in thunks:
        name = e["args"]["hlo_op"]
        kind = kind_of(name)
        by_kind[kind] += e["dur"]
        counts[kind] += 1
        by_op[name] += e["dur"]
        by_thread[threads.get((e.get("pid"), e.get("tid")), e.get("tid"))] += e["dur"]
    total = sum(by_kind.values())
    print(f"trace: {steps} steps, span {(end - start) / 1e3 / steps:.1f} ms a step, thunk time "
          f"{total / 1e3 / steps:.1f} ms a step ({total / (end - start):.2f} threads busy on average)")
    for kind, micros in by_kind.most_common():
        print(f"  {kind:32s} {micros / 1e3 / steps:8.1f} ms  {100 * micros / total:5.1f}%  ({counts[kind] // steps} a step)")
    print("threads:", ", ".join(f"{name} {micros / 1e3 / steps:.1f} ms" for name, micros in by_thread.most_common(6)))
    print(f"top {top} ops other than FFI calls (ms a step):")
    for name, micros in [item for item in by_op.most_common() if not item[0].startswith("ffi_call")][:top]:
        print(f"  {micros / 1e3 / steps:7.2f}  {name}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", default="resnet18_b32", choices=sorted(suite_models.WORKLOADS))
    parser.add_argument("--steps", type=int, default=5, help="timed steps (after 3 warm-up steps)")
    parser.add_argument("--trace-steps", type=int, default=3)
    parser.add_argument("--top", type=int, default=20)
    parser.add_argument("--no-trace", action="store_true")
    args = parser.parse_args()
    step, finish = build(args.only)
    timed(step, finish, 3)
    wall, cpu, threads = timed(step, finish, args.steps)
    print(f"{args.only}: wall {1e3 * wall / args.steps:.1f} ms, CPU {1e3 * cpu / args.steps:.1f} ms a step, "
          f"{cpu / wall:.2f} cores busy; load average {os.getloadavg()[0]:.1f}; CPU ms a step by thread: "
          + ", ".join(f"{1e3 * value / args.steps:.0f}" for value in threads))
    if not args.no_trace:
        profile(step, finish, args.trace_steps, args.top)


if __name__ == "__main__":
    main()
