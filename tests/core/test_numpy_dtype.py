"""``mindspore.common.np_dtype``: the NumPy bfloat16 type (values recorded from MindSpore 2.10)."""
import numpy as np
import pytest

import sporax as ms
from sporax.core.numpy_dtype import bfloat16, np_dtype_valid


def test_bfloat16_rounds_like_mindspore():
    # MindSpore 2.10: np.array([1.5, 2.7, -3.14159], dtype=np_dtype.bfloat16) -> [1.5, 2.703125, -3.140625]
    values = np.array([1.5, 2.7, -3.14159], dtype=bfloat16)
    assert values.itemsize == 2 and values.dtype.name == "bfloat16"
    assert values.astype(np.float32).tolist() == [1.5, 2.703125, -3.140625]


def test_tensor_round_trips_the_numpy_type():
    # MindSpore 2.10: Tensor(bf16 array).dtype is BFloat16 and asnumpy() gives the same NumPy type back
    tensor = ms.Tensor(np.array([1.5, 2.7], dtype=bfloat16))
    assert tensor.dtype == ms.bfloat16
    assert tensor.asnumpy().dtype == bfloat16
    assert ms.Tensor([1.5], ms.bfloat16).asnumpy().dtype == bfloat16


def test_np_dtype_valid():
    # MindSpore 2.10: True for True, False, 1 and None; a str is a TypeError
    assert np_dtype_valid(True) is True and np_dtype_valid(False) is True
    assert np_dtype_valid(1) is True and np_dtype_valid(None) is True
    with pytest.raises(TypeError, match="np_dtype_valid"):
        np_dtype_valid("x")


def test_served_under_the_mindspore_path():
    from sporax.compat.table import ALIASES
    assert ALIASES["mindspore.common.np_dtype"] == "sporax.core.numpy_dtype"
