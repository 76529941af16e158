"""PyNative training step vs GRAPH_MODE vs hand-written JAX: steps/s and CPU ms per step.

The PyNative step is MindSpore's tutorial loop: ``grad_fn = ms.value_and_grad(forward, None,
optimizer.parameters, has_aux=True)``, then ``(loss, _), grads = grad_fn(x, y); optimizer(grads)``
per step. On these small networks sporax launches the optimizer's update with the next step's gradient
program (``sporax/state/deferred.py``), and the gradient call's results stay pending until the optimizer
runs gradient and update as one program (``sporax/state/lazy.py``): one launch per step either way.
"sporax PYN not lazy" is the same loop with pending gradients off (``lazy.set_enabled(False)``); "sporax
PYN 2 launches" has deferral off too (``deferred.set_enabled(False)``), each call launching its own program. "sporax
PYN host read" reads the loss inside the differentiated function (``loss.asnumpy()``, as a print, a hook or a Python
branch on a value does): PyNative then runs that function op by op, its Python seeing real values. GRAPH is
``nn.TrainOneStepCell(nn.WithLossCell(net, loss), optimizer)``; JAX is the same model and SGD written by
hand as one jitted, donating step; "JAX, 2 programs" is the two-launch structure written by hand (a
gradient program whose loss and gradients return to Python, then a donating update program).
Workloads:

* ``seed_mlp``: the seed tutorial's Network (784 -> 512 -> 512 -> 10, batch 64, CrossEntropyLoss,
  SGD lr 1e-2; ``shared/seeds/examples/seed001_train_loop.py``);
* ``tiny_mlp``: the suite's MLP (32 -> 120 -> 84 -> 1, batch 32, MSE, Momentum 0.9) where the
  host path is nearly all of a step;
* ``small_cnn``: a mobilenet-like block (3x3 stride-2 conv, BatchNorm, ReLU, depthwise 3x3,
  BatchNorm, ReLU, pointwise 1x1, BatchNorm, ReLU, global average pool, Dense; 3x32x32, batch 16,
  SGD momentum 0.9).

Each contender is built and warmed up once, then timed in ``--repeat`` interleaved rounds (every
contender once per round, the order reversed every other round) of ``--steps`` steps. CPU ms per step
is ``time.process_time`` (all threads of this process) over the round: on a shared machine it moves
far less with other processes' load than wall-clock does. It is split into the main thread's share
(``time.thread_time``: Python, sporax's host path, JAX's dispatch, and a small program XLA runs on the
calling thread) and the rest (XLA's threads running the programs). The table gives the best round's steps/s and the median round's CPU figures.
``--one-core`` runs the whole process on one CPU (``os.sched_setaffinity``, before XLA starts its
threads): on a loaded 2-core machine XLA's thread pool otherwise spins and waits for a core, which
moved the small CNN's CPU ms per step by up to 2x between rounds of the same contender (the
PyNative/GRAPH ratio read 0.59-1.57x); on one core its rounds agree within ~10%.
``--mindspore`` also runs the PyNative loop under real MindSpore (``/tmp/ms/bin/python`` or
``--mindspore-python``) in a subprocess, on all the CPUs the benchmark started with (on one core,
at load 8, MindSpore's small-CNN loop had used 4 CPU-minutes without finishing its rounds).

    PYTHONPATH=src python benchmarks/pynative_step.py                      # all workloads
    PYTHONPATH=src python benchmarks/pynative_step.py --only seed_mlp --steps 200 --repeat 7
    PYTHONPATH=src python benchmarks/pynative_step.py --mindspore          # + MindSpore PyNative
    PYTHONPATH=src python benchmarks/pynative_step.py --only small_cnn --one-core --steps 30 --repeat 30
"""
import argparse
import functools
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import machine  # noqa: E402
import suite_models  # noqa: E402

WORKLOADS = ("seed_mlp", "tiny_mlp", "small_cnn")
BATCH = {"seed_mlp": 64, "tiny_mlp": 32, "small_cnn": 16}


def data(workload):
    rng = np.random.default_rng(0)
    batch = BATCH[workload]
    if workload == "seed_mlp":
        return rng.standard_normal((batch, 1, 28, 28)).astype(np.float32), rng.integers(0, 10, batch).astype(np.int32)
    if workload == "tiny_mlp":
        return suite_models.data("mlp", batch)
    return rng.standard_normal((batch, 3, 32, 32)).astype(np.float32), rng.integers(0, 10, batch).astype(np.int32)


