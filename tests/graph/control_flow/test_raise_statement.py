"""``raise`` in compiled code words its text as MindSpore 2.10's graph compiler does (recorded on CPU)."""
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn
from sporax.state import EagerFallbackWarning


@ms.jit
def too_long(x):
    if x.shape[0] > 10:
        raise ValueError("x too long")
    return x * 2


@ms.jit
def too_long_with_count(x):
    if x.shape[0] > 10:
        raise ValueError("x too long", x.shape[0])
    return x


@ms.jit
def number_argument(x):
    if x.shape[0] > 1:
        raise ValueError(5)
    return x


@ms.jit
def no_argument(x):
    if x.shape[0] > 1:
        raise ValueError
    return x


@ms.jit
def apostrophe(x):
    if x.shape[0] > 1:
        raise TypeError("it's %d" % 3)
    return x


@ms.jit
def on_a_value(x):
    if x.sum() > 10:
        raise ValueError("too big")
    return x


class Limited(nn.Cell):
    def construct(self, x):
        if x.shape[0] > 1:
            raise ValueError("cell msg")
        return x


def _first_line(function, argument, error=ValueError):
    with pytest.raises(error) as caught:
        function(argument)
    return str(caught.value).splitlines()[0] if str(caught.value) else ""


@pytest.mark.parametrize("function, error, first_line", [
    (too_long, ValueError, "'x too long'"),  # one text: within single quotes
    (too_long_with_count, ValueError, "('x too long', 11)"),  # several: Python's tuple
    (number_argument, ValueError, "5"),
    (no_argument, ValueError, ""),
    (apostrophe, TypeError, "'it's 3'"),  # quoted as is, not repr
])
def test_a_constant_raise_in_jit_reads_as_mindspore_words_it(function, error, first_line):
    assert _first_line(function, Tensor(np.ones(11)), error) == first_line
    assert function(Tensor(np.ones(1))).shape == (1,)  # the branch not taken raises nothing


def test_a_raise_on_a_tensor_value_keeps_its_text():
    # MindSpore raises it when the graph runs, unquoted; sporax runs the function eagerly for it
    with pytest.warns(EagerFallbackWarning):
        assert _first_line(on_a_value, Tensor(np.ones(11))) == "too big"


def test_pynative_graph_difference_raise_text_quoted_only_in_graph_mode():
    ms.set_context(mode=ms.PYNATIVE_MODE)
    assert _first_line(Limited(), Tensor(np.ones(3))) == "cell msg"
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        assert _first_line(Limited(), Tensor(np.ones(3))) == "'cell msg'"
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
