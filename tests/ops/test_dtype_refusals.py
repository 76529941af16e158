"""Differences a differential sweep of the op table's ``ops``, ``mint`` and Tensor faces against MindSpore 2.10
found: dtypes its Primitive checks refuse (sporax computed them in Float32), inverse trigonometric functions of Int
and Bool Tensors (no kernel takes them; sporax computed them in Float32), Lerp's dtypes, and masked_select of 0-d
operands.

The messages' first lines and the values were recorded on MindSpore 2.10 CPU.
"""
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, mint, ops

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
    ("logcumsumexp", (0,), np.int32, "For primitive[CumulativeLogsumexp], the input argument[x] must be a type of "
                                     f"{FLOATS}, but got Tensor[Int32]."),
    ("logcumsumexp", (0,), np.bool_, "For primitive[CumulativeLogsumexp], the input argument[x] must be a type of "
                                     f"{FLOATS}, but got Tensor[Bool]."),
    ("median", (), np.float16, "For primitive[Median], the input argument[x] must be a type of {Tensor[Float32], "
                               "Tensor[Float64], Tensor[Int16], Tensor[Int32], Tensor[Int64]}, but got Tensor[Float16]."),
    ("median", (), np.int8, "For primitive[Median], the input argument[x] must be a type of {Tensor[Float32], "
                            "Tensor[Float64], Tensor[Int16], Tensor[Int32], Tensor[Int64]}, but got Tensor[Int8]."),
]


@pytest.mark.parametrize("name, dtype, first_line", [
    ("ger", np.int32, f"For primitive[Ger], the input argument[x1] must be a type of {FLOATS}, but got Tensor[Int32]."),
    ("ger", np.bool_, f"For primitive[Ger], the input argument[x1] must be a type of {FLOATS}, but got Tensor[Bool]."),
    ("nextafter", np.float16, "For primitive[NextAfter], the input argument[x1] must be a type of {Tensor[Float32], "
                              "Tensor[Float64]}, but got Tensor[Float16]."),
    ("igamma", np.float16, "For primitive[Igamma], the input argument[a] must be a type of {Tensor[Float32], "
                           "Tensor[Float64]}, but got Tensor[Float16]."),
    ("igammac", np.int32, "For primitive[Igammac], the input argument[a] must be a type of {Tensor[Float32], "
                          "Tensor[Float64]}, but got Tensor[Int32]."),
], ids=["ger-int32", "ger-bool", "nextafter-float16", "igamma-float16", "igammac-int32"])
def test_two_operand_dtypes_refused_like_mindspore(name, dtype, first_line):
    # recorded on MindSpore 2.10 CPU, ops.<name>(x, x) and x.<name>(x) alike
    x = Tensor(np.array([1, 2, 3]).astype(dtype))
    for call in (lambda: getattr(ops, name)(x, x), lambda: getattr(x, name)(x)):
        with pytest.raises(TypeError) as caught:
            call()
        assert str(caught.value).split("\n")[0] == first_line


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
    result = ops.logcumsumexp(Tensor(np.array([3, 1, 2], np.float16)), 0)
    assert str(result.dtype) == "Float16"
    np.testing.assert_allclose(result.asnumpy(), [3.0, 3.127, 3.408], rtol=2e-3)
    result = ops.ger(Tensor(np.array([3, 1, 2], np.float16)), Tensor(np.array([3, 1, 2], np.float16)))
    assert str(result.dtype) == "Float16" and result.asnumpy()[0].tolist() == [9.0, 3.0, 6.0]


def test_masked_select_of_0d_operands_is_1d():
    # recorded on MindSpore 2.10 CPU: Float32 (1,) [1.5], Float32 (0,) [], Float32 (1,) [1.5]
    x = Tensor(np.array(1.5, np.float32))
    for mask, expected in ((np.array(True), [1.5]), (np.array(False), []), (np.array([True, False]), [1.5])):
        result = ops.masked_select(x, Tensor(mask))
        assert str(result.dtype) == "Float32" and result.shape == (len(expected),)
        np.testing.assert_array_equal(result.asnumpy(), np.array(expected, np.float32))


# (op, its CPU kernel, dtype): MindSpore 2.10 raises TypeError "Select CPU operator[<kernel>] fail! Unsupported data
# type!" from ops.<op>(x) and x.<op>() alike (mint's Ext kernels are not registered on CPU)
NO_INTEGER_KERNEL = [("asin", "Asin", np.int32), ("asin", "Asin", np.bool_), ("acos", "ACos", np.int64),
                     ("atan", "Atan", np.uint8), ("asinh", "Asinh", np.int8), ("acosh", "Acosh", np.int32),
                     ("atanh", "Atanh", np.int64), ("arcsin", "Asin", np.int32), ("arctanh", "Atanh", np.bool_)]


@pytest.mark.parametrize("name, kernel, dtype", NO_INTEGER_KERNEL,
                         ids=[f"{case[0]}-{case[2].__name__}" for case in NO_INTEGER_KERNEL])
