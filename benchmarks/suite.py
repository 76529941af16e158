"""Benchmark suite: training steps/s of sporax vs hand-written JAX, PyTorch and MindSpore 2.10 on CPU.

Workloads (benchmarks/suite_models.py): the seed MLP (b32), LeNet5 (b32, b256), ResNet-18 on
CIFAR-shaped input (b32, b64), a Transformer encoder LM (4 layers, d=256, 4 heads, seq 128,
b16), an LSTM tagger (embedding 128, hidden 256, seq 64, b32); Momentum/SGD 0.9 everywhere.

Contenders, each in its own process (benchmarks/suite_worker.py) so that peak memory and the
first step are its own: sporax GRAPH_MODE, PYNATIVE, Model.train with dataset sink; the same
model hand-written in JAX (every workload); PyTorch eager and torch.compile; real
MindSpore 2.10 in GRAPH_MODE; with ``--plain-lowering`` also sporax GRAPH_MODE on XLA's plain
lowerings and without sporax's XLA:CPU defaults and malloc options (``SPORAX_PLAIN_LOWERING=1``,
``SPORAX_XLA_CPU_FLAGS=off``, ``SPORAX_HOST_MALLOC=off``: what ``sporax.ops.lowering``,
``core/process_setup`` (flags, malloc) gain). Every worker is set up (and compiled) before timing starts, then
all are timed in ``--repeat`` interleaved rounds of ``--steps`` steps, so load from other
processes hits all alike; the best round is reported. Columns: steps/s, the ratio to sporax
GRAPH_MODE, the CPU ms per step (all the worker's threads) and the cores that round kept busy,
the model GFLOP/s (XLA's FLOP count of the hand-written JAX step times steps/s) as a share of the
peak float32 product measured at the start (``peak.py``; ``--no-peak`` skips both), "CPU eff"
(model FLOPs per CPU-second against the product's: what load from elsewhere barely moves), the
first step's seconds (compilation included; for sink, the first epoch of ``--steps`` steps) and
the worker's peak resident memory (framework import included).

Every table starts and ends with the machine (CPU model, family/model, widest vector extension,
usable cores, load average) and warns when the load average shows other work: such figures are
not the quiet machine's. ``--check-standalone`` times every contender again alone after the
interleaved rounds and flags ``MOVED`` one whose steps/s differ by more than 2x (``MOVE_LIMIT``).
MindSpore's bundled oneDNN runs a reference convolution on AVX-512 CPUs, so its convolutional
workloads run with ``ONEDNN_MAX_CPU_ISA=AVX2`` there (``--mindspore-isa``; see
``contender_environment``). ``benchmarks/reproduce.sh`` is the README table's command.

The comparison frameworks are never sporax dependencies: install them in their own virtual
environments and name their interpreters::

    python3 -m venv /tmp/torchvenv && /tmp/torchvenv/bin/pip install torch numpy
    # (PyPI's Linux torch wheel is the CUDA build, ~4 GB with its nvidia-* wheels, and runs on
    #  CPU; a CPU-only wheel: pip install torch --index-url https://download.pytorch.org/whl/cpu)
    python3 -m venv /tmp/ms && /tmp/ms/bin/pip install mindspore==2.10.0 numpy
    python benchmarks/suite.py --torch-python /tmp/torchvenv/bin/python --mindspore-python /tmp/ms/bin/python
    python benchmarks/suite.py --only lenet5_b256 --only resnet18_b32 --steps 20 --repeat 5

Without ``--torch-python`` the current interpreter's torch is used if it imports.
"""
import argparse
import json
import os
import select
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import machine  # noqa: E402
import suite_models  # noqa: E402

_WORKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "suite_worker.py")
_PEAK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "peak.py")
_SRC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")
LABELS = {"sporax-graph": "sporax GRAPH", "sporax-pynative": "sporax PYNATIVE", "sporax-sink": "sporax Model sink",
          "jax": "jax (hand-written)", "torch": "pytorch eager", "torch-compile": "torch.compile",
          "mindspore-graph": "mindspore GRAPH", "sporax-graph-plain": "sporax GRAPH plain"}
# A contender whose steps/s alone and beside the other workers differ by more than this is flagged.
MOVE_LIMIT = 2.0
# Steps per timed round, by workload (a round should take ~0.5-3 s on 2 cores).
STEPS = {"mlp_b32": 200, "lenet5_b32": 100, "lenet5_b256": 20, "resnet18_b32": 3, "resnet18_b64": 2,
         "transformer_b16": 3, "lstm_b32": 10}


