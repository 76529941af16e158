"""How many of a sporax GRAPH train step's threads want a core, over time (Linux ``perf`` scheduler events).

Where a 2-core step leaves a core idle is where fewer than two of its threads are runnable. This runs the
suite's ``sporax-graph`` step (``step_profile.build``) in a child process under ``perf record -a`` of the
``sched_switch`` / ``sched_wakeup`` events, and replays them over the timed steps: each of the process's
threads is running, runnable (preempted or woken, waiting for a core) or sleeping. Printed: the share of
the steps' wall time with 0, 1, 2 and 3+ threads running or runnable, and each busy thread's shares (with
"alone": the share in which it was the only one).
Under load a thread waits longer for a core, but what depends on what is the same, so the shares tell
where the step has nothing for a second core; spinning OpenMP workers count as runnable (on a quiet
machine they would hold a core too). Needs ``perf`` and the right to record scheduler tracepoints
(root, or ``kernel.perf_event_paranoid`` <= -1)::

    PYTHONPATH=src python3 benchmarks/runnable_threads.py --only resnet18_b32 --steps 5

Example (resnet18_b32, load 13): 1 thread wanting a core 24% of the time, 2: 71%, 3+: 5%.
"""
import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

_EVENT = re.compile(r"^\s*(\d+)/(\d+)\s+([\d.]+):\s+sched:(\w+):\s+(.*)$")


def child(workload, steps):
    """Runs the step; prints ``MARK pid start end`` (CLOCK_MONOTONIC seconds) around the timed steps."""
    from step_profile import build
    step, finish = build(workload)
    for _ in range(3):
        finish(step())
    started = time.clock_gettime(time.CLOCK_MONOTONIC)
    for _ in range(steps):
        loss = step()
    finish(loss)
    ended = time.clock_gettime(time.CLOCK_MONOTONIC)
    print(f"MARK {os.getpid()} {started:.6f} {ended:.6f}", flush=True)


def events(data):
    """(time, event, thread, text) of each scheduler event, and the thread ids of each process."""
    text = subprocess.run(["perf", "script", "-i", data, "-F", "tid,pid,time,event,trace"],
                          capture_output=True, text=True, check=True).stdout
    found, threads = [], collections.defaultdict(set)
    for line in text.splitlines():
        match = _EVENT.match(line)
        if match:
            threads[int(match[1])].add(int(match[2]))
            found.append((float(match[3]), match[4], int(match[2]), match[5]))
    return found, threads


def replay(found, ours, start, end):
    """Seconds with N threads of ``ours`` running or runnable, and each thread's seconds by state (and
    "alone": while it was the only one running or runnable)."""
    # Only threads seen in the window: one that ended earlier has no switch-out event to close it.
    seen = {tid for t, _, tid, _ in found if start <= t <= end}
    seen |= {int(x) for t, _, _, text in found if start <= t <= end for x in re.findall(r"pid=(\d+)", text)}
    ours = ours & seen
    state, wanting, per_thread, last = {}, collections.Counter(), collections.defaultdict(collections.Counter), start
    for t, event, _, text in found:
        if t > end:
            break
        if t >= start:
            busy = [thread for thread, s in state.items() if s != "sleeping"]
            wanting[min(3, len(busy))] += t - last
            if len(busy) == 1:  # the one thread at work while a second core would idle
                per_thread[busy[0]]["alone"] += t - last
            for thread, s in state.items():
                per_thread[thread][s] += t - last
            last = t
        if event == "sched_switch":
            match = re.search(r"prev_pid=(\d+) .*prev_state=(\S+) ==> .*next_pid=(\d+)", text)
            previous, previous_state, following = int(match[1]), match[2], int(match[3])
            if previous in ours:
                state[previous] = "runnable" if previous_state.startswith("R") else "sleeping"
            if following in ours:
                state[following] = "running"
        elif event == "sched_wakeup":
            woken = int(re.search(r"pid=(\d+)", text)[1])
            if woken in ours and state.get(woken) != "running":
                state[woken] = "runnable"
    return wanting, per_thread


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", default="resnet18_b32")
    parser.add_argument("--steps", type=int, default=5)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(args.only, args.steps)
    with tempfile.TemporaryDirectory(prefix="sporax-sched-") as folder:
        data = os.path.join(folder, "perf.data")
        run = subprocess.run(["perf", "record", "-q", "-a", "-k", "CLOCK_MONOTONIC", "-e", "sched:sched_switch",
                              "-e", "sched:sched_wakeup", "-o", data, "--", sys.executable, __file__,
                              "--child", "--only", args.only, "--steps", str(args.steps)],
                             capture_output=True, text=True)
        marks = [line.split() for line in run.stdout.splitlines() if line.startswith("MARK")]
        if not marks:
            raise SystemExit(f"no timed steps recorded (perf exit {run.returncode}): {run.stderr[-2000:]}")
        pid, start, end = int(marks[0][1]), float(marks[0][2]), float(marks[0][3])
        found, threads = events(data)
    wanting, per_thread = replay(found, threads[pid], start, end)
    span = end - start
    print(f"{args.only}: {1e3 * span / args.steps:.0f} ms a step (wall), load average {os.getloadavg()[0]:.1f}")
    print("share of the time with N threads running or runnable: "
          + ", ".join(f"{n}{'+' if n == 3 else ''}: {seconds / span:.2f}" for n, seconds in sorted(wanting.items())))
    for thread, shares in sorted(per_thread.items(), key=lambda item: -item[1]["running"] - item[1]["runnable"]):
        if shares["running"] + shares["runnable"] > 0.01 * span:
            print(f"  thread {thread}: " + ", ".join(f"{s} {seconds / span:.2f}" for s, seconds in sorted(shares.items())))


if __name__ == "__main__":
    main()
