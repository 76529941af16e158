"""nn.CTCLoss on an unbatched (T, C) sample."""
import numpy as np
import pytest

import sporax as ms
from sporax import nn

# MindSpore 2.10 (CPU): nn.CTCLoss(blank=0, reduction=r) on arange(10).reshape(5, 2), target [1, 1],
# input length 5, target length 2 -> a scalar for every reduction.
RECORDED = {"none": -25.794968, "mean": -12.897484, "sum": -25.794968}


@pytest.mark.parametrize("reduction", sorted(RECORDED))
def test_unbatched_sample_gives_a_scalar(reduction):
    log_probs = ms.Tensor(np.arange(10, dtype=np.float32).reshape(5, 2))
    loss = nn.CTCLoss(blank=0, reduction=reduction)(
        log_probs, ms.Tensor([1, 1], ms.int32), ms.Tensor([5], ms.int32), ms.Tensor([2], ms.int32))
    assert loss.shape == ()
    np.testing.assert_allclose(loss.asnumpy(), RECORDED[reduction], rtol=1e-5)


def test_batched_none_keeps_one_loss_per_sample():
    log_probs = ms.Tensor(np.arange(20, dtype=np.float32).reshape(5, 2, 2))
    loss = nn.CTCLoss(blank=0, reduction="none")(
        log_probs, ms.Tensor([[1, 1], [1, 1]], ms.int32), ms.Tensor([5, 5], ms.int32), ms.Tensor([2, 2], ms.int32))
    # MindSpore 2.10 (CPU), its nn.CTCLoss docstring example with these targets.
    np.testing.assert_allclose(loss.asnumpy(), [-45.794971, -55.794968], rtol=1e-5)
