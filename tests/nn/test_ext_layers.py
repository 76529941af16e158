"""The *Ext Cells (MindSpore runs them on Ascend only) against NumPy; ParameterUpdate,
TimeDistributed and RReLU by their definitions."""
import numpy as np
import pytest

import sporax as ms
from sporax import nn

RNG = np.random.default_rng(7)


def test_layer_norm_ext():
    x = RNG.standard_normal((2, 3, 4)).astype(np.float32)
    layer = nn.LayerNormExt((3, 4), eps=1e-3, bias=False)
    assert [p.name for p in layer.get_parameters()] == ["weight"]
    mean = x.mean(axis=(1, 2), keepdims=True)
    var = x.var(axis=(1, 2), keepdims=True)
    np.testing.assert_allclose(layer(ms.Tensor(x)).asnumpy(), (x - mean) / np.sqrt(var + 1e-3), rtol=1e-4, atol=1e-5)


def test_max_pool2d_ext_with_padding_and_indices():
    x = RNG.standard_normal((1, 1, 4, 5)).astype(np.float32)
    values, indices = nn.MaxPool2dExt(2, 1, return_indices=True)(ms.Tensor(x))
    windows = np.lib.stride_tricks.sliding_window_view(x[0, 0], (2, 2))
    np.testing.assert_array_equal(values.asnumpy()[0, 0], windows.max(axis=(2, 3)))
    np.testing.assert_array_equal(x.reshape(-1)[indices.asnumpy().reshape(-1)], values.asnumpy().reshape(-1))
    padded = nn.MaxPool2dExt(3, 2, 1)(ms.Tensor(x)).asnumpy()
    reference = np.pad(x[0, 0], 1, constant_values=-np.inf)
    expected = np.array([[reference[i:i + 3, j:j + 3].max() for j in range(0, 5, 2)] for i in range(0, 3, 2)])
    np.testing.assert_array_equal(padded[0, 0], expected)


def test_embedding_ext_and_dropout_ext():
    table = RNG.standard_normal((5, 3)).astype(np.float32)
    layer = nn.EmbeddingExt(5, 3, padding_idx=1, _weight=ms.Tensor(table))
    ids = np.array([[0, 4], [1, 1]])
    np.testing.assert_array_equal(layer(ms.Tensor(ids)).asnumpy(), table[ids])
    assert nn.EmbeddingExt(5, 3, padding_idx=-1).weight.asnumpy()[4].tolist() == [0.0, 0.0, 0.0]
    # MindSpore 2.10 (nn.EmbeddingExt, alias mint.nn.Embedding): ValueError "the scenerio, where `sparse` is True".
    with pytest.raises(ValueError, match="For Embedding, sparse=True"):
        nn.EmbeddingExt(5, 3, sparse=True)
    x = ms.Tensor(np.ones((4, 6, 3, 3), np.float32))
    assert nn.DropoutExt(0.3)(x) is x and nn.Dropout2dExt(0.3)(x) is x  # not training
    drop = nn.Dropout2dExt(0.5)
    drop.set_train()
    out = drop(x).asnumpy()
    per_channel = out.reshape(4, 6, -1)
    assert set(np.unique(per_channel.min(axis=2))) <= {0.0, 2.0}
    assert np.all(per_channel.min(axis=2) == per_channel.max(axis=2))  # whole channels dropped
    with pytest.raises(ValueError, match="'p'"):
        nn.DropoutExt(1.5)


def test_parameter_update_time_distributed_rrelu():
    weight = ms.Parameter(ms.Tensor(np.zeros((2, 2), np.float32)), name="w")
    value = ms.Tensor(np.ones((2, 2), np.float32))
    assert nn.ParameterUpdate(weight)(value) is value
    np.testing.assert_array_equal(weight.asnumpy(), np.ones((2, 2)))

    dense = nn.Dense(3, 2)
    x = RNG.standard_normal((4, 5, 3)).astype(np.float32)
    out = nn.TimeDistributed(dense, time_axis=1)(ms.Tensor(x)).asnumpy()
    expected = x @ dense.weight.asnumpy().T + dense.bias.asnumpy()
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match="reshape_with_axis"):
        nn.TimeDistributed(dense, 1, reshape_with_axis=1)(ms.Tensor(x))

    x = RNG.standard_normal((50, 40)).astype(np.float32)
    y = nn.RReLU(0.1, 0.3)(ms.Tensor(x)).asnumpy()
    np.testing.assert_array_equal(y[x >= 0], x[x >= 0])
    slopes = y[x < 0] / x[x < 0]
    assert slopes.min() >= 0.1 - 1e-6 and slopes.max() <= 0.3 + 1e-6 and slopes.std() > 0.03