def test_inverse_trigonometry_of_integers_refused(name, kernel, dtype):
    x = Tensor(np.array([0, 1, 1]).astype(dtype))
    calls = [lambda: getattr(ops, name)(x), lambda: getattr(x, name)()]
    if hasattr(mint, name):
        calls.append(lambda: getattr(mint, name)(x))
    for call in calls:
        with pytest.raises(TypeError) as caught:
            call()
        lines = str(caught.value).split("\n")
        assert lines[0].startswith(f"Select CPU operator[{kernel}] fail! Unsupported data type!")
        assert f"'{name.replace('arctanh', 'atanh')}'" in lines[1]  # then sporax's line naming the op (arctanh: atanh)


LERP_START = "For primitive[Lerp], the input[start] supports types: Float16, Float32, BFloat16. But got "


@pytest.mark.parametrize("start, end, weight, first_line", [
    # recorded on MindSpore 2.10 CPU (ops.lerp, ops.Lerp()(...), x.lerp, mint.lerp alike)
    (np.float64, np.float64, 0.5, LERP_START + "Float64."),
    (np.int32, np.int32, 0.5, LERP_START + "Int32."),
    (np.float32, np.int32, np.float32, LERP_START + "Int32."),
    (np.float16, np.float32, 0.5, "For primitive[Lerp], the input[tensors] elements should have same type, but got: "
                                  "Float16, Float32."),
], ids=["float64", "int32", "float32-int32", "float16-float32"])
def test_lerp_dtypes_refused(start, end, weight, first_line):
    x, y = Tensor(np.array([1, 2]).astype(start)), Tensor(np.array([4, 5]).astype(end))
    w = Tensor(np.array([0.5, 0.5]).astype(weight)) if isinstance(weight, type) else weight
    for call in (ops.lerp, ops.Lerp(), mint.lerp, lambda a, b, c: a.lerp(b, c), ms.jit(ops.lerp)):
        with pytest.raises(TypeError) as caught:
            call(x, y, w)
        assert str(caught.value).split("\n")[0] == first_line


def test_lerp_weight_of_another_float_dtype_and_gradient():
    # recorded on MindSpore 2.10 CPU: a Float16 or Float64 weight beside Float32 ends gives Float32
    x, y = Tensor(np.array([1.0, 2.0], np.float32)), Tensor(np.array([4.0, 6.0], np.float32))
    for weight in (Tensor(np.array([0.5, 0.25], np.float16)), Tensor(np.array([0.5, 0.25]))):
        result = ops.lerp(x, y, weight)
        assert str(result.dtype) == "Float32"
        np.testing.assert_allclose(result.asnumpy(), [2.5, 3.0])
    assert str(ops.lerp(x.astype(ms.float16), y.astype(ms.float16), 0.5).dtype) == "Float16"
    # Float32 gradients (the op table's finite-difference check runs in Float64, which Lerp refuses):
    # d/dinput = 1 - weight, d/dend = weight, d/dweight = end - input
    weight = Tensor(np.array([0.5, 0.25], np.float32))
    gradients = ms.grad(lambda a, b, c: ops.lerp(a, b, c).sum(), grad_position=(0, 1, 2))(x, y, weight)
    for gradient, expected in zip(gradients, ([0.5, 0.75], [0.5, 0.25], [3.0, 4.0])):
        np.testing.assert_allclose(gradient.asnumpy(), expected)


def test_approximate_equal_refuses_integers_but_its_tensor_method_computes():
    # recorded on MindSpore 2.10 CPU: ops.approximate_equal and ops.ApproximateEqual refuse Int32 and Bool (its type
    # check); x.approximate_equal(y) of Int32 gives [True, True, True]
    x = Tensor(np.array([3, 1, 2], np.int32))
    for operand, got in ((x, "Int32"), (x > 1, "Bool")):
        for call in (ops.approximate_equal, ops.ApproximateEqual()):
            with pytest.raises(TypeError) as caught:
                call(operand, operand)
            assert str(caught.value).split("\n")[0] == (
                "For primitive[ApproximateEqual], the input argument[x1] must be a type of {Tensor[Float16], "
                f"Tensor[Float32], Tensor[Float64]}}, but got Tensor[{got}].")
    assert x.approximate_equal(x).asnumpy().tolist() == [True, True, True]


@pytest.mark.parametrize("dtype, got", [(np.int32, "Int32"), (np.bool_, "Bool")])
def test_polygamma_refuses_integer_input(dtype, got):
    # recorded on MindSpore 2.10 CPU
    with pytest.raises(TypeError) as caught:
        ops.polygamma(Tensor(1), Tensor(np.array([3, 1, 2]).astype(dtype)))
    assert str(caught.value).split("\n")[0] == ("For primitive[Polygamma], the input argument[x] must be a type of "
                                                f"{FLOATS}, but got Tensor[{got}].")
