"""The PyNative executor handle as libraries drive it (mindformers' generate loop)."""
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn
from sporax.graph.pynative_executor import _pynative_executor


class _Scale(nn.Cell):
    def construct(self, x):
        return x * 2 + 1


def test_set_async_for_graph_brackets_a_compiled_step():
    # mindformers' TextGenerator.postprocess: set_async_for_graph(True), run/read, sync(), then False.
    # MindSpore 2.10 returns None from both calls and the step's values are unchanged.
    net = ms.jit(_Scale().construct)
    x = np.array([[1.0, -2.0], [0.5, 3.0]], np.float32)
    assert _pynative_executor.set_async_for_graph(True) is None
    out = net(Tensor(x)).asnumpy()
    _pynative_executor.sync()
    assert _pynative_executor.set_async_for_graph(False) is None
    np.testing.assert_allclose(out, x * 2 + 1)
    assert _pynative_executor.set_async_for_graph() is None  # flag defaults to False


def test_set_async_for_graph_rejects_non_bool():
    # MindSpore 2.10 raises TypeError (its pybind signature takes flag: bool).
    with pytest.raises(TypeError, match="set_async_for_graph.*flag.*bool.*str"):
        _pynative_executor.set_async_for_graph("x")
