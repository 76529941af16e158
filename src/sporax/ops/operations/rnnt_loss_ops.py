"""``RNNTLoss``: the RNN-Transducer loss and its gradient with respect to the logits (the ``rnnt_loss`` op-table
entry of ``sporax.ops.functional.transducer``).

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> acts = Tensor(np.zeros((1, 2, 2, 3), np.float32))
    >>> costs, grads = ops.RNNTLoss()(acts, Tensor(np.array([[1]], np.int32)), Tensor(np.array([2], np.int32)), Tensor(np.array([1], np.int32)))
    >>> round(float(costs.asnumpy()[0]), 4)
    2.6027
"""
from sporax.ops._dispatch import array_of
from sporax.ops.functional.transducer import rnnt_loss
from sporax.ops.primitive import Primitive, prim_attr_register


class RNNTLoss(Primitive):
    """``(costs, grads)``: the RNN-Transducer loss per sample and its gradient with respect to ``acts``.

    Args:
        blank_label (int): the blank symbol. Default: 0.

    Inputs:
        - **acts** (Tensor) - (B, T, U+1, V) logits. **labels** (Tensor[int32]) - (B, U).
        - **input_lengths**, **label_lengths** (Tensor[int32]) - (B,).
    """

    @prim_attr_register
    def __init__(self, blank_label=0):
        if isinstance(blank_label, bool) or not isinstance(blank_label, int) or blank_label < 0:
            raise ValueError(f"For 'RNNTLoss', 'blank_label' must be a non-negative int, but got {blank_label!r}.")
        self.blank_label = blank_label

    def __call__(self, acts, labels, input_lengths, label_lengths):
        for name, value in (("acts", acts), ("labels", labels), ("input_lengths", input_lengths),
                            ("label_lengths", label_lengths)):
            array_of("RNNTLoss", name, value)
        return rnnt_loss(acts, labels, input_lengths, label_lengths, self.blank_label)
