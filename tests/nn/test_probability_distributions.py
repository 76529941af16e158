"""nn.probability.distribution (Exponential ... Categorical, TransformedDistribution) against MindSpore 2.10
(oracle: tests/fixtures/nn/probability_distributions_mindspore.json, recorded by record_probability_distributions.py
from the cases in probability_specs.py); sample statistics against the closed forms; gradients of log_prob against
finite differences; GRAPH_MODE against PyNative."""
import json
import os

import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn, ops
from sporax.nn.probability import bijector as msb
from sporax.nn.probability import distribution as msd
from tests.fixtures.nn.probability_specs import INTEGER_SAMPLES, MOMENTS, VALUE_METHODS, distribution_specs

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "fixtures", "nn", "probability_distributions_mindspore.json")
with open(FIXTURE) as handle:
    RECORDED = json.load(handle)


def tensor(values, dtype=ms.float32):
    return Tensor(np.asarray(values), dtype)


SPECS = distribution_specs(tensor, ms.int32)
# MindSpore's CPU lbeta and its categorical KL are ~5e-5 off the float64 value (sporax is closer); the rest holds
# to float32 rounding (MindSpore's CPU exp and log are polynomial approximations: a few ulp, up to 5e-6).
LOOSE = {("Beta", "log_prob_args"), ("Beta", "prob_args"), ("Categorical", "kl"), ("Categorical", "cross")}


def make(name):
    ctor = SPECS[name][0]
    return getattr(msd, name)(*ctor, dtype=ms.int32 if name in INTEGER_SAMPLES else ms.float32)


def check(recorded, call, label):
    """``call()`` gives what MindSpore recorded: [values, dtype, shape], or ["error", type, message]."""
    if recorded[0] == "error":
        with pytest.raises((TypeError, ValueError, NotImplementedError, RuntimeError)) as raised:
            call()
        assert type(raised.value).__name__ == recorded[1], label
        if recorded[1] != "ValueError" or not recorded[2].startswith("For '"):  # not a broadcast failure text
            assert str(raised.value) == recorded[2], label
        return
    out = call()
    expected = np.array([np.nan if v is None else v for v in np.ravel(recorded[0])], np.float64).reshape(recorded[2])
    rtol, atol = (1e-4, 2e-5) if label in LOOSE else (5e-6, 1e-7)
    np.testing.assert_allclose(out.asnumpy(), expected, rtol=rtol, atol=atol, err_msg=str(label))
    assert [str(out.dtype), list(out.shape)] == recorded[1:], label


@pytest.mark.parametrize("name", sorted(SPECS))
def test_distribution_matches_mindspore(name):
    _, given, value, other = SPECS[name]
    recorded, distribution = RECORDED[name], make(name)
    for method in VALUE_METHODS:
        check(recorded[method], lambda: getattr(distribution, method)(value), (name, method))
        if given is not None:
            check(recorded[method + "_args"], lambda: getattr(distribution, method)(value, *given),
                  (name, method + "_args"))
    for method in MOMENTS:
        check(recorded[method], lambda: getattr(distribution, method)(), (name, method))
        if given is not None:
            check(recorded[method + "_args"], lambda: getattr(distribution, method)(*given), (name, method + "_args"))
    if other:
        check(recorded["kl"], lambda: distribution.kl_loss(name, *other), (name, "kl"))
        check(recorded["cross"], lambda: distribution.cross_entropy(name, *other), (name, "cross"))
        with pytest.raises(ValueError, match=f"Expected dist input is {name}, but got Normal."):
            distribution.kl_loss("Normal", *other)
    if recorded["sample"][0] != "error":  # MindSpore cannot sample Gamma, Beta, Poisson on CPU (sporax: slow tests)
        samples = distribution.sample((2, 3))
        assert [str(samples.dtype), list(samples.shape)] == recorded["sample"]
    if given is not None and recorded["sample_args"][0] != "error":
        samples = distribution.sample((4,), *given)
        assert [str(samples.dtype), list(samples.shape)] == recorded["sample_args"]
    assert str(distribution.batch_shape) == recorded["batch_shape"]
    if "noparam" in recorded:
        empty = getattr(msd, name)(dtype=ms.int32 if name in INTEGER_SAMPLES else ms.float32)
        check(recorded["noparam"], empty.mean, (name, "noparam"))
    if "\n" not in recorded["repr"]:  # MindSpore also prints its helper Cells (DiGamma...), not sporax's
        assert repr(distribution) == recorded["repr"]


