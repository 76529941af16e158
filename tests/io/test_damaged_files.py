"""A damaged checkpoint, safetensors or MindIR file loads (a flipped weight byte cannot be seen
without a checksum) or raises an error that names the file: never another library's bare error."""
import os
import shutil

import numpy as np
import pytest

import sporax as ms
from sporax import nn
from sporax.io import load, load_checkpoint

from tests.io.fixture_nets import fixture_path


def _offsets(size):
    rng = np.random.default_rng(0)
    return sorted({0, 1, 4, 8, 9, 12, 16, 20, 30, 40, 64, 100, size // 2, size - 1}
                  | set(int(x) for x in rng.integers(0, size, 12)))


def _damaged_copies(source, folder):
    """Copies of ``source`` with one byte set to 0x00, 0xff or flipped, at several offsets."""
    data = open(source, "rb").read()
    extension = os.path.splitext(source)[1]
    for offset in _offsets(len(data)):
        for value in (0x00, 0xFF, data[offset] ^ 0x04):
            damaged = bytearray(data)
            damaged[offset] = value
            path = os.path.join(folder, f"damaged_{offset}_{value}{extension}")
            with open(path, "wb") as handle:
                handle.write(bytes(damaged))
            yield path


def _check_every_damage(source, folder, read):
    outcomes = {"loaded": 0, "named": 0}
    for path in _damaged_copies(source, folder):
        try:
            read(path)
            outcomes["loaded"] += 1
        except (ValueError, RuntimeError) as error:
            assert os.path.basename(path) in str(error), f"{type(error).__name__}: {error}"
            outcomes["named"] += 1
        os.remove(path)
    assert outcomes["named"] > 0, "no damage was detected at all"
    return outcomes


@pytest.mark.parametrize("name, read", [
    ("lenet5.ckpt", load_checkpoint),
    ("lenet5.safetensors", lambda path: load_checkpoint(path, format="safetensors")),
    ("lenet5.mindir", load),
])
def test_damaged_mindspore_files_name_the_file(tmp_path, name, read):
    _check_every_damage(fixture_path(name), str(tmp_path), read)


def test_damaged_sporax_graph_names_the_file(tmp_path):
    net = nn.Dense(3, 2)
    ms.export(net, ms.Tensor(np.ones((1, 3), np.float32)), file_name=str(tmp_path / "g"),
              file_format="MINDIR")
    source = str(tmp_path / "source.mindir")
    shutil.move(str(tmp_path / "g.mindir"), source)

    def run(path):
        return nn.GraphCell(load(path))(ms.Tensor(np.ones((1, 3), np.float32)))

    outcomes = _check_every_damage(source, str(tmp_path), run)
    assert outcomes["named"] >= 40  # the zip directory, names and CRCs catch most bytes
