"""Loss landscapes: SummaryCollector keeps the weights, SummaryLandscape evaluates the loss around them."""
import glob
import json
import os

import numpy as np
import pytest

import sporax as ms
from sporax import nn
from sporax.dataset import NumpySlicesDataset
from sporax.train import Model, SummaryCollector, SummaryLandscape

RNG = np.random.default_rng(0)
DATA = {"x": RNG.normal(size=(64, 4)).astype(np.float32), "y": RNG.normal(size=(64, 1)).astype(np.float32)}
SETTINGS = {"landscape_size": 4, "unit": "step", "create_landscape": {"train": True, "result": True},
            "num_samples": 32, "intervals": [[1, 2, 3, 4]]}


def _dataset():
    return NumpySlicesDataset(data=DATA, shuffle=False).batch(16)


def _loss(weights):
    """MSE of the Dense(4, 1) with these weights on the first 32 samples (the 2 batches evaluated)."""
    prediction = DATA["x"][:32] @ weights["weight"].T + weights["bias"]
    return float(np.mean((prediction - DATA["y"][:32]) ** 2))


@pytest.fixture
def trained(tmp_path):
    net = nn.Dense(4, 1)
    model = Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.05))
    summary = str(tmp_path / "summary")
    model.train(1, _dataset(), callbacks=[SummaryCollector(summary, collect_specified_data={
        "collect_landscape": SETTINGS})])
    return summary


def _callback():
    network = nn.Dense(4, 1)
    return Model(network, nn.MSELoss()), network, _dataset(), {"Loss": nn.Loss()}


def test_collector_keeps_the_weights_of_each_step(trained):
    files = sorted(os.path.basename(path) for path in glob.glob(os.path.join(trained, "ckpt_dir", "*")))
    assert files == ["Dense_1_step.ckpt", "Dense_2_step.ckpt", "Dense_3_step.ckpt", "Dense_4_step.ckpt",
                     "train_metadata.json"]
    with open(os.path.join(trained, "ckpt_dir", "train_metadata.json"), encoding="utf-8") as handle:
        metadata = json.load(handle)
    assert metadata["epoch_group"] == {"0": [1, 2, 3, 4]} and metadata["step_per_epoch"] == 4
    assert sorted(metadata["model_params_file_map"]) == ["1", "2", "3", "4"]


def test_landscapes_evaluate_the_loss(trained, tmp_path):
    landscapes = SummaryLandscape(trained).gen_landscapes_with_multi_process(_callback, output=str(tmp_path / "out"))
    pca, random = landscapes
    assert (pca["decomposition"], pca["intervals"], random["decomposition"], random["intervals"]) == \
        ("PCA", [1, 2, 3, 4], "Random", [4])
    trajectory = [{name: value.asnumpy() for name, value in ms.load_checkpoint(
        os.path.join(trained, "ckpt_dir", f"Dense_{step}_step.ckpt")).items()} for step in (1, 2, 3, 4)]
    # Along the trajectory, the loss path is the loss at each kept step; the last is the convergence point.
    np.testing.assert_allclose(pca["path"][2], [_loss(weights) for weights in trajectory], rtol=1e-5)
    assert pca["path"][0][-1] == pytest.approx(0.0, abs=1e-6) and pca["path"][1][-1] == pytest.approx(0.0, abs=1e-6)
    assert pca["convergence"][2][0] == pytest.approx(_loss(trajectory[-1]), rel=1e-5)
    x_axis, y_axis, z_points = pca["landscape"]
    assert z_points.shape == (4, 4) and np.all(np.diff(x_axis) > 0) and np.all(np.diff(y_axis) > 0)
    assert x_axis[0] < pca["path"][0].min() and x_axis[-1] > pca["path"][0].max()  # the 20% margin
    assert random["landscape"][2].shape == (4, 4) and np.all(np.isfinite(random["landscape"][2]))
    written = open(glob.glob(str(tmp_path / "out" / "events.out.events.summary.*"))[0], "rb").read()
    assert b"landscape_[1, 4]" in written and b"landscape_[4]" in written and b"PCA" in written


def test_settings_are_checked(tmp_path):
    with pytest.raises(ValueError, match="landscape_size"):
        SummaryCollector(str(tmp_path), collect_specified_data={"collect_landscape": {"landscape_size": 2}})
    with pytest.raises(ValueError, match="intervals"):
        SummaryCollector(str(tmp_path), collect_specified_data={"collect_landscape": {"intervals": [[1, 2]]}})
    with pytest.raises(ValueError, match="unsupported"):
        SummaryCollector(str(tmp_path), collect_specified_data={"collect_landscape": {"size": 4}})
    with pytest.raises(FileNotFoundError, match="train_metadata.json"):
        SummaryLandscape(str(tmp_path / "empty")).gen_landscapes_with_multi_process(_callback)
    landscape = SummaryLandscape(str(tmp_path / "clean"))
    landscape.clean_ckpt()
    assert not os.path.exists(tmp_path / "clean" / "ckpt_dir")
