"""AutoParallel's strategy search on 4 host devices: a layer too large to replicate is split, results equal one
device (a subprocess with --xla_force_host_platform_device_count=4)."""
import json
import os
import subprocess
import sys

import pytest

from sporax import nn
from sporax.parallel.auto_parallel import AutoParallel, plan_weights

WORKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "auto_parallel_worker.py")
SRC = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "src"))


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    env = dict(os.environ, JAX_PLATFORMS="cpu", PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    completed = subprocess.run([sys.executable, WORKER, str(tmp_path_factory.mktemp("auto_parallel"))],
                               capture_output=True, text=True, timeout=300, env=env)
    assert completed.returncode == 0, completed.stderr[-4000:]
    return json.loads(completed.stdout.strip().splitlines()[-1])


def test_the_search_replicates_what_fits_and_splits_what_does_not(results):
    # Batch 64: gathering the first layer's 256 outputs costs more than all-reducing its 16 KB weight,
    # so it is replicated while memory allows; under a 40 KB limit it no longer fits and is split.
    assert results["default_memory"]["layouts"]["0.weight"] == "P()"
    assert results["small_memory"]["layouts"]["0.weight"] == "P(('p0', 'p1'), None)"
    assert results["small_memory"]["layouts"]["trained 0.weight"] == "P(('p0', 'p1'), None)"  # stays split
    assert results["small_memory"]["strategy_file"]["0.weight"] == [0, -1]
    assert results["default_memory"]["strategy_file"]["0.weight"] == [-1, -1]
    assert "device_memory_capacity" in results["too_small"]


@pytest.mark.parametrize("label", ["default_memory", "small_memory"])
def test_auto_parallel_training_equals_one_device(results, label):
    assert results[label]["losses_equal"] and results[label]["weights_equal"]


def test_cost_model_and_arguments():
    # 4 devices, batch 8: splitting a (256, 16) weight moves 1.5 * 8 * 256 * 4 bytes, replicating it
    # 1.5 * 16 KB: the split is cheaper; an indivisible first dimension stays replicated.
    assert plan_weights({"w": (256, 16), "odd": (6, 16)}, 8, 4, 1e9) == {"w": True, "odd": False}
    with pytest.raises(ValueError, match="parallel_mode"):
        AutoParallel(nn.Dense(2, 2), parallel_mode="auto")


def test_mindspore_path_serves_the_same_class():
    import importlib

    from sporax.compat import install

    install()
    assert importlib.import_module("mindspore.parallel.auto_parallel").AutoParallel is AutoParallel


def test_auto_parallel_context_runs_the_search_before_the_first_compile(results):
    assert results["context"]["losses_equal"]
    assert results["context"]["trained 0.weight"] == "P(('p0', 'p1'), None)"
