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


@ms.jit
def _noted_true(x):
    if x == 2:  # @jit.cond: True
        return 1
    return 0


@ms.jit
def _noted_false(x):
    if x == 2:  # @jit.cond: False
        return 1
    return 0


def test_jit_cond_comment_fixes_the_condition():
    # MindSpore 2.10: the comment's value is the condition, the test is not evaluated: 1 0 1
    assert _noted_true(ms.Tensor(2)) == 1
    assert _noted_false(ms.Tensor(2)) == 0
    assert _noted_true(ms.Tensor(3)) == 1
