"""TruncateMod / TruncateDiv reject Bool tensors with TypeError, as MindSpore 2.10 does
(tests/fixtures/msst2/record_truncate_bool.py); numbers still truncate toward zero (NumPy's fmod/trunc)."""
import numpy as np
import pytest

from sporax import Tensor, ops
from sporax.ops.operations import TruncateDiv, TruncateMod


@pytest.mark.parametrize("op", [TruncateMod(), TruncateDiv(), ops.truncate_div, ops.truncate_mod])
def test_bool_inputs_raise_type_error(op):
    with pytest.raises(TypeError, match="Bool"):
        op(Tensor([True, False]), Tensor([True]))


@pytest.mark.parametrize("x, y", [([7, -7, 5], [2, 2, -3]), ([7.5, -7.5, 1.0], [2.0, 2.0, -0.75])])
def test_numbers_truncate_toward_zero(x, y):
    # Int32: MindSpore 2.10's TruncateMod refuses Int64 (tests/ops/test_common_dtype_refusals.py)
    a, b = (np.array(v, np.int32 if isinstance(v[0], int) else np.float64) for v in (x, y))
    np.testing.assert_allclose(TruncateMod()(Tensor(a), Tensor(b)).asnumpy(), np.fmod(a, b))
    np.testing.assert_allclose(TruncateDiv()(Tensor(a), Tensor(b)).asnumpy(), np.trunc(a / b))


def test_bool_beside_a_number_promotes():
    # MindSpore 2.10's own test: TruncateMod()(int32 [1, 4, -7], Bool [True]) runs (as int32)
    out = TruncateMod()(Tensor(np.array([1, 4, -7], np.int32)), Tensor(np.array([True])))
    np.testing.assert_array_equal(out.asnumpy(), np.fmod(np.array([1, 4, -7]), 1))
