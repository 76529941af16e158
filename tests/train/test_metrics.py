"""Metrics against values recorded from MindSpore 2.10 and NumPy."""
import numpy as np
import pytest
from sporax import Tensor

from sporax.train.metrics import (Accuracy, F1, Fbeta, Loss, MAE, MSE, Precision, Recall,
                                  Top1CategoricalAccuracy, Top5CategoricalAccuracy,
                                  TopKCategoricalAccuracy)

SCORES = np.array([[0.2, 0.5], [0.3, 0.1], [0.9, 0.1]], np.float32)
LABELS = np.array([1, 0, 1], np.int32)


def run(metric, *inputs):
    metric.clear()
    metric.update(*inputs)
    return metric


def test_accuracy_matches_mindspore():
    assert run(Accuracy(), SCORES, LABELS).eval() == pytest.approx(2 / 3)
    one_hot = np.eye(2, dtype=np.float32)[LABELS]
    assert run(Accuracy(), SCORES, one_hot).eval() == pytest.approx(2 / 3)
    multilabel = run(Accuracy("multilabel"), np.array([[0, 1], [1, 1]]), np.array([[0, 1], [1, 0]]))
    assert multilabel.eval() == 0.5


def test_accuracy_accumulates_and_clears():
    metric = Accuracy()
    metric.update(SCORES, LABELS)
    metric.update(SCORES[:1], LABELS[:1])
    assert metric.eval() == pytest.approx(3 / 4)
    metric.clear()
    with pytest.raises(RuntimeError, match="number of samples is 0"):
        metric.eval()


def test_precision_recall_f1_match_mindspore():
    np.testing.assert_allclose(run(Precision(), SCORES, LABELS).eval(), [0.5, 1.0])
    assert run(Precision(), SCORES, LABELS).eval(average=True) == pytest.approx(0.75)
    np.testing.assert_allclose(run(Recall(), SCORES, LABELS).eval(), [1.0, 0.5])
    np.testing.assert_allclose(run(F1(), SCORES, LABELS).eval(), [2 / 3, 2 / 3])
    multilabel = run(Precision("multilabel"), np.array([[0, 1], [1, 1]]), np.array([[0, 1], [1, 0]]))
    np.testing.assert_allclose(multilabel.eval(), [1.0, 0.5])


def test_multilabel_precision_and_recall_are_per_sample_as_mindspore():
    # recorded from MindSpore 2.10: one value per row, accumulated over updates; the average is their mean
    batches = [(np.array([[0, 1, 1], [1, 0, 1]]), np.array([[0, 1, 1], [1, 0, 0]])),
               (np.array([[1, 1, 0]]), np.array([[0, 1, 1]]))]
    for metric, expected, average in ((Precision("multilabel"), [1.0, 0.5, 0.5], 2 / 3),
                                      (Recall("multilabel"), [1.0, 1.0, 0.5], 5 / 6)):
        metric.clear()
        for predicted, actual in batches:
            metric.update(predicted, actual)
        np.testing.assert_allclose(metric.eval(), expected, rtol=1e-6)
        assert metric.eval(average=True) == pytest.approx(average)
    assert run(Precision("multilabel"), np.array([[0, 0]]), np.array([[1, 0]])).eval().tolist() == [0.0]


def test_fbeta_against_formula():
    rng = np.random.default_rng(0)
    scores, labels = rng.random((50, 4)), rng.integers(0, 4, 50)
    predicted = scores.argmax(1)
    metric = run(Fbeta(2.0), scores, labels)
    for cls, value in enumerate(metric.eval()):
        tp = np.sum((predicted == cls) & (labels == cls))
        p = tp / max(np.sum(predicted == cls), 1)
        r = tp / max(np.sum(labels == cls), 1)
        expected = 5 * p * r / (4 * p + r) if p + r else 0.0
        assert value == pytest.approx(expected)


def test_topk():
    rng = np.random.default_rng(1)
    scores, labels = rng.random((40, 8)), rng.integers(0, 8, 40)
    ranks = (-scores).argsort(1)
    for k, metric in [(1, Top1CategoricalAccuracy()), (5, Top5CategoricalAccuracy()),
                      (3, TopKCategoricalAccuracy(3))]:
        expected = np.mean([labels[i] in ranks[i, :k] for i in range(40)])
        assert run(metric, scores, labels).eval() == pytest.approx(expected)
    with pytest.raises(ValueError, match="k must be an int"):
        TopKCategoricalAccuracy(0)


