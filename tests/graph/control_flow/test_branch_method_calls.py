"""A method named like a container mutator (``ema.update()``) called in a branch on a tensor value.

A training step that updates an EMA Cell only when the gradients are finite (mindyolo's) compiles
in MindSpore 2.10; values recorded there: losses [5, 5, 13] and two counted updates.
"""
import warnings

import numpy as np

import sporax as ms
from sporax import Parameter, Tensor, nn, ops
from sporax.state import EagerFallbackWarning


class Counter(nn.Cell):
    def __init__(self):
        super().__init__()
        self.updates = Parameter(Tensor(np.float32(0)), name="updates", requires_grad=False)

    def update(self):
        ops.assign_add(self.updates, Tensor(np.float32(1)))
        return self.updates


def test_cell_update_method_in_a_tensor_branch_compiles():
    counter = Counter()
    use_counter = True

    @ms.jit
    def step(x):
        loss = (x * x).sum()
        if (x > 0).all():
            if use_counter:
                loss = ops.depend(loss, counter.update())
        return loss

    with warnings.catch_warnings():
        warnings.simplefilter("error", EagerFallbackWarning)
        losses = [float(step(Tensor(np.array(values, np.float32))).asnumpy())
                  for values in ([1.0, 2.0], [-1.0, 2.0], [3.0, 2.0])]
    assert losses == [5.0, 5.0, 13.0]
    assert float(counter.updates.asnumpy()) == 2.0

