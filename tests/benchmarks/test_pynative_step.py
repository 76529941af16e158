"""The PyNative-step benchmark's workloads: the PyNative tutorial loop and GRAPH's TrainOneStepCell train
the same model to the same losses (the benchmark compares like with like); its timing helpers interleave
the contenders and its one-core option pins the process. No speed is asserted here."""
import os
import subprocess
import sys
import time

import numpy as np
import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                                "benchmarks"))
import pynative_step  # noqa: E402

import sporax as ms  # noqa: E402


def _losses(workload, mode, steps=3):
    ms.set_context(mode=ms.PYNATIVE_MODE if mode == "pynative" else ms.GRAPH_MODE)
    try:
        ms.set_seed(0)
        network, loss_fn, optimizer = pynative_step.ms_workload(ms, workload)
        x, y = (ms.Tensor(a) for a in pynative_step.data(workload))
        if mode == "pynative":
            grad_fn = ms.value_and_grad(lambda d, t: loss_fn(network(d), t), None, optimizer.parameters)

            def step():
                loss, grads = grad_fn(x, y)
                optimizer(grads)
                return loss
        else:
            step = ms.nn.TrainOneStepCell(ms.nn.WithLossCell(network, loss_fn), optimizer)
            step = (lambda train=step: train(x, y))
        return [float(step().asnumpy()) for _ in range(steps)]
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_tiny_mlp_pynative_and_graph_train_alike():
    pynative, graph = _losses("tiny_mlp", "pynative"), _losses("tiny_mlp", "graph")
    np.testing.assert_allclose(pynative, graph, rtol=1e-5)
    assert pynative[-1] < pynative[0]  # Momentum on a fixed batch lowers the loss


def test_host_read_contender_reads_real_values_in_its_differentiated_function(monkeypatch):
    # The "sporax PYN host read" contender measures PyNative's op-by-op path: the function it differentiates
    # reads its loss on the host at every step, which sees the real (finite, scalar) value.
    read = []
    asnumpy = ms.Tensor.asnumpy

    def recording(tensor):
        value = asnumpy(tensor)
        read.append(value)
        return value

    monkeypatch.setattr(ms.Tensor, "asnumpy", recording)
    try:
        pynative_step.ms_steps(ms, "tiny_mlp", "pynative-read")(3)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    losses = [value for value in read if value.shape == ()]
    assert len(losses) == 4 and all(np.isfinite(losses))  # one a step, and the final sync


def test_workloads_shapes():
    x, y = pynative_step.data("seed_mlp")
    assert x.shape == (64, 1, 28, 28) and y.dtype == np.int32 and y.max() < 10
    assert pynative_step.data("small_cnn")[0].shape == (16, 3, 32, 32)


def test_measure_alternates_the_order_and_gives_median_cpu_with_its_main_thread_share():
    calls = []

    def contender(name, spin_seconds):
        def run(count):
            calls.append((name, count))
            end = time.thread_time() + spin_seconds
            while time.thread_time() < end:  # CPU time on the main thread only
                pass
        return run

    figures = pynative_step.measure({"a": contender("a", 0.004), "b": contender("b", 0.0)}, steps=4, repeat=3)
    warm_up = [("a", 5), ("b", 5)]
    assert calls == warm_up + [("a", 4), ("b", 4), ("b", 4), ("a", 4), ("a", 4), ("b", 4)]
    rate, cpu, main = figures["a"]
    # ms per step: >= 4 ms of main-thread CPU over 4 steps; the process clock includes it (to its resolution)
    assert rate > 0 and 1.0 <= main <= cpu + 0.01
    assert figures["b"][2] < main


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="CPU affinity is Linux-only")
def test_one_core_leaves_one_usable_cpu_to_the_process_and_its_children():
    script = ("import os, subprocess, sys; sys.path.insert(0, sys.argv[1]); import pynative_step; "
              "core = pynative_step.one_core(); "
              "child = subprocess.run([sys.executable, '-c', 'import os; print(sorted(os.sched_getaffinity(0)))'], "
              "capture_output=True, text=True).stdout.strip(); "
              "print(core in os.sched_getaffinity(0), len(os.sched_getaffinity(0)), child == str([core]))")
    benchmarks = os.path.dirname(pynative_step.__file__)
    done = subprocess.run([sys.executable, "-c", script, benchmarks], capture_output=True, text=True, timeout=120)
    assert done.stdout.split() == ["True", "1", "True"], done.stderr


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity") or len(os.sched_getaffinity(0)) < 2,
                    reason="needs CPU affinity and two usable CPUs")
def test_the_mindspore_worker_gets_back_the_cpus_the_benchmark_started_with(tmp_path):
    # A stand-in for MindSpore: the real worker runs, and its `import mindspore` reports the CPUs it may use.
    (tmp_path / "mindspore.py").write_text("import json, os, sys\n"
                                           "cpus = len(os.sched_getaffinity(0))\n"
                                           "print(json.dumps({'tiny_mlp': [cpus, cpus, cpus]}))\n"
                                           "sys.exit(0)\n")
    fake_python = tmp_path / "python"
    fake_python.write_text(f"#!/bin/sh\nPYTHONPATH={tmp_path} exec {sys.executable} \"$@\"\n")
    fake_python.chmod(0o755)
    script = ("import os, sys; sys.path.insert(0, sys.argv[1]); import pynative_step; "
              "before = len(os.sched_getaffinity(0)); pynative_step.one_core(); "
              "found = pynative_step.mindspore_pynative(sys.argv[2], ['tiny_mlp'], 1, 1); "
              "print(found['tiny_mlp'][0] == before, len(os.sched_getaffinity(0)))")
    benchmarks = os.path.dirname(pynative_step.__file__)
    done = subprocess.run([sys.executable, "-c", script, benchmarks, str(fake_python)], capture_output=True,
                          text=True, timeout=120)
    assert done.stdout.split() == ["True", "1"], done.stderr
