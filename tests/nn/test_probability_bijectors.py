"""nn.probability.bijector against MindSpore 2.10 (oracle: tests/fixtures/nn/probability_distributions_mindspore.json,
"bijector" entries, recorded by record_probability_distributions.py); log jacobians against finite differences."""
import json
import os

import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, ops
from sporax.nn.probability import bijector as msb

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "fixtures", "nn", "probability_distributions_mindspore.json")
with open(FIXTURE) as handle:
    RECORDED = json.load(handle)["bijector"]

BIJECTORS = {"Exp": lambda: msb.Exp(), "PowerTransform": lambda: msb.PowerTransform(0.5),
             "PowerTransform0": lambda: msb.PowerTransform(0.0), "ScalarAffine": lambda: msb.ScalarAffine(2.0, 1.0),
             "Softplus": lambda: msb.Softplus(2.0), "GumbelCDF": lambda: msb.GumbelCDF(0.5, 2.0),
             "Invert": lambda: msb.Invert(msb.ScalarAffine(2.0, 1.0)), "InvertExp": lambda: msb.Invert(msb.Exp())}
X = [0.5, 1.0, 2.0]


def inputs(key):
    """The points MindSpore was given: x for forward, y (in (0, 1) for GumbelCDF) for inverse."""
    return np.float32(X), np.float32([0.3, 0.5, 0.9] if key == "GumbelCDF" else [0.3, 1.0, 4.0])


@pytest.mark.parametrize("key", sorted(BIJECTORS))
def test_bijector_matches_mindspore(key):
    bijector, recorded = BIJECTORS[key](), RECORDED[key]
    x, y = inputs(key)
    for method, value in (("forward", x), ("inverse", y), ("forward_log_jacobian", x), ("inverse_log_jacobian", y)):
        out = getattr(bijector, method)(Tensor(value))
        # MindSpore's CPU exp/log are polynomial approximations (a few ulp); Softplus's inverse near 0 cancels.
        np.testing.assert_allclose(out.asnumpy(), recorded[method][0], rtol=2e-5, atol=2e-6, err_msg=method)
        assert [str(out.dtype), list(out.shape)] == recorded[method][1:], method
    np.testing.assert_allclose(bijector("forward", Tensor(x)).asnumpy(), recorded["construct"][0], rtol=2e-5)
    assert [bijector.name, bijector.is_constant_jacobian, bijector.is_injective] == \
        [recorded["name"], recorded["is_constant_jacobian"], recorded["is_injective"]]
    if "\n" not in recorded["repr"] or key.startswith("Invert"):  # MindSpore's Softplus also prints a LogSigmoid
        assert repr(bijector) == recorded["repr"]
    with pytest.raises(ValueError, match="invalid name"):
        bijector(Tensor(x))  # MindSpore 2.10: Exception('Invalid name'): construct takes a method name first


@pytest.mark.parametrize("key", ["Exp", "PowerTransform", "Softplus", "GumbelCDF"])
def test_log_jacobians_match_finite_differences_and_invert(key):
    bijector = BIJECTORS[key]()
    x, _ = inputs(key)
    step = 1e-2
    slope = (bijector.forward(Tensor(np.float64(x) + step)).asnumpy()
             - bijector.forward(Tensor(np.float64(x) - step)).asnumpy()) / (2 * step)
    np.testing.assert_allclose(bijector.forward_log_jacobian(Tensor(x)).asnumpy(), np.log(slope), rtol=1e-3,
                               atol=1e-3)
    y = bijector.forward(Tensor(x))
    np.testing.assert_allclose(bijector.inverse(y).asnumpy(), x, rtol=1e-5)
    np.testing.assert_allclose(bijector.inverse_log_jacobian(y).asnumpy(),
                               -bijector.forward_log_jacobian(Tensor(x)).asnumpy(), rtol=1e-4, atol=1e-5)
    gradient = ms.grad(lambda value: ops.sum(bijector.forward(value)))(Tensor(x)).asnumpy()
    np.testing.assert_allclose(np.log(gradient), bijector.forward_log_jacobian(Tensor(x)).asnumpy(), rtol=1e-5,
                               atol=1e-6)


def test_bijector_errors_and_dtypes_match_mindspore():
    recorded = RECORDED["errors"]
    cases = {"softplus_str": lambda: msb.Softplus("a"), "invert_notbij": lambda: msb.Invert(3),
             "forward_list": lambda: msb.Exp().forward([1.0]), "gumbel_neg": lambda: msb.GumbelCDF(0.0, -1.0),
             "exp_int": lambda: msb.Exp().forward(Tensor(np.int32([1])))}
    for key, call in cases.items():
        kind, message = recorded[key][1:]
        with pytest.raises({"TypeError": TypeError, "ValueError": ValueError}[kind]) as raised:
            call()
        assert str(raised.value) == message, key
    assert repr(msb.ScalarAffine(Tensor(np.float32(2.0)))) == recorded["scalar_affine_tensor"][1]
    broadcast = msb.ScalarAffine([2.0, 3.0], 1.0).forward(Tensor(np.float32([[1.0], [2.0]])))
    np.testing.assert_allclose(broadcast.asnumpy(), recorded["affine_list"][0])
    np.testing.assert_allclose(msb.ScalarAffine(0.0).inverse(Tensor(np.float32(X))).asnumpy(),
                               [np.inf] * 3)  # MindSpore divides by the zero scale too
    half = msb.Softplus(2.0).forward(Tensor(np.float16([0.5])))
    assert [half.asnumpy().tolist(), str(half.dtype)] == recorded["softplus_f16"][:2]
    assert ms.nn.probability.bijector is msb  # mindspore.nn.probability is an attribute of mindspore.nn