class Worker:
    """A contender's process, driven line by line. A worker that dies or stops answering is
    marked failed (``error`` names why: its reply, or the last line it wrote to stderr) and
    left out of later rounds; the other contenders go on."""

    def __init__(self, python, contender, workload, steps, env, timeout):
        self.name = contender
        self.timeout = timeout
        self.stderr = tempfile.TemporaryFile(mode="w+")
        self.process = subprocess.Popen([python, _WORKER, contender, workload, str(steps)], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=self.stderr, text=True, env=env)
        self.best = None  # best steps/s (wall) over the rounds
        self.best_cpu = None  # CPU seconds per step (all threads) in that round
        self.rounds = []  # (wall s, CPU s) of every round
        self.memory = None
        self.first = self.error = None
        reply = self._reply(f"no first step in {timeout:.0f} s").split(None, 1)
        if reply and reply[0] == "ready":
            self.first = float(reply[1])
        elif self.error is None:
            self.error = reply[1].strip() if len(reply) > 1 else "crashed"

    def _reply(self, silence):
        """The worker's next line; on death or silence, sets ``error`` and returns ''."""
        ready, _, _ = select.select([self.process.stdout], [], [], self.timeout)
        line = self.process.stdout.readline() if ready else ""
        if not line:
            if self.process.poll() is None:
                self.process.kill()
            self.process.wait()
            self.error = (f"{silence}" if not ready else
                          f"worker died (exit {self.process.returncode}): {self._last_stderr()}")
        return line

    def _last_stderr(self):
        self.stderr.seek(0)
        lines = [line.strip() for line in self.stderr.read().splitlines() if line.strip()]
        return lines[-1][:200] if lines else "no message"

    def time(self, steps):
        if self.error is not None:
            return
        try:
            self.process.stdin.write(f"run {steps}\n")
            self.process.stdin.flush()
        except OSError:
            pass  # a dead worker: _reply reports it
        reply = self._reply(f"no answer to a round of {steps} steps in {self.timeout:.0f} s")
        if self.error is None:
            wall, cpu = (float(value) for value in reply.split())
            self.rounds.append((wall, cpu))
            if self.best is None or steps / wall > self.best:
                self.best, self.best_cpu = steps / wall, cpu / steps

    def close(self):
        try:
            if self.error is None and self.process.poll() is None:
                self.process.stdin.write("quit\n")
                self.process.stdin.flush()
                reply = self._reply("no answer to quit")
                self.memory = float(reply) if reply else None
                self.process.wait(timeout=60)
        finally:
            if self.process.poll() is None:
                self.process.kill()
            self.stderr.close()


def interpreters(args):
    """{contender: python} for the contenders this run can start."""
    own = sys.executable
    chosen = {name: own for name in ("sporax-graph", "sporax-pynative", "sporax-sink", "jax")}
    if args.plain_lowering or "sporax-graph-plain" in (args.contender or ()):
        chosen["sporax-graph-plain"] = own
    torch_python = args.torch_python
    if torch_python is None and subprocess.run([own, "-c", "import torch"], capture_output=True).returncode == 0:
        torch_python = own
    if torch_python:
        chosen["torch"] = torch_python
        if not args.no_torch_compile:
            chosen["torch-compile"] = torch_python
    if args.mindspore_python:
        chosen["mindspore-graph"] = args.mindspore_python
    return chosen


def contender_environment(contender, workload, env, mindspore_isa="auto", vector=None):
    """The worker's environment. MindSpore 2.10's bundled oneDNN (3.10.1) runs the NCHW
    convolutions MindSpore hands it through ``jit_uni_ncsp:conv+ref:any`` wherever the CPU has
    AVX-512: a reference (scalar) convolution, ~100 ms a call at LeNet5 b32's shapes, where the
    AVX2 dispatch (``x64:gemm:jit``) takes ~1 ms (seen with ``ONEDNN_VERBOSE=1``). That made
    MindSpore's convolutional nets 3-100x slower on AVX-512 machines than on AVX2 ones (LeNet5 b32:
    86 vs 6.5 CPU ms a step on a 2-core AMD EPYC family 26). With ``mindspore_isa="auto"`` the
    suite caps MindSpore's oneDNN at AVX2 (``ONEDNN_MAX_CPU_ISA=AVX2``) on the workloads with
    convolutions when the CPU has AVX-512, so MindSpore runs at its best; ``"native"`` keeps
    oneDNN's own choice. A cap the user set in the environment is kept."""
    if not contender.startswith("mindspore") or mindspore_isa == "native" or "ONEDNN_MAX_CPU_ISA" in env:
        return env
    if vector is None:
        vector = machine.describe()["vector"]
    convolutional = suite_models.WORKLOADS[workload][0] in suite_models.CONVOLUTIONAL
    if mindspore_isa == "avx2" or (convolutional and vector == "avx512f"):
        return {**env, "ONEDNN_MAX_CPU_ISA": "AVX2"}
    return env


