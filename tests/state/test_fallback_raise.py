"""A user's exception whose message formats a value being compiled (``raise ValueError(f"{x}")`` under a
shape test): MindSpore 2.10 raises it when the graph runs, with the values; sporax reruns the call eagerly so
the message holds them too (state.fallback.is_untraceable)."""
import warnings

import numpy as np
import pytest

import sporax as ms
from sporax import Tensor
from sporax.state import EagerFallbackWarning


@ms.jit
def _check(x):
    if x.shape[0] > 3:
        raise ValueError(f"Wrong shape, {x}.")
    return x * 2


def test_a_raise_formatting_a_compiled_value_shows_the_values():
    # MindSpore 2.10: ValueError 'Wrong shape, [1. 2. 3. 4.].'; a 2-element input gives [2. 4.].
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", EagerFallbackWarning)
        with pytest.raises(ValueError) as error:
            _check(Tensor(np.array([1.0, 2.0, 3.0, 4.0], np.float32)))
    assert str(error.value) == "Wrong shape, [1. 2. 3. 4.]."
    np.testing.assert_array_equal(_check(Tensor(np.array([1.0, 2.0], np.float32))).asnumpy(), [2.0, 4.0])
