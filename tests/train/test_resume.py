"""Resuming training at epoch k (checkpoint + ``Model.train(..., initial_epoch=k)``) is bit-identical
to a run that never stopped, with shuffling, random transforms, sink mode and dataset shards.

MindSpore 2.10 restarts the data at epoch 0's order on resume, so with ``shuffle=True`` its
resumed weights differ from the uninterrupted ones; sporax continues the data exactly.
"""
import os
import subprocess
import sys

import numpy as np
import pytest

import sporax as ms
from sporax import dataset, nn
from sporax.dataset import transforms
from sporax.train import Model

RNG = np.random.default_rng(0)
X = RNG.standard_normal((24, 4)).astype(np.float32)
Y = (X @ np.arange(1, 5, dtype=np.float32).reshape(4, 1)).astype(np.float32)
W0 = RNG.standard_normal((1, 4)).astype(np.float32)


def jitter(x):
    return x * np.float32(1.5)


def train_data(num_shards=None, shard_id=None):
    """Shuffled rows, a random transform (applied to about half the rows), batches of 3."""
    data = dataset.NumpySlicesDataset((X, Y), column_names=["x", "y"], shuffle=True,
                                      num_shards=num_shards, shard_id=shard_id)
    data = data.map(transforms.RandomApply([jitter], prob=0.5), "x")
    return data.batch(3)


def fresh_model():
    """New objects, as in a restarted process (the seeds set as the script would set them)."""
    ms.set_seed(1)
    dataset.config.set_seed(5)
    net = nn.Dense(4, 1, weight_init=ms.Tensor(W0), bias_init="zeros")
    model = Model(net, nn.MSELoss(), nn.Momentum(net.trainable_params(), 0.01, 0.9))
    return model, net


def weights(net):
    return [p.asnumpy().copy() for p in net.trainable_params()]


def train(epochs, sink, sink_size=-1, shards=(None, None), initial_epoch=0, checkpoint=None):
    model, net = fresh_model()
    if checkpoint is not None:
        # The train network's parameters: the weights and the optimizer's moments.
        ms.load_param_into_net(model._train_network, ms.load_checkpoint(checkpoint))
    model.train(epochs, train_data(*shards), dataset_sink_mode=sink, sink_size=sink_size,
                initial_epoch=initial_epoch)
    return model, net


def stop_and_resume(tmp_path, epochs, resume_at, **options):
    model, _ = train(resume_at, **options)
    path = str(tmp_path / "stopped.ckpt")
    ms.save_checkpoint(model._train_network, path)
    _, net = train(epochs, initial_epoch=resume_at, checkpoint=path, **options)
    return weights(net)


@pytest.fixture(params=["PYNATIVE", "GRAPH"])
def mode(request):
    ms.set_context(mode=ms.GRAPH_MODE if request.param == "GRAPH" else ms.PYNATIVE_MODE)
    yield request.param
    ms.set_context(mode=ms.PYNATIVE_MODE)


@pytest.mark.parametrize("sink, sink_size", [(False, -1), (True, -1), (True, 3)])
def test_resume_with_shuffle_is_bit_identical(tmp_path, mode, sink, sink_size):
    _, net = train(3, sink, sink_size)
    expected = weights(net)
    resumed = stop_and_resume(tmp_path, 3, 2, sink=sink, sink_size=sink_size)
    for got, want in zip(resumed, expected):
        np.testing.assert_array_equal(got, want)
    # The check has teeth: resuming on epoch 0's data order (MindSpore's behaviour) differs.
    model, _ = train(2, sink, sink_size)
    path = str(tmp_path / "epoch0.ckpt")
    ms.save_checkpoint(model._train_network, path)
    _, net = train(1, sink, sink_size, checkpoint=path)
    assert any(not np.array_equal(a, b) for a, b in zip(weights(net), expected))


@pytest.mark.parametrize("shard_id", [0, 1])
def test_resume_of_a_data_parallel_shard_is_bit_identical(tmp_path, shard_id):
    options = dict(sink=False, shards=(2, shard_id))
    _, net = train(3, **options)
    expected = weights(net)
    for got, want in zip(stop_and_resume(tmp_path, 3, 1, **options), expected):
        np.testing.assert_array_equal(got, want)


def test_resume_after_the_same_objects_trained_is_bit_identical():
    # In one process, train(2) then train(3, initial_epoch=2) on the same objects continues too.
    _, net = train(3, False)
    expected = weights(net)
    model, net = fresh_model()
    data = train_data()
    model.train(2, data)
    model.train(3, data, initial_epoch=2)
    for got, want in zip(weights(net), expected):
        np.testing.assert_array_equal(got, want)


SCRIPT = """
import sys
import numpy as np
sys.path.insert(0, {tests!r})
import test_resume as case
import sporax as ms
epochs, initial, path, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
model, net = case.train(epochs, True, initial_epoch=initial,
                        checkpoint=path if initial else None)
ms.save_checkpoint(model._train_network, path if not initial else out + ".ckpt")
np.savez(out, *case.weights(net))
"""


@pytest.mark.slow
def test_resume_in_a_new_process_is_bit_identical(tmp_path):
    script = tmp_path / "run.py"
    script.write_text(SCRIPT.format(tests=os.path.dirname(__file__)))
    env = dict(os.environ)

    def run(epochs, initial, out):
        subprocess.run([sys.executable, str(script), str(epochs), str(initial),
                        str(tmp_path / "stopped.ckpt"), str(tmp_path / out)],
                       check=True, timeout=300, env=env)
        saved = np.load(tmp_path / f"{out}.npz")
        return [saved[key] for key in sorted(saved.files)]
    expected = run(3, 0, "full")
    run(2, 0, "first_part")  # writes stopped.ckpt at epoch 2
    resumed = run(3, 2, "resumed")
    for got, want in zip(resumed, expected):
        np.testing.assert_array_equal(got, want)