def bench(workload, pythons, steps, repeat, env, timeout, mindspore_isa="auto"):
    workers = []
    try:
        for contender, python in pythons.items():
            workers.append(Worker(python, contender, workload, steps,
                                  contender_environment(contender, workload, env, mindspore_isa), timeout))
        for _ in range(repeat):
            for worker in workers:
                worker.time(steps)
    finally:
        for worker in workers:
            worker.close()
    return workers


def standalone_flag(interleaved, standalone, limit=MOVE_LIMIT):
    """'' when the interleaved and standalone steps/s agree within a factor ``limit``, else a flag
    that says by how much and which way the contender's figure moved."""
    if not interleaved or not standalone:
        return ""
    factor = max(interleaved, standalone) / min(interleaved, standalone)
    if factor <= limit:
        return ""
    way = "slower" if interleaved < standalone else "faster"
    return f"MOVED {factor:.1f}x: {way} beside the other workers than alone"


def peak_rate(env, seconds=3.0):
    """(best wall GFLOP/s of a 2048^2 float32 product over XLA/oneDNN/NumPy, the library, the best
    GFLOP per CPU-second: one core's peak, which load from elsewhere barely moves), measured by
    ``peak.py`` in its own process; None where nothing could be measured."""
    done = subprocess.run([sys.executable, _PEAK, "--json", "--seconds", str(seconds)], env=env,
                          capture_output=True, text=True)
    try:
        measured = {name: value for name, value in json.loads(done.stdout).items() if isinstance(value, list)}
    except ValueError:
        measured = {}
    if not measured:
        print(f"# peak: not measured ({(done.stderr.strip().splitlines() or ['no output'])[-1][:160]})")
        return None
    library = max(measured, key=lambda name: measured[name][0])
    quiet = max(value[1] for value in measured.values()) * machine.describe()["usable_cpus"]
    listed = ", ".join(f"{name} {value[0]:.0f}" for name, value in measured.items())
    print(f"# peak: 2048x2048 float32 product, GFLOP/s wall: {listed}; best per CPU-second x usable cores "
          f"(the quiet machine's estimate): {quiet:.0f}")
    return measured[library][0], library, quiet / machine.describe()["usable_cpus"]


def step_flops(workload, env):
    """FLOPs of one training step of ``workload`` (``suite_models.train_step_flops``), or None."""
    done = subprocess.run([sys.executable, _WORKER, "flops", workload], env=env, capture_output=True, text=True)
    try:
        return float(done.stdout.split()[-1])
    except (ValueError, IndexError):
        return None


