"""GRAPH-mode compile time of a mindcv model's step: sporax's phases in process CPU time, and MindSpore's.

One fresh process per measurement (``--child``), no persistent compilation cache (sporax's is
pointed at an empty folder). The model is created as the ecosystem check does
(``ecosys/checks/cv_model.py``: ``create_model(name, num_classes=10)``, batch 2 or the spec's 4th
field, CE loss with label smoothing 0.1, AdamW, ``nn.TrainOneStepCell``), for ``eval`` (``model(x)``
after ``set_train(False)``) or ``train`` (one ``TrainOneStepCell`` step). The machine this runs on is shared,
so every figure is the process's CPU time (``time.process_time``: all its threads), not wall time.

sporax's first call is split at JAX's own monitoring events: the CPU time from one event's end to the
next's goes to the later event's phase, ``trace`` (jaxpr traces: sporax's state discovery and the Python
of every ``construct`` run inside them), ``lower`` (MLIR lowerings), ``compile`` (XLA backend compiles),
and ``run`` is what follows the last event (the first execution and sporax's host path). The events'
wall seconds and counts are printed beside them, with the events of the 5 later calls (a retrace).
``step`` is the median CPU time of 5 later calls.
With ``--ms-python`` the same step runs on MindSpore 2.10 (``ONEDNN_MAX_CPU_ISA=AVX2``, as the suite
runs it): its first call's CPU time is its whole graph compile plus the first run (MindSpore has no
phase events to split it).

    PYTHONPATH=src python3 benchmarks/compile_time.py resnet18:64:eval resnet18:64:train \\
        convnextv2_atto:64:train mixnet_s:64:train mobilenet_v3_small_100:64:train --ms-python /tmp/ms/bin/python

``--env NAME=VALUE`` sets a variable in sporax's children (``SPORAX_PLAIN_LOWERING=conv`` to see what
sporax's CPU convolution forms cost, ``XLA_FLAGS=...`` to try an XLA option). mindcv is read from
``--ecosys`` (default ``../shared/external/ecosys``) with its third-party imports from ``--deps``.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
# ``../shared`` beside the checkout (a worktree one level deeper sees it two levels up)
DEFAULT_ECOSYS = next((path for path in (os.path.normpath(os.path.join(HERE, *[".."] * up, "shared", "external",
                                                                        "ecosys")) for up in (2, 3))
                       if os.path.isdir(path)), os.path.join(HERE, "..", "..", "shared", "external", "ecosys"))
PHASE_EVENTS = {"/jax/core/compile/jaxpr_trace_duration": "trace",
                "/jax/core/compile/jaxpr_to_mlir_module_duration": "lower",
                "/jax/core/compile/backend_compile_duration": "compile"}


def build_step(name, size, phase, mindspore, batch=2):
    """The call to time: ``model(x)`` (eval) or a ``TrainOneStepCell`` step (train), made as cv_model.py makes it."""
    import numpy as np
    from mindcv.loss import create_loss
    from mindcv.models import create_model
    from mindcv.optim import create_optimizer

    mindspore.set_context(mode=mindspore.GRAPH_MODE)
    mindspore.set_seed(0)
    np.random.seed(0)
    model = create_model(model_name=name, pretrained=False, num_classes=10)
    x = mindspore.Tensor(np.random.rand(batch, 3, size, size), mindspore.float32)
    y = mindspore.Tensor(np.random.randint(0, 10, (batch,)), mindspore.int32)
    if phase == "eval":
        model.set_train(False)
        return lambda: model(x).asnumpy()
    model.set_train(True)
    optimizer = create_optimizer(model.trainable_params(), opt="adamw", lr=1e-3, weight_decay=0.05)
    loss = create_loss(name="CE", label_smoothing=0.1)
    step = mindspore.nn.TrainOneStepCell(mindspore.nn.WithLossCell(model, loss), optimizer)
    return lambda: step(x, y).asnumpy()


def child(spec, contender):
    """Measure one ``name:size:phase[:batch]`` in this process and print its figures as one JSON line."""
    name, size, phase, *batch = spec.split(":")
    events = []  # (phase, CPU time at its end, its wall seconds), in order
    if contender == "sporax":
        import sporax.compat
        sporax.compat.install()
        from jax import monitoring

        def listener(event, duration, **_):
            if event in PHASE_EVENTS:
                events.append((PHASE_EVENTS[event], time.process_time(), duration))
        monitoring.register_event_duration_secs_listener(listener)
    import mindspore
    run = build_step(name, int(size), phase, mindspore, int(batch[0]) if batch else 2)
    events.clear()
    started = time.process_time()
    run()
    first = time.process_time() - started
    first_events, events[:] = list(events), []
    steps = []
    for _ in range(5):
        begin = time.process_time()
        run()
        steps.append(time.process_time() - begin)
    figures = {"first": first, "step": statistics.median(steps), "later_events": len(events)}
    # the CPU time between one event's end and the next's goes to the later one (a trace event's is the Python
    # tracing before it, a compile's the compile); after the last event, the run
    mark = started
    for label in ("trace", "lower", "compile"):
        figures[label] = figures[label + "_wall"] = figures[label + "_count"] = 0
    for label, end, duration in first_events:
        figures[label] += end - mark
        figures[label + "_wall"] += duration
        figures[label + "_count"] += 1
        mark = end
    figures["run"] = started + first - mark
    print(json.dumps(figures), flush=True)


def measure(spec, contender, python, options):
    """Run one child process and return its figures."""
    path = [options.deps, os.path.join(options.ecosys, "mindcv")]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(path + [os.environ.get("PYTHONPATH", "")]))
    with tempfile.TemporaryDirectory(prefix="sporax-compile-time-") as cache:
        if contender == "sporax":
            env["SPORAX_COMPILATION_CACHE_DIR"] = cache
            env.update(variable.split("=", 1) for variable in options.env)
        else:
            env.setdefault("ONEDNN_MAX_CPU_ISA", "AVX2")
        done = subprocess.run([python, os.path.abspath(__file__), "--child", spec, contender], env=env,
                              capture_output=True, text=True, timeout=options.timeout)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if not lines:
        raise RuntimeError(f"{contender} {spec} failed: {done.stderr[-1500:]}")
    return json.loads(lines[-1])


def parse_mindcv_options(parser, child):
    """The options with ``--ecosys`` (the folder holding mindcv/) and ``--deps`` (its third-party imports); a
    ``--child`` call runs ``child`` and gives None. Also pynative_mindcv.py's."""
    parser.add_argument("--ecosys", default=DEFAULT_ECOSYS, help="the folder holding mindcv/")
    parser.add_argument("--deps", default="/tmp/ecosys-deps", help="mindcv's third-party imports")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.child:
        child(*options.child)
        return None
    if not os.path.isdir(os.path.join(options.ecosys, "mindcv")):
        parser.error(f"no mindcv under {options.ecosys} (give --ecosys)")
    return options


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("specs", nargs="*", metavar="NAME:SIZE:PHASE[:BATCH]",
                        help="phase: eval or train; batch 2 unless given")
    parser.add_argument("--ms-python", help="also MindSpore 2.10's step, run by this interpreter")
    parser.add_argument("--env", action="append", default=[], metavar="NAME=VALUE",
                        help="an environment variable for sporax's children (repeatable)")
    parser.add_argument("--timeout", type=float, default=1800)
    options = parse_mindcv_options(parser, child)
    if options is None:
        return
    for spec in options.specs:
        r = measure(spec, "sporax", sys.executable, options)
        print(f"{spec:34s} sporax    first {r['first']:6.1f} CPU s = trace {r['trace']:5.1f} + lower {r['lower']:5.1f}"
              f" + compile {r['compile']:5.1f} + run {r['run']:5.1f}; step {1000 * r['step']:7.1f} ms"
              f"  (wall: trace {r['trace_wall']:.1f}, lower {r['lower_wall']:.1f}, compile {r['compile_wall']:.1f};"
              f" events: {r['trace_count']} traces, {r['lower_count']} lowerings, {r['compile_count']} compiles,"
              f" {r['later_events']} in the 5 steps after; load {os.getloadavg()[0]:.1f})", flush=True)
        if options.ms_python:
            r = measure(spec, "mindspore", options.ms_python, options)
            print(f"{spec:34s} MindSpore first {r['first']:6.1f} CPU s; step {1000 * r['step']:7.1f} ms"
                  f"  (load {os.getloadavg()[0]:.1f})", flush=True)


if __name__ == "__main__":
    main()
