"""``Cell.set_data_parallel`` on 4 host devices: same values and gradients as one device, batch split.

One subprocess (data_parallel_worker.py, 4 host devices; this test process has one) runs the
network in STAND_ALONE, SEMI_AUTO_PARALLEL and AUTO_PARALLEL and reports JSON.
"""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

WORKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data_parallel_worker.py")


@pytest.fixture(scope="module")
def results():
    env = dict(os.environ, JAX_PLATFORMS="cpu")
    completed = subprocess.run([sys.executable, WORKER], capture_output=True, text=True, timeout=240, env=env)
    assert completed.returncode == 0, completed.stderr[-4000:]
    return json.loads(completed.stdout)


@pytest.mark.parametrize("mode", ["semi_auto_parallel", "auto_parallel"])
def test_values_and_gradients_match_one_device(results, mode):
    base, run = results["base"], results[mode]
    np.testing.assert_allclose(run["out"], base["out"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(run["loss"], base["loss"], rtol=1e-5)
    np.testing.assert_allclose(run["grad_x"], base["grad_x"], rtol=1e-5, atol=1e-6)
    for grad, expected in zip(run["grads"], base["grads"]):
        np.testing.assert_allclose(grad, expected, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("mode", ["semi_auto_parallel", "auto_parallel"])
def test_batch_is_split_over_the_devices(results, mode):
    # An (8, 4) batch on 4 devices: each device holds 2 rows of the input and of the output.
    assert results[mode]["input_shard"] == [2, 4]
    assert results[mode]["out_shard"] == [2, 3]
    assert results[mode]["attrs"] == ["data_parallel", "data_parallel"]


def test_stand_alone_keeps_one_device(results):
    # The strategy acts only in the sharding modes: STAND_ALONE keeps the whole batch on one device.
    assert results["stand_alone"]["input_shard"] == [8, 4]
    np.testing.assert_allclose(results["stand_alone"]["out"], results["base"]["out"])
    assert results["base"]["attrs"] == [None, None]