def report(workload, workers, standalone=None, flops=None, peak=None, core_peak=None):
    """One line per contender. ``standalone``: {contender: steps/s alone}; ``flops``: the step's
    FLOPs; ``peak``: GFLOP/s the product reached (the "peak" column's 100%); ``core_peak``: the
    product's GFLOP per CPU-second (the "CPU eff" column's 100%: model FLOPs per CPU-second of the
    contender, which load from elsewhere barely moves, but spin-waiting threads lower)."""
    base = next((w.best for w in workers if w.name == "sporax-graph" and w.best), None)
    for w in workers:
        if w.error is not None:
            print(f"{workload:<16} {LABELS[w.name]:<20} failed: {w.error[:160]}", flush=True)
            continue
        ratio = f"{w.best / base:6.2f}x" if base else "      "
        busy = w.best_cpu * w.best  # CPU seconds per wall second: the cores the round kept busy
        gflops = f"{flops * w.best / 1e9:8.1f}" if flops else f"{'':>8}"
        share = f"{100 * flops * w.best / 1e9 / peak:5.0f}%" if flops and peak else f"{'':>6}"
        efficiency = (f"{100 * flops / w.best_cpu / 1e9 / core_peak:7.0f}%" if flops and core_peak and w.best_cpu
                      else f"{'':>8}")
        alone = (standalone or {}).get(w.name)
        alone_text = f"{alone:9.2f}" if alone else f"{'':>9}"
        print(f"{workload:<16} {LABELS[w.name]:<20} {w.best:9.2f} {ratio} {1000 * w.best_cpu:9.2f} {busy:5.2f} "
              f"{gflops} {share} {efficiency} {w.first:8.2f} {w.memory or float('nan'):8.0f} {alone_text} "
              f"{standalone_flag(w.best, alone)}".rstrip(), flush=True)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", choices=sorted(suite_models.WORKLOADS))
    parser.add_argument("--steps", type=int, help="steps per timed round (default: per workload)")
    parser.add_argument("--repeat", type=int, default=3, help="interleaved rounds; the best is reported")
    parser.add_argument("--torch-python", help="interpreter of a venv with torch")
    parser.add_argument("--mindspore-python", help="interpreter of a venv with mindspore 2.10")
    parser.add_argument("--torch-threads", type=int, default=0, help="torch.set_num_threads (0: torch's default)")
    parser.add_argument("--no-torch-compile", action="store_true")
    parser.add_argument("--plain-lowering", action="store_true", help="also run sporax GRAPH with XLA's plain "
                        "lowerings and no sporax XLA:CPU defaults: the before/after of issue 14's CPU work")
    parser.add_argument("--contender", action="append", choices=sorted(LABELS), help="run only these")
    parser.add_argument("--warm-cache", action="store_true", help="let sporax use its persistent compilation "
                        "cache (default: a fresh one per run, so first steps include compilation)")
    parser.add_argument("--setup-timeout", type=float, default=900, help="seconds a contender may take to its "
                        "first step (or to one round) before it is reported as failed; the others go on")
    parser.add_argument("--check-standalone", action="store_true", help="after each workload's interleaved "
                        f"rounds, time every contender again alone and flag one whose figure moved more than "
                        f"{MOVE_LIMIT:g}x")
    parser.add_argument("--mindspore-isa", choices=("auto", "native", "avx2"), default="auto",
                        help="MindSpore's oneDNN ISA: auto caps it at AVX2 on AVX-512 CPUs for the convolutional "
                        "workloads (its AVX-512 dispatch runs a reference convolution); native keeps oneDNN's choice")
    parser.add_argument("--no-peak", action="store_true", help="skip the peak GEMM and the FLOP columns")
    args = parser.parse_args(argv)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [_SRC, os.environ.get("PYTHONPATH")]))}
    cold = None
    if not args.warm_cache:  # a fresh compilation cache: every first step compiles
        cold = tempfile.TemporaryDirectory(prefix="sporax-suite-cache-")
        env["SPORAX_COMPILATION_CACHE_DIR"] = cold.name
    if args.torch_threads:
        env["SUITE_TORCH_THREADS"] = str(args.torch_threads)
    pythons = interpreters(args)
    if args.contender:
        pythons = {name: python for name, python in pythons.items() if name in args.contender}
    start = machine.describe()
    print(machine.line(start, "start"))
    if machine.busy(start):
        print(f"# WARNING: load average {start['load'][0]:.1f} on {start['usable_cpus']} CPUs: other work is "
              "running, so these are not a quiet machine's figures (spin-waiting runtimes lose most)")
    if "mindspore-graph" in pythons and args.mindspore_isa != "native":
        print(f"# MindSpore's oneDNN: ONEDNN_MAX_CPU_ISA=AVX2 {'on every workload' if args.mindspore_isa == 'avx2' else 'on the convolutional workloads where the CPU has AVX-512 (--mindspore-isa native: its own dispatch, a reference convolution there)'}"
              if "ONEDNN_MAX_CPU_ISA" not in env else f"# MindSpore's oneDNN: ONEDNN_MAX_CPU_ISA={env['ONEDNN_MAX_CPU_ISA']} (set by the caller)")
    peak = None if args.no_peak else peak_rate(env)
    print(f"# best of {args.repeat} interleaved rounds; steps/s; ratio to sporax GRAPH; CPU ms per step (all "
          "threads) and cores busy (CPU s per wall s) in that round; model GFLOP/s (XLA's count of the "
          "hand-written JAX step x steps/s) and its share of the peak product's wall GFLOP/s; CPU eff: model "
          "FLOPs per CPU-second as a share of the product's (load-proof); first step s; peak RSS MiB"
          + ("; steps/s alone (--check-standalone) and a flag where it moved more than "
             f"{MOVE_LIMIT:g}x" if args.check_standalone else ""))
    print(f"{'workload':<16} {'contender':<20} {'steps/s':>9} {'ratio':>7} {'CPU ms':>9} {'cores':>5} "
          f"{'GFLOP/s':>8} {'peak':>6} {'CPU eff':>8} {'first s':>8} {'RSS MiB':>8}" + (f" {'alone':>9}" if args.check_standalone
                                                                         else ""))
    for workload in args.only or suite_models.WORKLOADS:
        steps = args.steps or STEPS[workload]
        workers = bench(workload, pythons, steps, args.repeat, env, args.setup_timeout, args.mindspore_isa)
        standalone = {}
        if args.check_standalone:
            for worker in workers:
                if worker.error is None:
                    alone = bench(workload, {worker.name: pythons[worker.name]}, steps, args.repeat, env,
                                  args.setup_timeout, args.mindspore_isa)[0]
                    standalone[worker.name] = alone.best
        flops = None if peak is None else step_flops(workload, env)
        report(workload, workers, standalone, flops, peak and peak[0], peak and peak[2])
    end = machine.describe()
    print(machine.line(end, "end"))
    if machine.busy(end, share=1.5) and not machine.busy(start):
        print(f"# WARNING: load average {end['load'][0]:.1f} at the end: other work started during the run")
    if cold is not None:
        cold.cleanup()


if __name__ == "__main__":
    main()
