"""Lambdas are converted like functions (sporax.graph.control_flow.convert): the calls in their body reach
user functions with tensor control flow, which then compile."""
import warnings

import numpy as np
import pytest

import sporax as ms
from sporax import Tensor
from sporax.state import EagerFallbackWarning


def clipped_double(x):
    if x.sum() > 0:
        return x * 2
    return x * 0


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_jit_of_a_lambda_compiles_the_functions_it_calls(sign):
    x = np.array([0.5, 1.5], np.float32) * sign
    with warnings.catch_warnings():
        warnings.simplefilter("error", EagerFallbackWarning)
        out = ms.jit(lambda a: clipped_double(a) + 1)(Tensor(x))
    np.testing.assert_allclose(out.asnumpy(), (x * 2 if sign > 0 else x * 0) + 1)


def test_two_lambdas_on_one_line_with_the_same_parameters_fall_back_with_a_warning():
    first, second = (lambda a: clipped_double(a) + 1), (lambda a: clipped_double(a) - 1)  # noqa: E731
    x = np.array([0.5, 1.5], np.float32)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = ms.jit(second)(Tensor(x))
    assert any(issubclass(w.category, EagerFallbackWarning) for w in caught)
    np.testing.assert_allclose(out.asnumpy(), x * 2 - 1)
    assert first is not second
