"""First training step (compilation included) of sporax GRAPH_MODE, with a cold and a warm persistent
compilation cache, split into where the time goes.

Each measurement is a fresh process (a second run of the same script is what the warm cache is
for): "cold" starts with an empty ``SPORAX_COMPILATION_CACHE_DIR``, "warm" reuses the directory
the cold run filled. The split comes from JAX's own monitoring events: ``trace`` is JAX's jaxpr
tracing (sporax's Cell calls and passes run inside it), ``lower`` MLIR lowering, ``compile`` XLA's
backend compile, ``cache`` reading the persistent cache; ``rest`` is the remainder (execution of
the step, sporax's discovery outside the trace, argument handling; nested jits' trace events
overlap their caller's, so it can come out slightly negative). ``to 20th`` is the wall time from
the first step's start to the end of the 20th; ``CPU`` the first step's CPU time over all the
process's threads (XLA compiles and runs on several), steadier than wall time on a loaded machine; the
CPU figure after ``to 20th`` is the same for the first 20 steps.

``--mindspore-python /tmp/ms/bin/python`` adds MindSpore 2.10's own GRAPH step (the suite's
``TrainOneStepCell``, ``ONEDNN_MAX_CPU_ISA=AVX2`` on an AVX-512 CPU as the suite runs it): its first step
and time to the 20th (MindSpore's "cold"/"warm" are the same: it keeps no compile cache by default).

``--background`` measures sporax with its background compile on and off (``SPORAX_BACKGROUND_COMPILE``:
a large program's first steps run on a quick compile while the full one compiles in a thread),
interleaved over ``--rounds``; each line shows the machine's load average, since on a shared
machine a compile's wall time follows the load more than anything else::

    PYTHONPATH=src python3 benchmarks/first_step.py --only lenet5 --only lstm --only transformer
    PYTHONPATH=src python3 benchmarks/first_step.py --only resnet18 --background --rounds 2

Measurements (CPU per phase, the trace's profile, the per-op first step against the whole step): ``first_step.md``.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

EVENTS = {"/jax/core/compile/jaxpr_trace_duration": "trace",
          "/jax/core/compile/jaxpr_to_mlir_module_duration": "lower",
          "/jax/core/compile/backend_compile_duration": "compile",
          "/jax/compilation_cache/cache_retrieval_time_sec": "cache"}
BATCH = {"mlp": 32, "lenet5": 32, "resnet18": 32, "transformer": 16, "lstm": 32}


def mindspore_child(model):
    """MindSpore's GRAPH TrainOneStepCell (the suite's, ``suite_worker.setup_ms``): first step and to 20th only
    (its compile is not split into JAX's events)."""
    import suite_worker
    run, _ = suite_worker.setup_ms("mindspore-graph", model, BATCH[model], 1)
    started, cpu_started = time.perf_counter(), time.process_time()
    run(1)
    first, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    run(19)
    print(json.dumps({"first": first, "cpu": cpu, "to20": time.perf_counter() - started,
                      "cpu20": time.process_time() - cpu_started, "trace": 0.0,
                      "lower": 0.0, "compile": 0.0, "cache": 0.0, "rest": first}), flush=True)


def child(contender, model):
    if contender == "mindspore":
        mindspore_child(model)
        return
    import sporax  # noqa: F401  (JAX's options as sporax sets them, the persistent cache included)
    from jax import monitoring

    import recurrent
    import suite_models as sm

    times = dict.fromkeys(EVENTS.values(), 0.0)

    def listener(event, duration, **_):
        if event in EVENTS:
            times[EVENTS[event]] += duration
    monitoring.register_event_duration_secs_listener(listener)
    batch = BATCH[model]
    if contender.startswith("sporax"):
        run = recurrent.sporax_runner(model, batch, masked=contender == "sporax-masked")
    else:
        run = recurrent.jax_runner(model, batch)
    times.update(dict.fromkeys(times, 0.0))  # building the model is not the first step
    started, cpu_started = time.perf_counter(), time.process_time()
    run(1)
    first, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    times["rest"] = first - sum(times.values())
    split = dict(times)
    run(19)
    print(json.dumps({"first": first, "cpu": cpu, "to20": time.perf_counter() - started,
                      "cpu20": time.process_time() - cpu_started, **split}), flush=True)


def measure(contender, model, cache, background=None, python=None):
    """One child's figures; ``background``: ``SPORAX_BACKGROUND_COMPILE``'s value (None: the environment's);
    ``python``: the interpreter (MindSpore's venv for the ``mindspore`` contender)."""
    env = dict(os.environ, SPORAX_COMPILATION_CACHE_DIR=cache)
    if background is not None:
        env["SPORAX_BACKGROUND_COMPILE"] = background
    if contender == "mindspore":
        import suite  # MindSpore's oneDNN capped at AVX2 on an AVX-512 CPU, as the suite runs it
        env = suite.contender_environment("mindspore-graph", f"{model}_b{BATCH[model]}", env)
    done = subprocess.run([python or sys.executable, __file__, "--child", contender, model], env=env,
                          capture_output=True, text=True, timeout=600)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if not lines:
        raise RuntimeError(f"{contender} {model} failed: {done.stderr[-800:]}")
    return json.loads(lines[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", choices=tuple(BATCH))
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    parser.add_argument("--jax", action="store_true", help="also the hand-written JAX model")
    parser.add_argument("--masked", action="store_true",
                        help="lstm: also sporax with the masked time loop (recurrent.py --masked)")
    parser.add_argument("--background", action="store_true",
                        help="sporax with SPORAX_BACKGROUND_COMPILE on and off, interleaved")
    parser.add_argument("--mindspore-python", help="also MindSpore 2.10's GRAPH step, run by this interpreter "
                        "(first step and to 20th only; ONEDNN_MAX_CPU_ISA=AVX2 as the suite sets it)")
    parser.add_argument("--rounds", type=int, default=1, help="interleaved rounds of every measurement")
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return
    # Without --background, sporax as a user's script runs it (the background compile off unless the
    # environment switches it on): forcing it on here made the ResNet-18's first step 2.36 s with
    # "rest 0.97" where the plain script took 1.87 s (the quick program's steps and the full compile competing).
    contenders = [("sporax", None), ("jax", None)] if args.jax else [("sporax", None)]
    if args.background:
        contenders[0:1] = [("sporax", "on"), ("sporax", "off")]
    for model in args.only or ("lenet5", "lstm", "transformer"):
        extra = [("sporax-masked", None)] if args.masked and model == "lstm" else []
        extra += [("mindspore", None)] if args.mindspore_python else []
        for _ in range(args.rounds):
            for contender, background in contenders + extra:
                name = contender + (f" bg={background}" if args.background and contender == "sporax" else "")
                with tempfile.TemporaryDirectory(prefix="sporax-first-step-") as cache:
                    for label in ("cold",) if contender == "mindspore" else ("cold", "warm"):
                        r = measure(contender, model, cache, background,
                                    args.mindspore_python if contender == "mindspore" else None)
                        print(f"{model:10s} {name:13s} {label}: first step {r['first']:6.2f} s = trace {r['trace']:.2f}"
                              f" + lower {r['lower']:.2f} + compile {r['compile']:.2f} + cache read {r['cache']:.2f}"
                              f" + rest {r['rest']:.2f} (CPU {r['cpu']:.2f} s, all threads); to 20th {r['to20']:6.2f} s"
                              f" (CPU {r['cpu20']:.2f} s)"
                              f"  (load {os.getloadavg()[0]:.1f})",
                              flush=True)


if __name__ == "__main__":
    main()
