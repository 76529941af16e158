"""Differences a differential sweep of the op table's ``ops``, ``mint`` and Tensor faces against MindSpore 2.10
found: dtypes its Primitive checks refuse (sporax computed them in Float32) and masked_select of 0-d operands.

The messages' first lines and the values were recorded on MindSpore 2.10 CPU.
"""
import numpy as np
import pytest

from sporax import Tensor, ops

FLOATS = "{Tensor[Float16], Tensor[Float32], Tensor[Float64]}"
REFUSED = [
    # (op, extra args, dtype, first line of MindSpore 2.10's TypeError)
    ("digamma", (), np.int32, f"For primitive[Digamma], the input argument[input] must be a type of {FLOATS}, "
                              "but got Tensor[Int32]."),
    ("digamma", (), np.bool_, f"For primitive[Digamma], the input argument[input] must be a type of {FLOATS}, "
                              "but got Tensor[Bool]."),
    ("lgamma", (), np.int64, "For primitive[Lgamma], the input argument[x] must be a type of {Tensor[Float16], "
                             "Tensor[Float32], Tensor[Float64], Tensor[Int32]}, but got Tensor[Int64]."),
    ("lgamma", (), np.bool_, "For primitive[Lgamma], the input argument[x] must be a type of {Tensor[Float16], "
                             "Tensor[Float32], Tensor[Float64], Tensor[Int32]}, but got Tensor[Bool]."),
    ("mvlgamma", (1,), np.int32, "For primitive[Mvlgamma], the input argument[x] must be a type of {Tensor[Float32], "
                                 "Tensor[Float64]}, but got Tensor[Int32]."),
    ("mvlgamma", (1,), np.float16, "For primitive[Mvlgamma], the input argument[x] must be a type of "
                                   "{Tensor[Float32], Tensor[Float64]}, but got Tensor[Float16]."),
    ("deg2rad", (), np.int32, "The 'x' should be one of [mindspore.float16, mindspore.float32, mindspore.float64], "
                              "but got 'mindspore.int32'."),
    ("deg2rad", (), np.bool_, "The 'x' should be one of [mindspore.float16, mindspore.float32, mindspore.float64], "
                              "but got 'mindspore.bool'."),
    ("rad2deg", (), np.int64, "The 'x' should be one of [mindspore.float16, mindspore.float32, mindspore.float64], "
                              "but got 'mindspore.int64'."),
]


@pytest.mark.parametrize("name, extra, dtype, first_line", REFUSED,
                         ids=[f"{case[0]}-{case[2].__name__}" for case in REFUSED])
def test_refused_like_mindspore(name, extra, dtype, first_line):
    x = Tensor(np.array([1, 2, 3]).astype(dtype))
    for call in (lambda: getattr(ops, name)(x, *extra), lambda: getattr(x, name)(*extra)):
        with pytest.raises(TypeError) as caught:
            call()
        lines = str(caught.value).split("\n")
        assert lines[0] == first_line
        assert f"'{name}'" in lines[1]  # then sporax's line naming the op and the argument


def test_taken_dtypes_keep_mindspore_results():
    # recorded on MindSpore 2.10 CPU: lgamma of Int32 gives Float32; the others keep their float dtype
    result = ops.lgamma(Tensor(np.array([3, 4], np.int32)))
    assert str(result.dtype) == "Float32"
    np.testing.assert_allclose(result.asnumpy(), [0.6931472, 1.7917595], rtol=1e-6)
    result = ops.digamma(Tensor(np.array([1.5, 2.5], np.float16)))
    assert str(result.dtype) == "Float16"
    np.testing.assert_allclose(result.asnumpy(), [0.0365, 0.703], rtol=2e-3)
    result = ops.deg2rad(Tensor(np.array([1.5, 2.5], np.float16)))
    assert str(result.dtype) == "Float16"
    np.testing.assert_allclose(result.asnumpy(), [0.02618, 0.04364], rtol=2e-3)


def test_masked_select_of_0d_operands_is_1d():
    # recorded on MindSpore 2.10 CPU: Float32 (1,) [1.5], Float32 (0,) [], Float32 (1,) [1.5]
    x = Tensor(np.array(1.5, np.float32))
    for mask, expected in ((np.array(True), [1.5]), (np.array(False), []), (np.array([True, False]), [1.5])):
        result = ops.masked_select(x, Tensor(mask))
        assert str(result.dtype) == "Float32" and result.shape == (len(expected),)
        np.testing.assert_array_equal(result.asnumpy(), np.array(expected, np.float32))