def test_mae_mse_loss_match_mindspore():
    assert run(MAE(), np.array([1.0, 2.0]), np.array([1.5, 2.0])).eval() == pytest.approx(0.25)
    assert run(MSE(), np.array([1.0, 2.0]), np.array([1.5, 2.0])).eval() == pytest.approx(0.125)
    loss = Loss()
    loss.update(np.float32(2.0))
    loss.update(np.array(3.0))
    assert loss.eval() == pytest.approx(2.5)


def test_set_indexes_reorders_inputs():
    metric = Accuracy().set_indexes([2, 0])
    metric.update(LABELS, "unused", SCORES)
    assert metric.indexes == [2, 0] and metric.eval() == pytest.approx(2 / 3)


def test_bad_inputs_are_named():
    with pytest.raises(ValueError, match="needs 2 inputs"):
        Accuracy().update(SCORES)
    with pytest.raises(TypeError, match="Accuracy.update"):
        Accuracy().update(SCORES, object())
    with pytest.raises(ValueError, match="eval_type"):
        Accuracy("regression")


# MindSpore 2.10 (CPU) recorded: MAE and MSE take each batch's errors and their sum in the inputs' dtype
# and accumulate the sums in float64, so float32 rounding shows in the exact result (two updates of
# these float32 columns, the second with the arguments swapped; and one float16 update).
@pytest.mark.parametrize("metric, float32_pair, float16_pair", [
    (MAE, 0.36666663487752277, 0.35009765625),
    (MSE, 0.1633333166440328, 0.14501953125),
])
def test_mae_and_mse_sum_each_batch_in_the_inputs_dtype_as_mindspore(metric, float32_pair, float16_pair):
    a = Tensor(np.array([[0.1], [0.5], [0.7]], np.float32))
    b = Tensor(np.array([[0.3], [0.2], [0.1]], np.float32))
    m = metric()
    m.update(a, b)
    m.update(b, a)
    assert m.eval() == float32_pair
    m = metric()
    m.update(Tensor(np.array([0.1, 0.7], np.float16)), Tensor(np.array([0.3, 0.2], np.float16)))
    assert m.eval() == float16_pair
    m = metric()
    m.update(np.array([0.1, 0.7]), np.array([0.3, 0.2]))
    assert m.eval() == (0.35 if metric is MAE else 0.14499999999999996)


def test_top_k_with_fewer_classes_than_k_is_mindspores():
    # MindSpore 2.10 (recorded): 3 or 4 classes under Top5 fail to broadcast; one class counts k hits.
    rng = np.random.default_rng(0)
    metric = Top5CategoricalAccuracy()
    with pytest.raises(ValueError, match=r"operands could not be broadcast together with shapes \(2,3\) \(2,5\)"):
        metric.update(Tensor(rng.random((2, 3)).astype(np.float32)), Tensor(np.zeros(2, np.int32)))
    metric.clear()
    metric.update(Tensor(rng.random((2, 1)).astype(np.float32)), Tensor(np.zeros(2, np.int32)))
    assert metric.eval() == 5.0
    metric.clear()
    metric.update(Tensor(rng.random((2, 5)).astype(np.float32)), Tensor(np.zeros(2, np.int32)))
    assert metric.eval() == 1.0


def test_scalar_results_are_numpy_float64_as_mindspore():
    # MindSpore 2.10: Accuracy/TopK/Loss/MAE/MSE and the averaged per-class metrics give numpy.float64
    # (probe recorded in session 32); per-class results stay float64 arrays.
    y_pred = Tensor(np.array([[0.2, 0.5, 0.3], [0.1, 0.1, 0.8], [0.6, 0.3, 0.1], [0.3, 0.3, 0.4]], np.float32))
    y = Tensor(np.array([1, 2, 1, 0], np.int32))
    for metric in (Accuracy(), Top1CategoricalAccuracy()):
        value = run(metric, y_pred, y).eval()
        assert type(value) is np.float64 and value == 0.5
    for metric in (Precision(), Recall(), F1()):
        run(metric, y_pred, y)
        assert type(metric.eval(average=True)) is np.float64
        assert metric.eval().dtype == np.float64 and metric.eval().shape == (3,)
    loss = Loss()
    loss.update(Tensor(np.float32(0.5)))
    loss.update(Tensor(np.float32(0.25)))
    assert type(loss.eval()) is np.float64 and loss.eval() == 0.375
    for metric, expected in ((MAE(), 0.5), (MSE(), 0.25)):
        value = run(metric, Tensor(np.array([1.0, 2.0], np.float32)), Tensor(np.array([1.5, 2.5], np.float32))).eval()
        assert type(value) is np.float64 and value == expected