# MindSpore 2.10: nn.TimeDistributed(Dense(4, 2), time_axis, reshape_with_axis) on arange(24).reshape(2, 3, 4) / 10.
TIME_DENSE = [0.18, 0.12, 0.34, 0.68, 0.5, 1.24, 0.66, 1.8, 0.82, 2.36, 0.98, 2.92]
# MindSpore 2.10: TimeDistributed(BatchNorm1d(4) training, 1, reshape_with_axis=0): statistics over all 6 rows.
TIME_BATCH_NORM = [-1.463834, -0.878301, -0.292767, 0.292767, 0.878301, 1.463834]


@pytest.mark.parametrize("time_axis, reshape_with_axis", [(1, 0), (0, 1), (-2, 0), (1, None)])
def test_time_distributed_reshape_with_axis_matches_mindspore(time_axis, reshape_with_axis):
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 10
    weight = ms.Tensor(np.array([[0.1, 0.2, -0.3, 0.4], [0.5, -0.6, 0.7, 0.8]], np.float32))
    dense = nn.Dense(4, 2, weight_init=weight, bias_init=ms.Tensor(np.array([0.1, -0.2], np.float32)))
    out = nn.TimeDistributed(dense, time_axis, reshape_with_axis)(ms.Tensor(x)).asnumpy()
    np.testing.assert_allclose(out.ravel(), TIME_DENSE, rtol=1e-5, atol=1e-6)


def test_time_distributed_reshape_with_axis_runs_the_layer_once_over_all_steps():
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 10
    norm = nn.BatchNorm1d(4)
    norm.set_train(True)
    out = nn.TimeDistributed(norm, 1, reshape_with_axis=0)(ms.Tensor(x)).asnumpy()
    assert out.shape == (2, 3, 4)
    np.testing.assert_allclose(out.reshape(6, 4), np.repeat(np.array(TIME_BATCH_NORM)[:, None], 4, 1), atol=1e-5)
    dense = nn.Dense(4, 2)
    x4 = np.arange(48, dtype=np.float32).reshape(2, 3, 2, 4) / 10
    out4 = nn.TimeDistributed(dense, 1, reshape_with_axis=0)(ms.Tensor(x4)).asnumpy()
    assert out4.shape == (2, 3, 2, 2)  # as MindSpore 2.10
    np.testing.assert_allclose(out4, x4 @ dense.weight.asnumpy().T + dense.bias.asnumpy(), rtol=1e-5, atol=1e-6)


# MindSpore 2.10: ms.set_seed(0); mint.nn.Embedding(5, 3, padding_idx=1).weight (N(0, 1) from the global seed).
SEEDED_TABLE = [[-0.49091062, -0.42302188, -1.4807187], [0.0, 0.0, 0.0], [0.3419288, -0.4946354, 0.8433963],
                [-0.52799535, 1.2988694, 0.6558298], [-0.3792887, 1.5129895, -0.32119447]]


