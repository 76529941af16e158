"""Which oneDNN primitives a train step runs, and their time, for sporax GRAPH and PyTorch eager side by side.

Both sporax (its FFI convolutions and LSTM, ``sporax.ops.lowering.onednn``) and PyTorch's CPU convolutions
call oneDNN, in different versions and layouts. This runs a ``suite_models`` workload's train step in a
child process with ``ONEDNN_VERBOSE=1`` (oneDNN reads it when it loads), skips the warm-up steps (primitive
creation, first-touch) and sums the timed steps' ``exec`` lines by primitive kind, implementation and
propagation kind: calls and milliseconds a step, with the convolution shapes that cost most. Run it from the
repository root::

    PYTHONPATH=src python3 benchmarks/onednn_primitives.py --only resnet18_b32 --contender sporax --contender torch

oneDNN times each call by wall clock, so under load (other processes on the cores) the milliseconds stretch;
the kinds, implementations, layouts and call counts do not. ``torch`` needs PyTorch in ``--torch-python``'s
interpreter (default: this one).
"""
import argparse
import collections
import os
import subprocess
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
_MARK = "=== timed steps"

# The child: builds the contender's step as the suite does, runs warm-up steps, prints the mark, runs the
# timed steps (each waits for its result, so every primitive of a step has finished before the next).
_CHILD = """
import sys
sys.path.insert(0, {here!r})
contender, workload, warmup, steps = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
if contender == "sporax":
    import step_profile
    step, finish = step_profile.build(workload)
    run = lambda: finish(step())
else:
    import suite_models, suite_worker
    model, batch = suite_models.WORKLOADS[workload]
    run_steps = suite_worker.setup_torch("torch", model, batch, steps)[0]
    run = lambda: run_steps(1)
for _ in range(warmup):
    run()
print({mark!r}, flush=True)
for _ in range(steps):
    run()
"""


def parse(lines):
    """``exec`` lines of oneDNN's verbose output (3.2's ``onednn_verbose,exec,cpu,...`` and 3.4+'s
    ``onednn_verbose,v1,primitive,exec,cpu,...``) as (kind, implementation, propagation, shape, ms) tuples."""
    calls = []
    for line in lines:
        fields = line.strip().split(",")
        if not fields or fields[0] != "onednn_verbose" or "exec" not in fields[:4]:
            continue
        at = fields.index("exec")
        if len(fields) < at + 6:
            continue
        try:
            milliseconds = float(fields[-1])
        except ValueError:
            continue
        calls.append((fields[at + 2], fields[at + 3], fields[at + 4], fields[-2], milliseconds))
    return calls


def measure(contender, workload, warmup, steps, python):
    """Runs one contender's child; its oneDNN calls of the timed steps and the oneDNN version line."""
    environment = dict(os.environ, ONEDNN_VERBOSE="1", DNNL_VERBOSE="1")
    child = _CHILD.format(here=_HERE, mark=_MARK)
    result = subprocess.run([python, "-c", child, contender, workload, str(warmup), str(steps)], env=environment,
                            capture_output=True, text=True, check=False)
    if result.returncode != 0 or _MARK not in result.stdout:
        raise SystemExit(f"{contender}: the child failed (exit {result.returncode}):\n{result.stderr[-3000:]}")
    before, after = result.stdout.split(_MARK, 1)
    # a process can hold two oneDNN libraries (jaxlib's own for XLA's products, and sporax's): name each
    versions = sorted({line.split("info,")[-1].strip() for line in before.splitlines() if "info,oneDNN" in line})
    version = "; ".join(versions) or "no oneDNN version line"
    return parse(after.splitlines()), version


def report(contender, calls, version, steps, top):
    print(f"{contender}: {version}")
    if not calls:
        print("  no oneDNN calls")
        return
    totals, counts = collections.Counter(), collections.Counter()
    shapes = collections.Counter()
    for kind, implementation, propagation, shape, milliseconds in calls:
        totals[(kind, implementation, propagation)] += milliseconds
        counts[(kind, implementation, propagation)] += 1
        if kind == "convolution":
            shapes[(propagation, shape)] += milliseconds
    total = sum(totals.values())
    print(f"  {len(calls) / steps:.0f} calls, {total / steps:.1f} ms a step (oneDNN's wall clock)")
    for key, milliseconds in totals.most_common():
        print(f"  {milliseconds / steps:9.1f} ms {counts[key] / steps:5.0f} calls  {' '.join(key)}")
    print(f"  costliest {top} convolutions (ms a step):")
    for (propagation, shape), milliseconds in shapes.most_common(top):
        print(f"  {milliseconds / steps:9.1f} ms  {propagation:17s} {shape}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", default="resnet18_b32", help="a suite_models workload")
    parser.add_argument("--contender", action="append", choices=("sporax", "torch"))
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--steps", type=int, default=2)
    parser.add_argument("--top", type=int, default=8)
    parser.add_argument("--torch-python", default=sys.executable)
    args = parser.parse_args()
    print(f"# load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs at start")
    for contender in args.contender or ("sporax", "torch"):
        python = args.torch_python if contender == "torch" else sys.executable
        calls, version = measure(contender, args.only, args.warmup, args.steps, python)
        report(contender, calls, version, args.steps, args.top)
    print(f"# load average {os.getloadavg()[0]:.1f} at end")


if __name__ == "__main__":
    main()
