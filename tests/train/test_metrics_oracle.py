"""The metrics Dice, Perplexity, ROC, auc, CosineSimilarity, BleuScore, surface distances
against results recorded from MindSpore 2.10 (tests/fixtures/train/record_metrics_oracle.py)."""
import importlib.util
import json
import os

import numpy as np
import pytest

import sporax
from sporax import nn, train

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "fixtures", "train", "metrics_oracle_mindspore.json")
_spec = importlib.util.spec_from_file_location(
    "record_metrics_oracle", os.path.join(os.path.dirname(__file__), "..", "fixtures", "train", "record_metrics_oracle.py"))
RECORDER = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(RECORDER)
with open(FIXTURE) as handle:
    CASES = json.load(handle)


def _run(case):
    if case["metric"] == "auc":
        return train.auc(*[np.array(v) for v in case["updates"][0]], **case["kwargs"])
    metric = getattr(train, case["metric"])(**case["kwargs"])
    for inputs in case["updates"]:
        metric.update(*[RECORDER.convert(sporax, case["metric"], value) for value in inputs])
    return metric.eval()


def _compare(got, expected):
    if isinstance(expected, dict):
        np.testing.assert_allclose(np.asarray(got, np.float64), np.asarray(expected["array"]), rtol=1e-6, atol=1e-9)
    elif isinstance(expected, list):
        assert isinstance(got, (list, tuple)) and len(got) == len(expected)
        for item, want in zip(got, expected):
            _compare(item, want)
    else:
        assert float(got) == pytest.approx(expected, rel=1e-6, abs=1e-12)


@pytest.mark.parametrize("case", CASES, ids=[f"{i}-{c['metric']}" for i, c in enumerate(CASES)])
def test_matches_mindspore(case):
    if "error" in case:
        with pytest.raises(getattr(__builtins__, case["error"], None) or Exception) as info:
            _run(case)
        assert type(info.value).__name__ == case["error"]
    else:
        _compare(_run(case), case["result"])


def test_exported_under_mindspore_nn_and_train():
    for name in ("BleuScore", "ConfusionMatrix", "ConfusionMatrixMetric", "OcclusionSensitivity", "CosineSimilarity", "Dice", "HausdorffDistance",
                 "MeanSurfaceDistance", "Perplexity", "ROC", "RootMeanSquareDistance", "auc"):
        assert getattr(sporax, name) is getattr(nn, name) is getattr(train, name)
    assert {"dice", "roc", "bleu_score", "perplexity"} <= set(nn.names())
    assert isinstance(nn.get_metric_fn("dice"), train.Dice)
    metrics = nn.get_metrics({"dice", "perplexity"})
    assert isinstance(metrics["perplexity"], train.Perplexity)


def test_bad_arguments_name_the_metric():
    with pytest.raises(ValueError, match="Dice"):
        train.Dice(smooth=0)
    with pytest.raises(ValueError, match="BleuScore"):
        train.BleuScore(n_gram=5)
    with pytest.raises(ValueError, match="HausdorffDistance"):
        train.HausdorffDistance(distance_metric="cosine")
    with pytest.raises(RuntimeError, match="Perplexity"):
        train.Perplexity().eval()


def test_occlusion_sensitivity_result_is_float32_as_recorded():
    # MindSpore's OcclusionSensitivity docstring, recorded on MindSpore 2.10: a float32 array printing
    # [0.29999995 0.6        1.         0.9       ] (a float64 one printed 0.60000002 ... 0.89999998).
    weight = np.array([[0.1, 0.8, 0.1, 0.1], [1, 1, 1, 1]], np.float32)
    model = nn.Dense(4, 2, weight_init=sporax.Tensor(weight), bias_init=sporax.Tensor(np.array([0.3, 0.6], np.float32)))
    metric = train.OcclusionSensitivity()
    metric.update(model, np.array([[0.1, 0.2, 0.3, 0.4]], np.float32), np.array(1, np.int32))
    score = metric.eval()
    assert score.dtype == np.float32
    assert str(score) == "[0.29999995 0.6        1.         0.9       ]"
