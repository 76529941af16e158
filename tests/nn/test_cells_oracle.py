"""nn Cells (pads, math, activations, image, 3-D pooling, losses) against MindSpore 2.10's
outputs (tests/fixtures/nn/record_cells_oracle.py) or, for Cells MindSpore runs only on
GPU/Ascend, against NumPy; gradients of the new differentiable Cells against finite differences."""
import importlib.util
import os

import numpy as np
import pytest
from scipy import special

import sporax as ms
from sporax import nn
from sporax.core import dtype as mstype

from tests.nn.helpers import check_gradient

FIXTURES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures", "nn")
_spec = importlib.util.spec_from_file_location("record_cells_oracle",
                                               os.path.join(FIXTURES, "record_cells_oracle.py"))
RECORDER = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(RECORDER)
ORACLE = np.load(os.path.join(FIXTURES, "cells_oracle_mindspore.npz"))
MISSING = set(ORACLE["__missing__"].tolist())
CASES = {case[0]: case for case in RECORDER.CASES}


def _inputs(name):
    return [RECORDER.make_input(spec) if isinstance(spec, (tuple, list)) else spec for spec in CASES[name][4]]


@pytest.mark.parametrize("case", [c for c in RECORDER.CASES if c[0] not in MISSING], ids=lambda c: c[0])
def test_matches_mindspore(case):
    outputs = RECORDER.run_case(ms, case)
    for index, got in enumerate(outputs):
        want = ORACLE[f"{case[0]}__{index}"]
        assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, got.dtype, want.shape, want.dtype)
        np.testing.assert_allclose(got, want, rtol=2e-5, atol=1e-5)
    assert f"{case[0]}__{len(outputs)}" not in ORACLE.files


def _softplus_free_log_softmax(x, axis):
    shifted = x - x.max(axis=axis, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=axis, keepdims=True))


def _multilabel_reference(x, target):
    losses = []
    for row, labels in zip(x, target):
        targets = []
        for label in labels:
            if label < 0:
                break
            targets.append(label)
        others = [i for i in range(len(row)) if i not in targets]
        losses.append(sum(max(0.0, 1 - (row[j] - row[i])) for j in targets for i in others) / len(row))
    return np.array(losses)


def _triplet_reference(x, p, n, margin, norm, swap, eps=1e-6):
    def distance(a, b):
        return np.sum(np.abs(a - b + eps) ** norm, axis=-1) ** (1 / norm)
    negative = distance(x, n)
    if swap:
        negative = np.minimum(negative, distance(p, n))
    return np.maximum(distance(x, p) - negative + margin, 0)


# Cells MindSpore 2.10 runs only on GPU/Ascend: NumPy gives the expected values.
NUMPY_REFERENCES = {
    "roll": lambda x: np.roll(x, 2, 0),
    "roll_multi": lambda x: np.roll(x, (1, -2), (0, 1)),
    "matdet": np.linalg.det,
    "matinverse": np.linalg.inv,
    "matrix_diag": lambda x: x[..., None] * np.eye(3),
    "matrix_diag_part": lambda x: np.diagonal(x, axis1=-2, axis2=-1),
    "matrix_set_diag": lambda x, d: np.where(np.eye(3, 4, dtype=bool), np.pad(d[..., None] * np.eye(3), ((0, 0),
                                                                                (0, 0), (0, 1))), x),
    "soft_margin": lambda x, y: np.mean(np.log1p(np.exp(-y * x))),
    "soft_margin_sum": lambda x, y: np.sum(np.log1p(np.exp(-y * x))),
    "triplet": lambda x, p, n: np.mean(_triplet_reference(x, p, n, 1.0, 2, False)),
    "triplet_swap": lambda x, p, n: _triplet_reference(x, p, n, 0.5, 1, True),
    "multilabel_margin": lambda x, t: np.mean(_multilabel_reference(x, t)),
    "multilabel_margin_none": _multilabel_reference,
    "l1loss_ext": lambda x, y: np.mean(np.abs(x - y)),
    "logsoftmax_ext": lambda x: _softplus_free_log_softmax(x, 1),
}


@pytest.mark.parametrize("name", sorted(NUMPY_REFERENCES))
def test_cells_mindspore_runs_only_on_devices(name):
    assert name in MISSING or name in CASES
    (got,) = RECORDER.run_case(ms, CASES[name])
    np.testing.assert_allclose(got, NUMPY_REFERENCES[name](*_inputs(name)), rtol=1e-4, atol=1e-5)


def test_special_functions_match_scipy():
    a, x = _inputs("igamma")
    np.testing.assert_allclose(nn.IGamma()(ms.Tensor(a), ms.Tensor(x)).asnumpy(), special.gammainc(a, x), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(nn.LBeta()(ms.Tensor(a), ms.Tensor(x)).asnumpy(), special.betaln(a, x), rtol=1e-5, atol=1e-5)


RNG = np.random.default_rng(3)


@pytest.mark.parametrize("cell,shape", [
    (nn.LRN(depth_radius=1, bias=2.0, alpha=0.5, beta=0.75), (1, 4, 2, 2)), (nn.Norm(axis=1), (3, 4)),
    (nn.MatInverse(), None), (nn.AdaptiveMaxPool3d((1, 2, 2)), (1, 1, 2, 3, 3))])
def test_gradients_match_finite_differences(cell, shape):
    if shape is None:
        x = RNG.standard_normal((3, 3)) + 3 * np.eye(3)
    else:
        x = RNG.standard_normal(shape)
    check_gradient(cell, x)


def test_poisson_nll_gradient_is_analytic():
    # LossBase reduces in float32 (as MindSpore), too coarse for finite differences: compare with
    # the derivative (exp(x) - target) / n instead.
    x, target = RNG.standard_normal((2, 3)), RNG.random((2, 3))
    loss = nn.PoissonNLLLoss()
    grad = ms.grad(lambda value: loss(value, ms.Tensor(target)))(ms.Tensor(x))
    np.testing.assert_allclose(grad.asnumpy(), (np.exp(x) - target) / 6, rtol=1e-5)


def test_errors():
    with pytest.raises(ValueError, match="delta"):
        nn.Range(1, 5, 0)
    with pytest.raises(ValueError, match="central_fraction"):
        nn.CentralCrop(1.5)
    with pytest.raises(ValueError, match="pad_mode"):
        nn.MaxPool3d(pad_mode="full")
    with pytest.raises(ValueError, match="4-D"):
        nn.LRN()(ms.Tensor(np.ones((2, 3), np.float32)))
    with pytest.raises(ValueError, match="same length"):
        nn.Roll((1, 2), 0)
    with pytest.raises(ValueError, match="scale"):
        nn.L1Regularizer(-1.0)
    assert nn.L1LossExt is ms.mint.nn.L1Loss and nn.HShrink is ms.mint.nn.Hardshrink
    assert nn.Range(3)().dtype == mstype.int32