def test_construction_errors_and_dtype_rules_match_mindspore():
    recorded = RECORDED["dtype"]
    cases = {
        "exp_f16": lambda: msd.Exponential(0.5, dtype=ms.float16).prob(tensor([1.0])),
        "exp_f16_int_value": lambda: msd.Exponential(0.5, dtype=ms.float16).prob(tensor([1], ms.int32)),
        "exp_f64": lambda: msd.Exponential(0.5, dtype=ms.float64).prob(tensor([1.0])),
        "exp_list": lambda: msd.Exponential([0.5, 1.0]).mean(),
        "exp_numpy_arg": lambda: msd.Exponential(0.5).prob(tensor([1.0]), np.array([1.0], np.float32)),
        "exp_float_arg": lambda: msd.Exponential(0.5).prob(tensor([1.0]), 1.0),
        "exp_value_list": lambda: msd.Exponential(0.5).prob([1.0]),
        "exp_neg_rate": lambda: msd.Exponential(-0.5),
        "uniform_bad": lambda: msd.Uniform(2.0, 1.0),
        "gamma_neg": lambda: msd.Gamma([-1.0], [1.0]),
        "gamma_scalar": lambda: msd.Gamma(1.0, 1.0),
        "beta_scalar": lambda: msd.Beta(1.0, 1.0),
        "beta_neg": lambda: msd.Beta([1.0], [0.0]),
        "poisson_scalar": lambda: msd.Poisson(2.0),
        "poisson_neg": lambda: msd.Poisson([0.0]),
        "geometric_bad": lambda: msd.Geometric(1.5),
        "categorical_bad": lambda: msd.Categorical([0.5, 0.6]),
        "cauchy_neg": lambda: msd.Cauchy(0.0, -1.0),
        "logistic_neg": lambda: msd.Logistic(0.0, 0.0),
        "bad_seed": lambda: msd.Exponential(0.5, seed=-1),
        "bad_name": lambda: msd.Exponential(0.5, name=3),
    }
    for key, call in cases.items():
        check(recorded[key], call, key)
    with pytest.raises(TypeError, match="For 'Exponential', the 'dtype' should be one of"):
        msd.Exponential(0.5, dtype=ms.int32)  # MindSpore also lists its float8 types
    for key, distribution in (("geometric_float", msd.Geometric(0.3, dtype=ms.float32)),
                              ("bern_float", msd.Bernoulli(0.3, dtype=ms.float32))):
        samples = distribution.sample((2,))
        assert [str(samples.dtype), list(samples.shape)] == recorded[key][1:]


SLOW_SAMPLERS = [  # MindSpore cannot sample these on CPU; JAX's gamma and poisson samplers take seconds to compile
    (lambda: msd.Gamma([2.0, 5.0], [1.5, 1.0]), [4 / 3, 5.0], [8 / 9, 5.0]),
    (lambda: msd.Beta([2.0, 0.5], [3.0, 0.5]), [0.4, 0.5], [0.04, 0.125]),
    (lambda: msd.Poisson([2.0, 7.0]), [2.0, 7.0], [2.0, 7.0]),
]
DENSITY_ONLY = {"HalfNormal": ((0.0, 1.0), ([1.0], [0.5, 1.5, 2.0])), "Laplace": ((0.5, 2.0), ([1.0], [0.5, 1.5, 2.0])),
                "StudentT": ((3.0, 0.5, 2.0), ([1.0, 4.0, 30.0], [1.0], [0.5]))}


@pytest.mark.parametrize("name", sorted(DENSITY_ONLY))
def test_density_only_distributions_match_mindspore(name):
    # oracle: tests/fixtures/nn/probability_density_only_mindspore.json (record_probability_density_only.py)
    with open(FIXTURE.replace("distributions_mindspore", "density_only_mindspore")) as handle:
        recorded = json.load(handle)[name]
    ctor, given = DENSITY_ONLY[name]
    distribution, value = getattr(msd, name)(*ctor), tensor([-0.5, 0.5, 2.0])
    for method in ("prob", "log_prob"):
        check(recorded[method], lambda: getattr(distribution, method)(value), (name, method))
        check(recorded[method + "_args"], lambda: getattr(distribution, method)(value, *map(tensor, given)),
              (name, method + "_args"))
    check(recorded["mean"], distribution.mean, (name, "mean"))
    check(recorded["cdf"], lambda: distribution.cdf(value), (name, "cdf"))
    check(recorded["bad_sd"], lambda: getattr(msd, name)(*ctor[:-1], -1.0), (name, "bad_sd"))
    assert repr(distribution) == recorded["repr"]
    if name == "StudentT":
        check(recorded["bad_df"], lambda: msd.StudentT(0.0, 0.5, 2.0), "bad_df")


