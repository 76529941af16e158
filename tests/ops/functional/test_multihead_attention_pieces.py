"""The multi-head attention helpers libraries import from ``mindspore.ops.function.nn_func`` (mindone's
MultiheadAttention adapter, its WavLM): values and error messages recorded on MindSpore 2.10
(tests/fixtures/ops/record_multihead_attention_pieces.py)."""
import os

import numpy as np
import pytest

import sporax as ms
from sporax import Tensor
from sporax.ops.functional import multihead_attention_pieces as pieces
from tests.compat.test_hook import hook  # noqa: F401 - the shared install/uninstall fixture

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "..", "fixtures", "ops",
                       "multihead_attention_pieces_mindspore.npz")
RECORDED = dict(np.load(FIXTURE))
P = {key[len("pieces_"):]: value for key, value in RECORDED.items() if key.startswith("pieces_")}
E, H = 4, 2


def T(value):
    return Tensor(value)


def close(actual, expected):
    np.testing.assert_allclose(actual.asnumpy(), expected, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("case, k_is_v, q_is_k", [("self", True, True), ("encdec", True, False),
                                                   ("sep", False, False)])
def test_packed_projection_matches_mindspore(case, k_is_v, q_is_k):
    key = P["q"] if q_is_k else P["k"]
    value = P[f"packed_{case}_v"]  # the key itself where k_is_v
    outputs = pieces._in_projection_packed(T(P["q"]), T(key), T(value), T(P["w"]), T(P["b"]), k_is_v, q_is_k)
    assert len(outputs) == 3
    for index, output in enumerate(outputs):
        close(output, P[f"packed_{case}_{index}"])


def test_packed_projection_without_bias():
    _, key, _ = pieces._in_projection_packed(T(P["q"]), T(P["k"]), T(P["k"]), T(P["w"]), None, True, False)
    close(key, P["packed_nobias_1"])


def test_separate_projection_and_linear_match_mindspore():
    outputs = pieces._in_projection(T(P["q"]), T(P["k"]), T(P["v"]), T(P["wq"]), T(P["wk"]), T(P["wv"]), T(P["bq"]))
    for index, output in enumerate(outputs):
        close(output, P[f"proj_{index}"])
    close(pieces.linear(T(P["q"]), T(P["w"]), T(P["b"])), P["lin"])
    close(pieces.linear(T(P["q"]), T(P["w"]), None), P["lin_nob"])


def test_separate_projection_names_the_wrong_shape():
    with pytest.raises(ValueError, match=r"Expecting query weights shape of \(4, 4\), but got \(4, 3\)"):
        pieces._in_projection(T(P["q"]), T(P["k"]), T(P["v"]), T(P["wk"][:, :3]), T(P["wk"]), T(P["wv"]))
    with pytest.raises(ValueError, match=r"Expecting query bias shape of \(4,\), but got \(3,\)"):
        pieces._in_projection(T(P["q"]), T(P["k"]), T(P["v"]), T(P["wq"]), T(P["wk"]), T(P["wv"]), T(P["bq"][:3]))


def test_shape_checks_answer_and_refuse_as_mindspore():
    assert pieces._check_qkv_shape(3, 3, 3) is True and pieces._check_qkv_shape(2, 2, 2) is False
    assert pieces._check_kpm_shape(3, 2) is None and pieces._check_kpm_shape(2, 1) is None
    assert pieces._check_attn_mask_shape(2, (3, 4), (5, 4), 3, (2, 3, 5), 2) is None
    refusals = [
        (pieces._check_qkv_shape, (3, 2, 3), "For batched `query`, the `key` and `value` must be 3D tensor, "
                                             "but got `key` with 2D and `value` with 3D."),
        (pieces._check_qkv_shape, (4, 4, 4), "The `query` should be unbatched 2D or batched 3D tensor, "
                                             "but got `query` with 4D."),
        (pieces._check_kpm_shape, (2, 2), "For unbatched `query`, the `key_padding_mask` must be `None` or 1D, "
                                          "but got `key_padding_mask` with 2D."),
        (pieces._check_attn_mask_shape, (3, (3, 2, 4), (5, 2, 4), 4, (1, 4, 3, 5), 2),
         "For batched `query`, the `attn_mask` must be `None`, 2-D or 3-D, but got `attn_mask` with4D."),
        (pieces._check_attn_mask_shape, (2, (3, 4), (5, 4), 3, (2, 5, 3), 2),
         "The shape of `attn_mask` must to be (2, 3, 5), but got (2, 5, 3)."),
    ]
    for check, args, message in refusals:
        with pytest.raises(ValueError) as error:
            check(*args)
        assert str(error.value) == message


def test_inner_pad_keeps_a_bool_mask_bool_and_dropout_is_identity_outside_training():
    padded = pieces._inner_pad(T(np.array([[True, False, True]])), (0, 1))
    assert padded.dtype == ms.bool_ and padded.asnumpy().tolist() == [[True, False, True, False]]
    padded = pieces._inner_pad(T(np.ones((1, 2), np.float32)), (0, 1), value=-1.0)
    assert padded.asnumpy().tolist() == [[1.0, 1.0, -1.0]]
    x = T(np.ones((2, 3), np.float32))
    assert pieces._inner_dropout(x, 0.5, False) is x and pieces._inner_dropout(x, 0.0, True) is x
    dropped = pieces._inner_dropout(T(np.ones(200, np.float32)), 0.5, True).asnumpy()
    assert set(dropped.tolist()) == {0.0, 2.0}  # kept values scaled by 1 / (1 - p), as MindSpore's


def _forward(case):
    r = {name: (None if value is None else T(value)) for name, value in RECORDED.items()}
    if case == "self":
        return pieces.multi_head_attention_forward(
            r["x"], r["x"], r["x"], E, H, r["w"], r["b"], None, None, False, 0.0, r["ow"], r["ob"], training=False,
            key_padding_mask=T(RECORDED["kpm"][:, :3]), attn_mask=T(RECORDED["fmask"][:, :3]), k_is_v=True,
            q_is_k=True)
    if case == "encdec":
        return pieces.multi_head_attention_forward(
            r["x"], r["kv"], r["kv"], E, H, r["w"], r["b"], r["bk"], r["bv"], True, 0.0, r["ow"], r["ob"],
            training=False, key_padding_mask=r["kpm"], average_attn_weights=False, k_is_v=True)
    if case == "sep":
        return pieces.multi_head_attention_forward(
            r["xu"], r["ku"], r["vu"], E, H, None, r["b"], None, None, False, 0.0, r["ow"], None, training=False,
            attn_mask=r["bmask3"], use_separate_proj_weight=True, q_proj_weight=r["wq"], k_proj_weight=r["wk"],
            v_proj_weight=r["wv"])
    if case == "static":
        return pieces.multi_head_attention_forward(
            r["x"], r["kv"], r["kv"], E, H, r["w"], None, None, None, False, 0.0, r["ow"], r["ob"], training=False,
            static_k=r["sk"], static_v=r["sv"], attn_mask=r["fmask"])
    return pieces.multi_head_attention_forward(
        r["x"], r["x"], r["x"], E, H, r["w"], r["b"], None, None, False, 0.0, r["ow"], r["ob"], training=False,
        is_causal=True)


@pytest.mark.parametrize("case", ["self", "encdec", "sep", "static", "causal"])
def test_multi_head_attention_forward_matches_mindspore(case):
    output, weights = _forward(case)
    close(output, RECORDED[f"{case}_out"])
    close(weights, RECORDED[f"{case}_w"])


def test_multi_head_attention_forward_refuses_as_mindspore():
    r = {name: T(value) for name, value in RECORDED.items()}
    args = (r["x"], r["kv"], r["kv"], E, H, r["w"], r["b"], None, None, False, 0.0, r["ow"], r["ob"])
    with pytest.raises(ValueError, match=r"^The `embed_dim` should be 6, but got 4\.$"):
        pieces.multi_head_attention_forward(*args[:3], 6, *args[4:])
    with pytest.raises(ValueError, match=r"^The `key_padding_mask` only supports bool and floating dtypes\.$"):
        pieces.multi_head_attention_forward(*args, key_padding_mask=T(np.zeros((2, 5), np.int32)))


def test_libraries_import_them_from_mindspores_private_path(hook):
    from mindspore.ops.function.nn_func import (  # noqa: PLC0415 - served only while the hook is installed
        _check_attn_mask_shape, _in_projection_packed, _inner_pad, linear, multi_head_attention_forward)

    assert multi_head_attention_forward is pieces.multi_head_attention_forward
    assert (_check_attn_mask_shape, _in_projection_packed, _inner_pad, linear) == (
        pieces._check_attn_mask_shape, pieces._in_projection_packed, pieces._inner_pad, pieces.linear)
