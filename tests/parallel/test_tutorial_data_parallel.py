"""MindSpore's `parallel/data_parallel` tutorial (from ../shared/external) on 2 processes via the launcher.

Its training loop calls ``nn.DistributedGradReducer`` in GRAPH_MODE after eager gradients and
MNIST batches; before CPU programs ran inline after ``init()``, its collective callback waited
forever for a device its own program held.
"""
import json
import os
import subprocess
import sys

import pytest

from tests.parallel.helpers import free_port

HERE = os.path.dirname(os.path.abspath(__file__))
CELLS = os.path.join(HERE, "..", "..", "..", "shared", "external", "tutorials", "cells",
                     "parallel__data_parallel.json")
MAKE_MNIST = os.path.join(HERE, "..", "..", "..", "shared", "seeds", "make_mnist_idx.py")
SRC = os.path.abspath(os.path.join(HERE, "..", "..", "src"))


@pytest.mark.slow
def test_data_parallel_tutorial_trains_on_two_processes(tmp_path):
    if not (os.path.exists(CELLS) and os.path.exists(MAKE_MNIST)):
        pytest.skip("../shared/external/tutorials or ../shared/seeds is absent (the tutorial is read from there)")
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""),
               DATA_PATH=str(tmp_path / "MNIST_Data" / "train"))
    subprocess.run([sys.executable, MAKE_MNIST, str(tmp_path / "MNIST_Data"), "--train", "1280", "--test", "64"],
                   check=True, capture_output=True, timeout=300)
    cells = json.load(open(CELLS))
    # Cell 1 is a fragment (it names an undefined dataset_path); one epoch is enough.
    script = "\n".join(cell.replace("range(10)", "range(1)") for index, cell in enumerate(cells) if index != 1)
    (tmp_path / "tutorial.py").write_text(script)
    process = subprocess.run(
        [sys.executable, "-m", "sporax", "launch", "--worker_num=2", "--local_worker_num=2",
         f"--master_port={free_port()}",
         "--cluster_time_out=60", f"--log_dir={tmp_path / 'logs'}", "tutorial.py"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=240)
    logs = [(tmp_path / "logs" / f"worker_{rank}.log").read_text() for rank in (0, 1)]
    assert process.returncode == 0, process.stderr + logs[0][-3000:]
    for log in logs:
        assert "epoch: 0, step: 10, loss is" in log  # 1280 images / 2 ranks / 32 per batch = 20 steps