STATISTICS = [  # (distribution, mean, variance) in closed form
    (lambda: msd.Exponential([0.5, 2.0]), [2.0, 0.5], [4.0, 0.25]),
    (lambda: msd.Uniform([0.0, -1.0], [2.0, 3.0]), [1.0, 1.0], [1 / 3, 16 / 12]),
    (lambda: msd.Geometric([0.3, 0.8]), [7 / 3, 0.25], [70 / 9, 0.3125]),
    (lambda: msd.Gumbel([0.5, -1.0], [2.0, 0.5]), [0.5 + 2 * 0.5772157, -1 + 0.5 * 0.5772157],
     [4 * np.pi ** 2 / 6, 0.25 * np.pi ** 2 / 6]),
    (lambda: msd.Logistic([0.5, 0.0], [2.0, 0.3]), [0.5, 0.0], [4 * np.pi ** 2 / 3, 0.09 * np.pi ** 2 / 3]),
    (lambda: msd.LogNormal([0.3, 0.0], [0.5, 0.2]), [np.exp(0.425), np.exp(0.02)],
     [np.expm1(0.25) * np.exp(0.85), np.expm1(0.04) * np.exp(0.04)]),
    (lambda: msd.Categorical([[0.2, 0.5, 0.3], [0.9, 0.05, 0.05]]), [1.1, 0.15], [0.49, 0.2275]),
]


def check_statistics(make_distribution, mean, variance):
    samples = make_distribution().sample((20000,)).asnumpy().astype(np.float64)
    assert samples.shape == (20000, 2)
    # 20000 draws: the sample mean is within 5 standard errors, the variance within 10%.
    assert np.all(np.abs(samples.mean(0) - mean) <= 5 * np.sqrt(np.asarray(variance) / 20000)), samples.mean(0)
    np.testing.assert_allclose(samples.var(0), variance, rtol=0.1)


@pytest.mark.parametrize("case", range(len(STATISTICS)))
def test_sample_statistics_match_the_closed_forms(case):
    check_statistics(*STATISTICS[case])


@pytest.mark.slow
@pytest.mark.parametrize("case", range(len(SLOW_SAMPLERS)))
def test_gamma_beta_poisson_sample_statistics_match_the_closed_forms(case):
    check_statistics(*SLOW_SAMPLERS[case])


def test_cauchy_samples_follow_its_cdf():
    samples = msd.Cauchy(0.5, 2.0).sample((20000,)).asnumpy()
    # The quartiles of Cauchy(loc, scale) are loc -/+ scale.
    np.testing.assert_allclose(np.percentile(samples, [25, 50, 75]), [-1.5, 0.5, 2.5], atol=0.15)


def test_transformed_distribution_matches_mindspore():
    recorded = RECORDED["Transformed"]
    value = tensor([0.5, 1.0, 3.0])
    for tag, bijector in (("exp", msb.Exp()), ("affine", msb.ScalarAffine(2.0, 1.0))):
        transformed = msd.TransformedDistribution(bijector, msd.Normal(0.0, 1.0))
        for method in VALUE_METHODS:
            check(recorded[tag + method], lambda: getattr(transformed, method)(value), (tag, method))
            check(recorded[tag + method + "_args"],
                  lambda: getattr(transformed, method)(value, tensor([1.0]), tensor([2.0])), (tag, method))
        for method in MOMENTS:
            check(recorded[tag + method], getattr(transformed, method), (tag, method))
        check(recorded[tag + "kl"], lambda: transformed.kl_loss("Normal", tensor(1.0), tensor(2.0)), (tag, "kl"))
        samples = transformed.sample((2, 3))
        assert [str(samples.dtype), list(samples.shape)] == recorded[tag + "sample"]
        assert repr(transformed) == recorded[tag + "repr"]
    check(recorded["nodist"], lambda: msd.TransformedDistribution(msb.Exp(), 3), "nodist")
    check(recorded["nobij"], lambda: msd.TransformedDistribution(3, msd.Normal(0.0, 1.0)), "nobij")
    exp_normal = msd.TransformedDistribution(msb.Exp(), msd.Normal(0.0, 1.0))
    affine_normal = msb.ScalarAffine(2.0, 1.0)(msd.Normal(0.0, 1.0))  # a bijector called on a distribution
    assert [exp_normal.is_linear_transformation, affine_normal.is_linear_transformation,
            str(exp_normal.dtype)] == recorded["props"]
    np.testing.assert_allclose(exp_normal.sample((4000,)).asnumpy().min(), 0.0, atol=0.1)  # exp(x) > 0


