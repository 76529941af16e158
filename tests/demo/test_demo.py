"""The README's main job: `sporax demo` trains LeNet5 on the digits and writes its outputs."""
import os
import struct
import subprocess
import sys

import numpy as np
import pytest

from sporax.demo.digits import FILES, write_digits


def test_digits_are_valid_mnist_idx(tmp_path):
    write_digits(str(tmp_path))
    sizes = {}
    for usage, (images, labels) in FILES.items():
        with open(tmp_path / images, "rb") as handle:
            magic, count, rows, columns = struct.unpack(">IIII", handle.read(16))
            pixels = np.frombuffer(handle.read(), np.uint8)
        assert (magic, rows, columns) == (0x0803, 28, 28) and pixels.size == count * 784
        with open(tmp_path / labels, "rb") as handle:
            magic, label_count = struct.unpack(">II", handle.read(8))
            classes = np.frombuffer(handle.read(), np.uint8)
        assert magic == 0x0801 and label_count == count and set(classes) == set(range(10))
        sizes[usage] = count
    assert sizes["train"] + sizes["test"] == 1797 and abs(sizes["test"] - 359) <= 2


def run_demo(tmp_path, *options):
    command = [sys.executable, "-m", "sporax", "demo", "--output-dir", str(tmp_path / "out"),
               "--data-dir", str(tmp_path / "data"), *options]
    result = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    lines = dict(line.split(": ", 1) for line in result.stdout.splitlines() if ": " in line)
    return float(lines["test accuracy"]), lines


def test_short_demo_learns_and_writes_outputs(tmp_path):
    accuracy, lines = run_demo(tmp_path, "--epochs", "4")
    assert accuracy > 0.85
    assert os.path.getsize(tmp_path / "out" / "loss_curve.png") > 10_000
    import sporax as ms
    from sporax.demo.lenet import LeNet5

    network = LeNet5()
    not_loaded, optimizer_state = ms.load_param_into_net(network, ms.load_checkpoint(lines["checkpoint"]))
    assert not_loaded == [] and "moments.fc1.weight" in optimizer_state  # as ModelCheckpoint saves it


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["graph", "pynative"])
def test_full_demo_reaches_97_percent(tmp_path, mode):
    accuracy, _ = run_demo(tmp_path, "--mode", mode)
    assert accuracy >= 0.97
