"""Distributed benchmark: training steps/s across processes on one CPU machine (issue 25, item 5).

Rows (the workloads of benchmarks/distributed_worker.py):

* data parallel at 1, 2 and 4 processes: the seed MLP 784-1024-1024-10, ``TrainOneStepCell``,
  GRAPH mode, batch 64 per process: sporax (alone, then ``sporax launch``), MindSpore 2.10 (alone,
  then its ``msrun``) and the same step hand-written in multi-process JAX (``shard_map`` + ``pmean``,
  gloo). The goals: sporax >= 1.3x msrun and >= 0.9x JAX (best of the rounds).
* semi-auto over 4 host devices of one process: a MatMul-heavy model (Megatron-style splits),
  beside the same model on 1 device (sporax only: MindSpore's semi-auto needs Ascend/GPU).
* a 2-stage pipeline: the MLP split in 2 stages on 2 processes (4 micro-batches), and on 4 processes
  (2 data-parallel processes per stage, each its own batch), beside the same ``PipelineCell`` in 1
  process (sporax only: MindSpore's pipeline needs Ascend/GPU).

Every contender runs in its own processes (their start and compilation are not timed: 3 warm-up
steps, then ``--steps`` steps), in ``--rounds`` interleaved rounds so that load from elsewhere hits
all alike; the best round is reported. The table starts and ends with the machine and its load
(benchmarks/machine.py) and says WARNING when the load average shows other work.

    python3 benchmarks/distributed.py --mindspore-python /tmp/ms/bin/python             # quiet machine
    python3 benchmarks/distributed.py --only dp --processes 2 --rounds 3 --steps 30

MindSpore's ``msrun`` is run from the directory of ``--mindspore-python`` (it must come first on PATH
for msrun's workers to find that python).
"""
import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import machine  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
WORKER = os.path.join(HERE, "distributed_worker.py")
SRC = os.path.join(os.path.dirname(HERE), "src")


def _port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def commands(contender, workload, processes, steps, out, mindspore_python, log_dir):
    """The commands (run together) of one timed run, and their environment changes."""
    args = [workload, str(processes), str(steps), out]
    if contender == "jax":
        port = _port()
        return [[sys.executable, WORKER, "jax", str(processes), str(steps), out, str(rank), str(port)]
                for rank in range(processes)], {}
    if contender == "sporax":
        if processes == 1:
            return [[sys.executable, "-m", "sporax", "run", WORKER, *args]], {}
        return [[sys.executable, "-m", "sporax", "launch", f"--worker_num={processes}",
                 f"--local_worker_num={processes}", f"--master_port={_port()}", f"--log_dir={log_dir}",
                 WORKER, *args]], {}
    if processes == 1:
        return [[mindspore_python, WORKER, *args]], {}
    bin_dir = os.path.dirname(mindspore_python)
    return [[os.path.join(bin_dir, "msrun"), f"--worker_num={processes}", f"--local_worker_num={processes}",
             f"--master_port={_port()}", f"--log_dir={log_dir}", "--join=True", WORKER, *args]], \
        {"PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")}


def run_once(contender, workload, processes, steps, mindspore_python, devices=1, timeout=600):
    """Steps/s of one run (rank 0's), or None with the reason printed."""
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "result.json")
        argv_list, extra = commands(contender, workload, processes, steps, out, mindspore_python,
                                    os.path.join(folder, "logs"))
        env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""), **extra)
        if devices > 1:
            env["XLA_FLAGS"] = f"--xla_force_host_platform_device_count={devices}"
            env["BENCH_DEVICES"] = str(devices)
        running = [subprocess.Popen(argv, cwd=folder, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                    text=True) for argv in argv_list]
        outputs = []
        for process in running:
            try:
                outputs.append(process.communicate(timeout=timeout)[0])
            except subprocess.TimeoutExpired:
                process.kill()
                outputs.append(process.communicate()[0] + "\n(timed out)")
        if not os.path.exists(out):
            logs = ""
            for name in sorted(os.listdir(os.path.join(folder, "logs"))) if os.path.isdir(
                    os.path.join(folder, "logs")) else []:
                with open(os.path.join(folder, "logs", name), errors="replace") as file:
                    logs += file.read()[-1500:]
            print(f"# {contender} {workload} x{processes} failed:\n" + "".join(outputs)[-2000:] + logs[-2000:],
                  file=sys.stderr)
            return None
        with open(out) as file:
            return json.load(file)["steps_per_s"]


def plan(args):
    """[(row, contender, workload, processes, devices)] in table order."""
    rows = []
    if "dp" in args.only:
        for processes in args.processes:
            for contender in ("sporax", "mindspore", "jax"):
                if contender == "mindspore" and not args.mindspore_python:
                    continue
                rows.append((f"data parallel x{processes}", contender, "jax" if contender == "jax" else "dp",
                             processes, 1))
    if "semi_auto" in args.only:
        rows.append(("semi-auto MatMul, 1 device", "sporax", "semi_auto", 1, 1))
        rows.append(("semi-auto MatMul, 4 devices", "sporax", "semi_auto", 1, 4))
    if "pipeline" in args.only:
        rows.append(("pipeline MLP, 1 process", "sporax", "pipeline", 1, 1))
        rows.append(("pipeline MLP, 2 stages x 1 process", "sporax", "pipeline", 2, 1))
        rows.append(("pipeline MLP, 2 stages x 2 processes", "sporax", "pipeline", 4, 1))
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mindspore-python", default=None, help="python of a venv with mindspore==2.10.0")
    parser.add_argument("--only", action="append", choices=("dp", "semi_auto", "pipeline"))
    parser.add_argument("--processes", type=int, action="append", help="data-parallel job sizes (1, 2, 4)")
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    args.only = args.only or ["dp", "semi_auto", "pipeline"]
    args.processes = args.processes or [1, 2, 4]
    start = machine.describe()
    print(machine.line(start, "start"))
    rows = plan(args)
    best = {}
    for round_index in range(args.rounds):
        for row in rows:
            name, contender, workload, processes, devices = row
            rate = run_once(contender, workload, processes, args.steps, args.mindspore_python, devices)
            print(f"# round {round_index + 1}: {name:36s} {contender:10s} "
                  f"{'failed' if rate is None else f'{rate:8.2f} steps/s'}", flush=True)
            if rate is not None:
                best[row] = max(best.get(row, 0.0), rate)
    print(f"\n| workload | contender | steps/s (best of {args.rounds}) | vs sporax |")
    print("|---|---|---:|---:|")
    for row in rows:
        name, contender = row[0], row[1]
        sporax_row = next((other for other in rows if other[0] == name and other[1] == "sporax"), None)
        rate, reference = best.get(row), best.get(sporax_row)
        ratio = f"{reference / rate:.2f}x" if rate and reference and contender != "sporax" else ""
        print(f"| {name} | {contender} | {'failed' if rate is None else f'{rate:.2f}'} | {ratio} |")
    end = machine.describe()
    print("\n" + machine.line(end, "end"))
    if machine.busy(start) or machine.busy(end, share=1.5):
        print("# WARNING: the load average shows other work: these are not a quiet machine's figures.")


if __name__ == "__main__":
    main()
