"""SinkLoop: N steps in one lax.scan give the same result as N separate steps."""
import numpy as np

from sporax.core.parameter import Parameter
from sporax.graph import SinkLoop
from sporax.nn.cell import Cell
from tests.state.helpers import add, assign, mul, tensor, total, wrap


class Accumulate(Cell):
    """A stateful step: weight += mean(x); returns sum(x * weight)."""

    def __init__(self):
        super().__init__()
        self.weight = Parameter(tensor([1.0, 1.0]), name="weight")

    def construct(self, x, scale):
        out = total(mul(x, self.weight))
        assign(self.weight, add(self.weight, wrap(x._value.mean(axis=0) * scale)))
        return out


def test_sink_matches_step_by_step():
    block = np.arange(12, dtype=np.float32).reshape(3, 2, 2)
    stepwise = Accumulate()
    expected = [float(stepwise(tensor(block[i]), 0.5).asnumpy()) for i in range(3)]
    sunk = Accumulate()
    losses = SinkLoop(sunk)(tensor(block), 0.5)
    assert losses.shape == (3,)
    np.testing.assert_allclose(losses.asnumpy(), expected, rtol=1e-6)
    np.testing.assert_allclose(sunk.weight.asnumpy(), stepwise.weight.asnumpy(), rtol=1e-6)
    losses = SinkLoop(sunk)(tensor(block), 0.5)
    assert losses.shape == (3,)