def test_mint_embedding_is_embedding_ext_with_mindspore_settings():
    from sporax import Tensor, mint
    assert mint.nn.Embedding is nn.EmbeddingExt
    ms.set_seed(0)
    layer = mint.nn.Embedding(5, 3, padding_idx=1)
    np.testing.assert_allclose(layer.weight.asnumpy(), SEEDED_TABLE, rtol=1e-6)
    assert layer.weight.name == "weight" and layer.weight.requires_grad
    assert repr(layer) == ("EmbeddingExt(num_embeddings=5, embedding_dim=3, padding_idx=1, max_norm=None, "
                           "norm_type=2.0, scale_grad_by_freq=False, dtype=Float32)")
    # as MindSpore: padding_idx kept as given; _weight copied with its dtype (``dtype`` then ignored), its
    # padding row not zeroed; dtype for a new table; _freeze
    table = ms.Tensor(np.ones((5, 3), np.float64))
    layer = mint.nn.Embedding(5, 3, padding_idx=-1, _weight=table, dtype=ms.float16)
    assert layer.padding_idx == -1 and layer.weight.dtype == ms.float64 and layer.weight is not table
    assert layer.weight.asnumpy()[4].tolist() == [1.0, 1.0, 1.0]
    assert mint.nn.Embedding(5, 3, dtype=ms.float16).weight.dtype == ms.float16
    assert not mint.nn.Embedding(5, 3, _freeze=True).weight.requires_grad
    with pytest.raises(ValueError, match=r"'padding_idx' must be in range of \[-5, 5\), but got 5"):
        mint.nn.Embedding(5, 3, padding_idx=5)
    with pytest.raises(TypeError, match="'num_embeddings' should be 'int'"):
        mint.nn.Embedding(5.0, 3)
    with pytest.raises(ValueError, match=r"'_weight' must have shape \(5, 3\)"):
        mint.nn.Embedding(5, 3, _weight=ms.Tensor(np.zeros((4, 3), np.float32)))


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_mint_embedding_max_norm_renormalises_the_table_in_place(mode):
    from sporax import Tensor, mint
    ms.set_context(mode=mode)
    try:
        table = np.arange(15, dtype=np.float32).reshape(5, 3)
        layer = mint.nn.Embedding(5, 3, max_norm=5.0, _weight=ms.Tensor(table))
        ids = np.array([[0, 2], [4, 2]])
        out = layer(ms.Tensor(ids)).asnumpy()
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    norms = np.linalg.norm(table, axis=1, keepdims=True)
    expected = np.where(norms > 5.0, table * 5.0 / (norms + 1e-7), table)
    np.testing.assert_allclose(out, expected[ids], rtol=1e-6)
    updated = table.copy()
    updated[[0, 2, 4]] = expected[[0, 2, 4]]  # only the rows looked up
    np.testing.assert_allclose(layer.weight.asnumpy(), updated, rtol=1e-6)


def test_mint_embedding_gradient_skips_padding_and_scales_by_frequency():
    from sporax import Tensor, mint
    layer = mint.nn.Embedding(5, 3, padding_idx=2, scale_grad_by_freq=True,
                              _weight=ms.Tensor(np.zeros((5, 3), np.float32)))
    ids = np.array([0, 2, 0, 3, 0])
    upstream = RNG.standard_normal((5, 3)).astype(np.float32)
    grad, = ms.grad(lambda i: (layer(i) * ms.Tensor(upstream)).sum(), grad_position=None,
                    weights=layer.trainable_params())(ms.Tensor(ids.astype(np.int32)))
    expected = np.zeros((5, 3), np.float32)
    counts = np.bincount(ids, minlength=5)
    for position, row in enumerate(ids):
        if row != 2:
            expected[row] += upstream[position] / counts[row]
    np.testing.assert_allclose(grad.asnumpy(), expected, rtol=1e-5, atol=1e-6)


def test_dropout_ext_inplace_writes_its_input_in_training():
    from sporax import Tensor, mint
    assert mint.nn.Dropout is nn.DropoutExt and mint.nn.Dropout2d is nn.Dropout2dExt  # as in MindSpore 2.10
    x = Tensor(np.ones(200, np.float32))
    assert nn.DropoutExt(0.5, inplace=True).set_train()(x) is x
    assert sorted(set(x.asnumpy().tolist())) == [0.0, 2.0]
    image = Tensor(np.ones((1, 16, 2, 2), np.float32))
    assert nn.Dropout2dExt(0.5, inplace=True).set_train()(image) is image
    assert sorted(set(image.asnumpy().reshape(-1).tolist())) == [0.0, 2.0]
    kept = Tensor(np.ones(8, np.float32))
    assert nn.DropoutExt(0.5).set_train()(kept) is not kept and kept.asnumpy().tolist() == [1.0] * 8
