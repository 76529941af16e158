"""mindcv models' PyNative training step: sporax PyNative vs sporax GRAPH vs MindSpore 2.10 PyNative.

The PyNative step is the loop mindcv's PyNative users write: ``grad_fn = ms.value_and_grad(forward, None,
optimizer.parameters)``, then ``loss, grads = grad_fn(x, y); optimizer(grads)``; GRAPH is
``nn.TrainOneStepCell(nn.WithLossCell(model, loss), optimizer)``. The model is ``create_model(name,
num_classes=10)`` (a ViT's ``--size`` must be the one its name gives: 224), cross-entropy loss, mindcv's Momentum
(lr 1e-3, 0.9), random inputs of ``--size`` pixels.

Each contender is one warm process (``--child``); after its first two steps (compile) the parent asks the
processes in turn, the order reversed every other round, for a round of ``--steps`` steps, so that the
machine's load falls on all of them alike. Each round reports the process's CPU time per step
(``time.process_time``: every thread; on a shared machine it moves less with other processes' load than
wall time does) and its wall time per step; the table gives the median round. MindSpore's CPU time counts
its thread pool's spinning, so its wall time is given beside it. The losses of the first steps are
printed too: sporax's two modes must agree with each other bit for bit.

    PYTHONPATH=src python3 benchmarks/pynative_mindcv.py resnet18:32:32 mobilenet_v3_small_100:8:32 \\
        --steps 5 --repeat 5 --ms-python /tmp/ms/bin/python

mindcv is read from ``--ecosys`` (default ``../shared/external/ecosys``) with its third-party imports from
``--deps``. ``--contender`` picks contenders (``sporax_pynative``, ``sporax_graph``, ``mindspore_pynative``).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compile_time import parse_mindcv_options  # noqa: E402
from suite_worker import training_step  # noqa: E402
CONTENDERS = ("sporax_pynative", "sporax_graph", "mindspore_pynative")


def build_step(mindspore, name, batch, size, mode):
    """A ``step()`` returning the loss Tensor of one training step of mindcv's ``name`` in ``mode``."""
    import numpy as np
    from mindcv.loss import create_loss
    from mindcv.models import create_model
    from mindcv.optim import create_optimizer

    mindspore.set_context(mode=mindspore.PYNATIVE_MODE if mode == "pynative" else mindspore.GRAPH_MODE)
    mindspore.set_seed(0)
    np.random.seed(0)
    model = create_model(model_name=name, pretrained=False, num_classes=10)
    model.set_train(True)
    optimizer = create_optimizer(model.trainable_params(), opt="momentum", lr=1e-3, momentum=0.9)
    loss_fn = create_loss(name="CE")
    x = mindspore.Tensor(np.random.rand(batch, 3, size, size), mindspore.float32)
    y = mindspore.Tensor(np.random.randint(0, 10, (batch,)), mindspore.int32)
    return training_step(mindspore, model, loss_fn, optimizer, x, y, mode == "pynative")


def child(spec, contender):
    """Serve rounds of one contender: read a step count per line from stdin, answer one JSON line each."""
    name, batch, size = spec.split(":")
    if contender.startswith("sporax"):
        import sporax.compat
        sporax.compat.install()
    import mindspore
    step = build_step(mindspore, name, int(batch), int(size), contender.rsplit("_", 1)[1])
    began = time.perf_counter()
    losses = [float(step().asnumpy()) for _ in range(2)]
    print(json.dumps({"losses": losses, "first_wall_s": time.perf_counter() - began}), flush=True)
    for line in sys.stdin:
        count = int(line)
        cpu, wall = time.process_time(), time.perf_counter()
        for _ in range(count):
            loss = step()
        losses.append(float(loss.asnumpy()))
        print(json.dumps({"cpu_ms": (time.process_time() - cpu) / count * 1e3,
                          "wall_ms": (time.perf_counter() - wall) / count * 1e3, "loss": losses[-1]}), flush=True)


def start(spec, contender, options):
    """One warm child process for ``contender`` on ``spec``, and its first line (compile, first losses)."""
    mindspore = contender.startswith("mindspore")
    path = [options.deps, os.path.join(options.ecosys, "mindcv")]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(path + [os.environ.get("PYTHONPATH", "")]))
    if mindspore:
        env.setdefault("ONEDNN_MAX_CPU_ISA", "AVX2")
    python = options.ms_python if mindspore else sys.executable
    process = subprocess.Popen([python, os.path.abspath(__file__), "--child", spec, contender], env=env,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    return process, answer(process, contender, spec)


def answer(process, contender, spec):
    """The next JSON line the child prints (its other output is MindSpore's logging)."""
    for line in process.stdout:
        if line.startswith("{"):
            return json.loads(line)
    raise RuntimeError(f"{contender} on {spec} stopped (exit {process.wait()}); run its --child to see why")


def measure(spec, options):
    """Median round figures per contender for one ``name:batch:size``."""
    contenders = [c for c in options.contender or CONTENDERS if options.ms_python or not c.startswith("mindspore")]
    children = {c: start(spec, c, options) for c in contenders}
    rounds = {c: [] for c in contenders}
    for index in range(options.repeat):
        for contender in contenders if index % 2 == 0 else contenders[::-1]:
            process = children[contender][0]
            process.stdin.write(f"{options.steps}\n")
            process.stdin.flush()
            rounds[contender].append(answer(process, contender, spec))
    for process, _ in children.values():
        process.stdin.close()
        process.wait()
    return {c: {"first": children[c][1], "cpu_ms": statistics.median(r["cpu_ms"] for r in rounds[c]),
                "wall_ms": statistics.median(r["wall_ms"] for r in rounds[c]),
                "cpu_rounds": [round(r["cpu_ms"], 1) for r in rounds[c]]} for c in contenders}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("specs", nargs="*", metavar="NAME:BATCH:SIZE")
    parser.add_argument("--steps", type=int, default=5, help="steps per round")
    parser.add_argument("--repeat", type=int, default=5, help="rounds per contender")
    parser.add_argument("--contender", action="append", choices=CONTENDERS)
    parser.add_argument("--ms-python", help="MindSpore 2.10's interpreter (its contender is skipped without it)")
    options = parse_mindcv_options(parser, child)
    if options is None:
        return
    print(f"load average {os.getloadavg()[0]:.1f} at start; CPU ms per step (median round), wall ms; rounds")
    for spec in options.specs:
        figures = measure(spec, options)
        for contender, r in figures.items():
            print(f"{spec:28s} {contender:19s} CPU {r['cpu_ms']:8.1f}  wall {r['wall_ms']:8.1f}  "
                  f"first {r['first']['first_wall_s']:6.1f} s  losses {r['first']['losses']}  rounds {r['cpu_rounds']}",
                  flush=True)
        if "sporax_graph" in figures and "sporax_pynative" in figures:
            ratio = figures["sporax_graph"]["cpu_ms"] / figures["sporax_pynative"]["cpu_ms"]
            print(f"{spec:28s} sporax PyNative speed vs GRAPH (CPU): {ratio:.2f}x", flush=True)
        if "mindspore_pynative" in figures and "sporax_pynative" in figures:
            ms_figures, ours = figures["mindspore_pynative"], figures["sporax_pynative"]
            print(f"{spec:28s} sporax PyNative speed vs MindSpore PyNative: CPU "
                  f"{ms_figures['cpu_ms'] / ours['cpu_ms']:.2f}x, wall {ms_figures['wall_ms'] / ours['wall_ms']:.2f}x",
                  flush=True)
    print(f"load average {os.getloadavg()[0]:.1f} at end")


if __name__ == "__main__":
    main()