@pytest.mark.parametrize("name, parameters, value", [
    ("Gamma", ([2.0, 0.7], [1.5, 3.0]), [0.5, 1.2]),
    ("Beta", ([2.0, 0.8], [3.0, 1.5]), [0.3, 0.6]),
    ("Gumbel", (0.5, 2.0), [-1.0, 3.0]),
    # Elementary closed forms: in the slow run only (each case compiles its own programs).
    pytest.param("LogNormal", (0.3, 0.5), [0.5, 3.0], marks=pytest.mark.slow),
    pytest.param("Cauchy", (0.5, 2.0), [-1.0, 3.0], marks=pytest.mark.slow),
    pytest.param("Logistic", (0.5, 2.0), [-1.0, 3.0], marks=pytest.mark.slow),
])
def test_log_prob_gradients_match_finite_differences(name, parameters, value):
    def log_prob(x):
        return ops.sum(getattr(msd, name)(*parameters).log_prob(x))

    x = np.asarray(value, np.float64)
    analytic = ms.grad(log_prob)(Tensor(x.astype(np.float32))).asnumpy()
    step = 1e-3
    numeric = [(float(log_prob(Tensor((x + step * unit).astype(np.float32))).asnumpy())
                - float(log_prob(Tensor((x - step * unit).astype(np.float32))).asnumpy())) / (2 * step)
               for unit in np.eye(len(x))]
    np.testing.assert_allclose(analytic, numeric, rtol=2e-2, atol=2e-3)


def test_log_prob_gradients_reach_per_call_parameters():
    def log_prob(rate, concentration):
        return ops.sum(msd.Gamma([1.0], [1.0]).log_prob(tensor([0.5, 2.0]), concentration, rate))

    rate, concentration = np.array([1.5, 0.7]), np.array([2.0, 3.0])
    grads = ms.grad(log_prob, grad_position=(0, 1))(tensor(rate), tensor(concentration))
    # d/d rate = c / rate - x; d/d c = log rate + log x - digamma(c).
    from scipy.special import digamma
    x = np.array([0.5, 2.0])
    np.testing.assert_allclose(grads[0].asnumpy(), concentration / rate - x, rtol=1e-5)
    np.testing.assert_allclose(grads[1].asnumpy(), np.log(rate) + np.log(x) - digamma(concentration), rtol=1e-5)


class _Densities(nn.Cell):
    """Distributions used inside construct, with their own and with per-call parameters."""

    def __init__(self):
        super().__init__()
        self.exponential = msd.Exponential([0.5])
        self.categorical = msd.Categorical([0.2, 0.5, 0.3])
        self.lognormal = msd.TransformedDistribution(msb.Exp(), msd.Normal(0.0, 1.0))
        self.gumbel = msd.Gumbel(0.5, 2.0)

    def construct(self, x, rate, index):
        return (self.exponential.log_prob(x), self.exponential.cdf(x, rate),
                self.exponential("kl_loss", "Exponential", rate), self.categorical.prob(index),
                self.lognormal.log_prob(x), self.gumbel.survival_function(x),
                self.exponential.sample((4,), rate).shape)


def test_distributions_inside_a_graph_mode_cell_equal_pynative():
    net, args = _Densities(), (tensor([0.5, 1.0, 3.0]), tensor([1.0, 2.0, 0.5]), tensor([0, 1, 2], ms.int32))
    pynative = net(*args)
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        graph = net(*args)
        # A distribution called at the top level compiles its construct (the method name stays a constant).
        top_level = msd.Exponential([0.5])("cdf", args[0], args[1])
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    # XLA fuses the compiled graph (a few ulp apart from op-by-op PyNative).
    for eager, compiled in zip(pynative[:-1], graph[:-1]):
        np.testing.assert_allclose(compiled.asnumpy(), eager.asnumpy(), rtol=2e-6)
    assert tuple(graph[-1]) == tuple(pynative[-1]) == (4, 3)
    recorded = RECORDED["Exponential"]
    np.testing.assert_allclose(graph[1].asnumpy(), recorded["cdf_args"][0], rtol=5e-6)
    np.testing.assert_allclose(top_level.asnumpy(), recorded["cdf_args"][0], rtol=5e-6)
    np.testing.assert_allclose(graph[3].asnumpy(), RECORDED["Categorical"]["prob"][0], rtol=5e-6)
    np.testing.assert_allclose(graph[4].asnumpy(), RECORDED["Transformed"]["explog_prob"][0], rtol=5e-6)
