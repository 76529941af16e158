"""A Cell whose construct calls a nested function recursively under a branch on a tensor value runs in GRAPH
mode (sporax.state.fallback: tracing would take both branches at every depth, so it runs eagerly); its MINDIR
export is refused with a clear error. Values recorded from MindSpore 2.10 (GRAPH mode, CPU)."""
import warnings

import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn

ZERO = Tensor([0.0])
ONE = Tensor([1.0])


class Recursive(nn.Cell):
    def construct(self, x, z):
        def f(x, z):
            y = ZERO
            if x < 0:
                y = ONE
            elif x < 3:
                y = x * f(x - 1, z)
            else:
                y = f(x - 4, z)
            return y + 1 + z

        return f(x, z)


def test_tensor_dependent_recursion_runs_in_graph_mode(tmp_path):
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        net = Recursive()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            np.testing.assert_allclose(net(Tensor([1.0]), Tensor([2.0])).asnumpy(), [6.0])  # MindSpore 2.10: [6.]
            np.testing.assert_allclose(net(Tensor([6.0]), Tensor([2.0])).asnumpy(), [18.0])  # MindSpore 2.10: [18.]
            with pytest.raises(NotImplementedError, match="recursively"):
                ms.export(net, Tensor([1.0]), Tensor([2.0]), file_name=str(tmp_path / "recursive"),
                          file_format="MINDIR")
        assert not list(tmp_path.iterdir())  # no partial file left behind
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
