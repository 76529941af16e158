"""nn Cells added for issue 13 against MindSpore 2.10 outputs (tests/fixtures/api/nn_tier2.npz)."""
import os
import sys

import numpy as np
import pytest

import sporax as ms
from sporax import nn

HERE = os.path.dirname(os.path.abspath(__file__))
ORACLE = np.load(os.path.join(HERE, "..", "fixtures", "api", "nn_tier2.npz"))
sys.path.insert(0, os.path.join(HERE, "..", "fixtures", "api"))
from record_nn_tier2 import inputs  # noqa: E402  (the recorder's inputs; it imports mindspore only when run)

D = inputs()
T = {key: ms.Tensor(value) for key, value in D.items()}

CASES = {
    "mae_mean": lambda: nn.MAELoss("mean")(T["x"], T["y"]),
    "mae_sum": lambda: nn.MAELoss("sum")(T["x"], T["y"]),
    "mae_none": lambda: nn.MAELoss("none")(T["x"], T["y"]),
    "multimargin_mean": lambda: nn.MultiMarginLoss()(T["x"], T["class_label"]),
    "multimargin_sum": lambda: nn.MultiMarginLoss(reduction="sum")(T["x"], T["class_label"]),
    "multimargin_none": lambda: nn.MultiMarginLoss(reduction="none")(T["x"], T["class_label"]),
    "multimargin_p2_weight": lambda: nn.MultiMarginLoss(p=2, margin=0.5, weight=T["weight5"])(T["x"], T["class_label"]),
    "focal_mean": lambda: nn.FocalLoss(gamma=2.0)(T["logits4"], T["label4"]),
    "focal_sum": lambda: nn.FocalLoss(gamma=2.0, reduction="sum")(T["logits4"], T["label4"]),
    "focal_none": lambda: nn.FocalLoss(gamma=2.0, reduction="none")(T["logits4"], T["label4"]),
    "focal_weight": lambda: nn.FocalLoss(weight=ms.Tensor(np.array([0.2, 0.3, 0.5], np.float32)),
                                         gamma=1.0)(T["logits4"], T["label4"]),
    "dice": lambda: nn.DiceLoss()(T["prob"], T["mask"]),
    "dice_smooth": lambda: nn.DiceLoss(smooth=0.5)(T["prob"], T["mask"]),
    "psnr": lambda: nn.PSNR()(T["img1"], T["img2"]),
    "psnr_255": lambda: nn.PSNR(max_val=255.0)(T["img1"] * 255, T["img2"] * 255),
    "ssim": lambda: nn.SSIM()(T["img1"], T["img2"]),
    "ssim_small": lambda: nn.SSIM(filter_size=5, filter_sigma=1.0)(T["img1"], T["img2"]),
    "clip_by_norm": lambda: nn.ClipByNorm()(T["x"], ms.Tensor(1.5, ms.float32)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_oracle(name):
    got = CASES[name]().asnumpy()
    assert got.shape == ORACLE[name].shape
    np.testing.assert_allclose(got, ORACLE[name], rtol=2e-5, atol=2e-6)


def test_clip_by_norm_axis_against_numpy():
    norms = np.sqrt((D["x"] ** 2).sum(axis=1, keepdims=True))
    expected = D["x"] * 1.0 / np.maximum(norms, 1.0)
    np.testing.assert_allclose(nn.ClipByNorm(axis=1)(T["x"], ms.Tensor(1.0, ms.float32)).asnumpy(), expected,
                               rtol=1e-6)


def test_focal_loss_one_hot_labels_and_gradient():
    logits = ms.Tensor(D["logits4"][:, :, 0, 0])
    one_hot = ms.Tensor(np.eye(3, dtype=np.int32)[[0, 2]])
    loss = nn.FocalLoss(gamma=2.0, reduction="none")(logits, one_hot)
    assert loss.shape == (2, 3)
    grad = ms.grad(lambda z: nn.FocalLoss()(z, one_hot))(logits).asnumpy()
    assert np.isfinite(grad).all() and np.abs(grad).sum() > 0


@pytest.mark.parametrize("make, error", [
    (lambda: nn.FocalLoss(gamma=2), TypeError),
    (lambda: nn.FocalLoss(weight=[1.0]), TypeError),
    (lambda: nn.DiceLoss(smooth=0.0), ValueError),
    (lambda: nn.MultiMarginLoss(p=3), ValueError),
    (lambda: nn.PSNR(max_val=0), ValueError),
    (lambda: nn.SSIM(k1=1), TypeError),
    (lambda: nn.MAELoss("avg"), ValueError),
    (lambda: nn.PSNR()(T["x"], T["x"]), ValueError),
    (lambda: nn.DiceLoss()(T["prob"], T["x"]), ValueError),
])
def test_bad_arguments(make, error):
    with pytest.raises(error):
        make()


def test_sparse_cells_and_tensor_conversions():
    import json

    with open(os.path.join(HERE, "..", "fixtures", "api", "tier2.json")) as f:
        oracle = json.load(f)
    dense = ms.Tensor(np.array([[0, 1.5], [2, 0]], np.float32))
    coo, csr = dense.to_coo(), dense.to_csr()
    assert [coo.indices.asnumpy().tolist(), coo.values.asnumpy().tolist(), list(coo.shape)] == oracle["to_coo"]
    assert [csr.indptr.asnumpy().tolist(), csr.indices.asnumpy().tolist(),
            csr.values.asnumpy().tolist()] == oracle["to_csr"]
    assert nn.SparseToDense()(coo).asnumpy().tolist() == oracle["sparse_to_dense"]
    right = ms.Tensor(np.array([[1, 2], [3, 4]], np.float32))
    got = [nn.SparseTensorDenseMatmul(adjoint_st=st, adjoint_dt=dt)(coo.indices, coo.values, (2, 2), right)
           .asnumpy().tolist() for st in (False, True) for dt in (False, True)]
    assert got == oracle["sparse_dense_matmul"]
    with pytest.raises(TypeError):
        nn.SparseToDense()(dense)


def test_sync_batch_norm_is_batch_norm_in_one_process():
    # MindSpore 2.10 with one process gives BatchNorm2d's outputs and moving statistics exactly.
    x = ms.Tensor(np.random.RandomState(0).randn(2, 3, 2, 2).astype(np.float32))
    sync, plain = nn.SyncBatchNorm(3), nn.BatchNorm2d(3)
    sync.set_train()
    plain.set_train()
    np.testing.assert_allclose(sync(x).asnumpy(), plain(x).asnumpy(), rtol=1e-6)
    np.testing.assert_allclose(sync.moving_mean.asnumpy(), plain.moving_mean.asnumpy(), rtol=1e-6)
    assert sync(ms.Tensor(np.ones((4, 3), np.float32))).shape == (4, 3)
    several = nn.SyncBatchNorm(3, process_groups=[[0, 1]])
    several.set_train()
    with pytest.raises(NotImplementedError, match="SyncBatchNorm"):
        several(x)
    several.set_train(False)
    assert several(x).shape == x.shape


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_embedding_lookup(mode):
    # MindSpore 2.10 (CPU) gives rows 0, 3, 2 and a zero row for the out-of-range index 5.
    ms.set_context(mode=mode)
    try:
        table = np.arange(12, dtype=np.float32).reshape(4, 3)
        lookup = nn.EmbeddingLookup(4, 3, param_init=ms.Tensor(table))
        indices = ms.Tensor(np.array([[0, 3], [2, 5]], np.int32))
        expected = np.stack([table[[0, 3]], np.stack([table[2], np.zeros(3, np.float32)])])
        np.testing.assert_array_equal(lookup(indices).asnumpy(), expected)
        assert [p.name for p in lookup.get_parameters()] == ["embedding_table"]
        clipped = nn.EmbeddingLookup(4, 3, param_init=ms.Tensor(table), max_norm=5.0)(indices).asnumpy()
        norms = np.linalg.norm(expected, axis=-1, keepdims=True)
        np.testing.assert_allclose(clipped, expected * 5.0 / np.maximum(norms, 5.0), rtol=1e-6)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    with pytest.raises(ValueError):
        nn.EmbeddingLookup(4, 3, target="GPU")


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_micro_batch_cells(mode):
    from record_micro_batch import run as run_micro

    oracle = np.load(os.path.join(HERE, "..", "fixtures", "api", "micro_batch.npz"))
    ms.set_context(mode=mode)
    try:
        got = run_micro(ms, nn)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    for key in oracle:
        np.testing.assert_allclose(got[key], oracle[key], rtol=1e-5, err_msg=key)
    with pytest.raises(ValueError, match="divisible"):
        nn.GradAccumulationCell(nn.Dense(3, 2), 4)(ms.Tensor(np.ones((6, 3), np.float32)))
    with pytest.raises(TypeError):
        nn.PipelineCell(lambda x: x, 2)