# --- MindSpore API (run by sporax and by real MindSpore alike) ---------------------------------
def ms_workload(ms, workload):
    """(network, loss_fn, optimizer) of ``workload`` written against MindSpore's API module ``ms``."""
    nn = ms.nn
    if workload == "seed_mlp":
        network = nn.SequentialCell([nn.Flatten(), nn.Dense(28 * 28, 512), nn.ReLU(), nn.Dense(512, 512), nn.ReLU(),
                                     nn.Dense(512, 10)])
        return network, nn.CrossEntropyLoss(), nn.SGD(network.trainable_params(), learning_rate=1e-2)
    if workload == "tiny_mlp":
        network = suite_models.ms_network(ms, "mlp")
        return network, nn.MSELoss(), nn.Momentum(network.trainable_params(), 0.01, 0.9)

    def conv_bn(cin, cout, kernel, stride, group=1):
        return [nn.Conv2d(cin, cout, kernel, stride, pad_mode="pad", padding=kernel // 2, group=group),
                nn.BatchNorm2d(cout), nn.ReLU()]

    class SmallCNN(nn.Cell):
        def __init__(self):
            super().__init__()
            self.features = nn.SequentialCell(conv_bn(3, 16, 3, 2) + conv_bn(16, 16, 3, 1, group=16)
                                              + conv_bn(16, 32, 1, 1))
            self.head = nn.Dense(32, 10)

        def construct(self, x):
            return self.head(self.features(x).mean((2, 3)))

    network = SmallCNN()
    return network, nn.CrossEntropyLoss(), nn.Momentum(network.trainable_params(), 0.01, 0.9)


def ms_steps(ms, workload, mode):
    """A ``run(count)`` that trains ``count`` steps in ``mode`` ('pynative', 'pynative-read' or 'graph') and syncs
    once. 'pynative-read': the differentiated function reads its loss on the host (as a print, a hook or a
    Python branch on a value would), so PyNative runs it op by op."""
    pynative = mode.startswith("pynative")
    ms.set_context(mode=ms.PYNATIVE_MODE if pynative else ms.GRAPH_MODE)
    ms.set_seed(0)
    network, loss_fn, optimizer = ms_workload(ms, workload)
    network.set_train()
    x, y = (ms.Tensor(a) for a in data(workload))
    if pynative:
        def forward(data, label):
            logits = network(data)
            loss = loss_fn(logits, label)
            if mode == "pynative-read":
                loss.asnumpy()
            return loss, logits

        grad_fn = ms.value_and_grad(forward, None, optimizer.parameters, has_aux=True)

        def step():
            (loss, _), grads = grad_fn(x, y)
            optimizer(grads)
            return loss
    else:
        train = ms.nn.TrainOneStepCell(ms.nn.WithLossCell(network, loss_fn), optimizer)

        def step():
            return train(x, y)

    weight = optimizer.parameters[0]

    def run(count):
        # The context mode is global: set it for this contender's round (sporax compiles per mode).
        ms.set_context(mode=ms.PYNATIVE_MODE if pynative else ms.GRAPH_MODE)
        loss = None
        for _ in range(count):
            loss = step()
        loss.asnumpy()
        # A Parameter read applies an update sporax holds back (sporax.state.deferred): the next contender's
        # first program then does not fuse with another network's update (a pair compiled in a timed round).
        weight.asnumpy()
    return run


# --- hand-written JAX ---------------------------------------------------------------------------
def jax_steps(workload, split=False):
    import sporax  # noqa: F401  (the same JAX options as sporax's programs)
    import jax
    import jax.numpy as jnp
    from jax import lax

    rng = np.random.default_rng(0)

    def dense(n_in, n_out):
        bound = 1 / np.sqrt(n_in)
        return [jnp.asarray(rng.uniform(-bound, bound, (n_out, n_in)).astype(np.float32)),
                jnp.asarray(rng.uniform(-bound, bound, n_out).astype(np.float32))]

    def cross_entropy(logits, y):
        return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), y[:, None], 1))

    momentum = 0.0 if workload == "seed_mlp" else 0.9
    if workload == "seed_mlp":
        params = dense(784, 512) + dense(512, 512) + dense(512, 10)

        def loss_fn(p, x, y):
            h = jax.nn.relu(x.reshape(x.shape[0], -1) @ p[0].T + p[1])
            h = jax.nn.relu(h @ p[2].T + p[3])
            return cross_entropy(h @ p[4].T + p[5], y)
    elif workload == "tiny_mlp":
        params, loss_fn = suite_models.jax_model("mlp")
    else:
        def conv_weight(cout, cin, k):
            return jnp.asarray(rng.normal(0, np.sqrt(2 / (cin * k * k)), (cout, cin, k, k)).astype(np.float32))

        def conv_bn_relu(x, w, g, b, stride, groups):
            pad = w.shape[-1] // 2
            x = lax.conv_general_dilated(x, w, (stride, stride), [(pad, pad)] * 2, feature_group_count=groups,
                                         dimension_numbers=("NCHW", "OIHW", "NCHW"))
            mean = x.mean((0, 2, 3), keepdims=True)
            var = ((x - mean) ** 2).mean((0, 2, 3), keepdims=True)
            return jax.nn.relu((x - mean) * lax.rsqrt(var + 1e-5) * g[None, :, None, None] + b[None, :, None, None])

        def norm(channels):
            return [jnp.ones(channels, jnp.float32), jnp.zeros(channels, jnp.float32)]

        params = ([conv_weight(16, 3, 3)] + norm(16) + [conv_weight(16, 1, 3)] + norm(16) + [conv_weight(32, 16, 1)]
                  + norm(32) + dense(32, 10))

        def loss_fn(p, x, y):
            h = conv_bn_relu(x, p[0], p[1], p[2], 2, 1)
            h = conv_bn_relu(h, p[3], p[4], p[5], 1, 16)
            h = conv_bn_relu(h, p[6], p[7], p[8], 1, 1)
            return cross_entropy(h.mean((2, 3)) @ p[9].T + p[10], y)

    def step(p, m, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(p, x, y)
        m = jax.tree_util.tree_map(lambda mi, g: momentum * mi + g, m, grads)
        p = jax.tree_util.tree_map(lambda pi, mi: pi - 0.01 * mi, p, m)
        return p, m, loss

    step = jax.jit(step, donate_argnums=(0, 1))
    x, y = (jnp.asarray(a) for a in data(workload))
    state = [params, jax.tree_util.tree_map(jnp.zeros_like, params)]

    def run(count):
        loss = None
        for _ in range(count):
            state[0], state[1], loss = step(state[0], state[1], x, y)
        loss.block_until_ready()

    if not split:
        return run

    # PyNative's structure written by hand: the gradient program returns the loss and the gradients
    # to Python, then the update program (donating Parameters and moments) takes them.
    gradient = jax.jit(jax.value_and_grad(loss_fn))

    @functools.partial(jax.jit, donate_argnums=(0, 1))
    def update(p, m, grads):
        m = jax.tree_util.tree_map(lambda mi, g: momentum * mi + g, m, grads)
        return jax.tree_util.tree_map(lambda pi, mi: pi - 0.01 * mi, p, m), m

    def run_split(count):
        loss = None
        for _ in range(count):
            loss, grads = gradient(state[0], x, y)
            state[0], state[1] = update(state[0], state[1], grads)
        loss.block_until_ready()
    return run_split


def two_launches(run):
    """``run`` with sporax's deferred updates off: the gradient and the update launch separately."""
    from sporax.state import deferred

    def separate(count):
        deferred.set_enabled(False)
        try:
            run(count)
        finally:
            deferred.set_enabled(True)
    return separate


def not_lazy(run):
    """``run`` with sporax's lazy gradients off (``sporax/state/lazy.py``): the gradient call runs at once,
    its update launched with the next step's gradient program (the path before lazy gradients)."""
    from sporax.state import lazy

    def at_once(count):
        lazy.set_enabled(False)
        try:
            run(count)
        finally:
            lazy.set_enabled(True)
    return at_once


# --- timing -------------------------------------------------------------------------------------
def timed(run, steps):
    """(steps/s, CPU ms per step, main thread's CPU ms per step) of ``run(steps)``."""
    wall, cpu, main = time.perf_counter(), time.process_time(), time.thread_time()
    run(steps)
    wall, cpu, main = time.perf_counter() - wall, time.process_time() - cpu, time.thread_time() - main
    return steps / wall, 1000 * cpu / steps, 1000 * main / steps


def measure(runs, steps, repeat):
    """{name: (best steps/s, median CPU ms per step, median main-thread CPU ms per step)} over ``repeat``
    interleaved rounds, the order reversed every other round (a contender is not always the one after
    the same other)."""
    for run in runs.values():
        run(max(steps // 4, 5))  # warm-up: compile and settle
    rounds = {name: [] for name in runs}
    order = list(runs)
    for index in range(repeat):
        for name in (order if index % 2 == 0 else order[::-1]):
            rounds[name].append(timed(runs[name], steps))
    return {name: (max(rate for rate, _, _ in values), statistics.median(cpu for _, cpu, _ in values),
                   statistics.median(main for _, _, main in values)) for name, values in rounds.items()}


_STARTING_CPUS = []  # the CPUs this process could use before one_core(): MindSpore's worker gets them back


def one_core():
    """Run this process (and the threads and subprocesses it starts later) on one CPU: the one with the
    lowest number among those it may use."""
    cpus = os.sched_getaffinity(0)
    _STARTING_CPUS[:] = sorted(cpus)
    core = min(cpus)
    os.sched_setaffinity(0, {core})
    return core


def mindspore_pynative(python, workloads, steps, repeat):
    """{workload: (steps/s, CPU ms per step, main thread's)} of real MindSpore's PyNative loop, or {} when
    unavailable."""
    if not os.path.exists(python):
        print(f"# MindSpore: {python} not found, skipped")
        return {}
    command = [python, os.path.abspath(__file__), "--worker-mindspore", "--steps", str(steps),
               "--repeat", str(repeat)] + [arg for w in workloads for arg in ("--only", w)]
    if _STARTING_CPUS:
        # On one core MindSpore's small-CNN loop had not finished 600 steps after 4 CPU-minutes, so its
        # worker runs on the CPUs the benchmark started with (set by the worker itself: a fork-time hook
        # would fork this multithreaded process).
        command += ["--worker-cpus", ",".join(map(str, _STARTING_CPUS))]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    for line in done.stdout.splitlines():
        if line.startswith("{"):
            return {name: tuple(value) for name, value in json.loads(line).items()}
    print(f"# MindSpore run failed: {done.stderr.strip().splitlines()[-1:] or done.returncode}")
    return {}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", choices=WORKLOADS)
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--mindspore", action="store_true", help="also time real MindSpore's PyNative loop")
    parser.add_argument("--mindspore-python", default="/tmp/ms/bin/python")
    parser.add_argument("--one-core", action="store_true",
                        help="run on one CPU: CPU time then measures work, not XLA's threads waiting for a core")
    parser.add_argument("--worker-mindspore", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--worker-cpus", help=argparse.SUPPRESS)
    options = parser.parse_args()
    workloads = options.only or list(WORKLOADS)
    if options.one_core:
        one_core()  # before JAX (or MindSpore) starts its threads: they inherit the affinity
    if options.worker_cpus:
        os.sched_setaffinity(0, {int(cpu) for cpu in options.worker_cpus.split(",")})
    if options.worker_mindspore:
        import mindspore

        results = {w: measure({"ms": ms_steps(mindspore, w, "pynative")}, options.steps, options.repeat)["ms"]
                   for w in workloads}
        print(json.dumps(results))
        return
    import sporax

    print(machine.line(machine.describe(), "start"))
    print(f"# {' '.join(sys.argv)}; {options.repeat} interleaved rounds of {options.steps} steps: best steps/s, "
          "median CPU ms per step (all threads; main thread = Python, dispatch, programs XLA runs inline; "
          "rest = XLA's threads)")
    print(f"{'workload':10} {'contender':21} {'steps/s':>9} {'CPU ms/step':>12} {'main':>7} {'rest':>7} "
          f"{'CPU vs GRAPH':>13}")
    for workload in workloads:
        runs = {"sporax PYNATIVE": ms_steps(sporax, workload, "pynative"),
                "sporax PYN not lazy": not_lazy(ms_steps(sporax, workload, "pynative")),
                "sporax PYN 2 launches": two_launches(not_lazy(ms_steps(sporax, workload, "pynative"))),
                "sporax PYN host read": ms_steps(sporax, workload, "pynative-read"),
                "sporax GRAPH": ms_steps(sporax, workload, "graph"),
                "JAX by hand": jax_steps(workload),
                "JAX, 2 programs": jax_steps(workload, split=True)}
        best = measure(runs, options.steps, options.repeat)
        if options.mindspore:
            found = mindspore_pynative(options.mindspore_python, [workload], options.steps, options.repeat)
            if workload in found:
                best["MindSpore PYNATIVE"] = found[workload]
        graph_cpu = best["sporax GRAPH"][1]
        for name, (rate, cpu, main) in best.items():
            print(f"{workload:10} {name:21} {rate:9.1f} {cpu:12.3f} {main:7.3f} {cpu - main:7.3f} "
                  f"{graph_cpu / cpu:12.2f}x")
    print(machine.line(machine.describe(), "end"))


if __name__ == "__main__":
    main()
