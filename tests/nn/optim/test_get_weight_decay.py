"""``Optimizer.get_weight_decay()`` returns what MindSpore 2.10 returns (custom optimizers such as mindformers'
AdamW pass it to a MultitypeFuncGraph registered for Tensors)."""
import numpy as np

from sporax import Tensor, nn


def test_one_tensor_without_groups_a_tuple_with_them():
    net = nn.Dense(2, 2)
    # MindSpore 2.10: weight_decay=0.1, loss_scale=2.0 -> Tensor(0.2, Float32, shape ())
    decay = nn.Optimizer(0.1, net.trainable_params(), weight_decay=0.1, loss_scale=2.0).get_weight_decay()
    assert isinstance(decay, Tensor) and decay.shape == () and np.isclose(decay.asnumpy(), 0.2)
    # MindSpore 2.10 with a group: a tuple of Float32 Tensors, one per parameter.
    grouped = nn.Optimizer(0.1, [{"params": net.trainable_params(), "weight_decay": 0.01}],
                           weight_decay=0.1).get_weight_decay()
    assert isinstance(grouped, tuple) and len(grouped) == 2
    assert all(isinstance(d, Tensor) and np.isclose(d.asnumpy(), 0.01) for d in grouped)
