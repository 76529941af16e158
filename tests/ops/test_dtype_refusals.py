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


def _tensor(values, dtype):
    return Tensor(np.array(values).astype(dtype))


NUMBER_TYPES = ("Tensor[Float16], Tensor[Float32], Tensor[Float64], Tensor[Int16], Tensor[Int32], Tensor[Int64], "
                "Tensor[Int8], Tensor[UInt16], Tensor[UInt32], Tensor[UInt64], Tensor[UInt8]")
SCALED = ("should be one of [mindspore.float16, mindspore.float32, mindspore.float64, mindspore.int16, "
          "mindspore.int32, mindspore.int64], but got 'mindspore.bool'.")
BOOLS, MATRIX = _tensor([True, False, True], np.bool_), _tensor([[True, False], [False, True]], np.bool_)
SECOND_PASS = [
    # (call, first line of MindSpore 2.10's TypeError), each recorded on MindSpore 2.10 CPU in a fresh process
    (lambda: ops.conj(BOOLS), "For primitive[Conj], the input argument[input] must be a type of {Tensor[BFloat16], "
                              f"Tensor[Complex128], Tensor[Complex64], {NUMBER_TYPES}}}, but got Tensor[Bool]."),
    (lambda: BOOLS.conj(), "For primitive[Conj], the input argument[input] must be a type of {Tensor[BFloat16], "
                           f"Tensor[Complex128], Tensor[Complex64], {NUMBER_TYPES}}}, but got Tensor[Bool]."),
    (lambda: ops.trace(MATRIX), "For primitive[Trace], the input argument[x] must be a type of {Tensor[Complex128], "
                                f"Tensor[Complex64], {NUMBER_TYPES}}}, but got Tensor[Bool]."),
    (lambda: ops.trace(MATRIX.astype(ms.bfloat16)), "For primitive[Trace], the input argument[x] must be a type of "
                                                    f"{{Tensor[Complex128], Tensor[Complex64], {NUMBER_TYPES}}}, but "
                                                    "got Tensor[BFloat16]."),
    (lambda: ops.topk(BOOLS, 2), "For primitive[TopK], the input argument[input_x] must be a type of "
                                 f"{{Tensor[BFloat16], {NUMBER_TYPES}}}, but got Tensor[Bool]."),
    (lambda: BOOLS.topk(2), "For primitive[TopK], the input argument[input_x] must be a type of "
                            f"{{Tensor[BFloat16], {NUMBER_TYPES}}}, but got Tensor[Bool]."),
    (lambda: ops.channel_shuffle(Tensor(np.ones((1, 4, 2, 2), np.bool_)), 2),
     f"For primitive[ChannelShuffle], the input argument[x] must be a type of {{{NUMBER_TYPES}}}, but got Tensor[Bool]."),
    (lambda: ops.channel_shuffle(Tensor(np.ones((1, 4, 2, 2), np.float32)).astype(ms.bfloat16), 2),
     f"For primitive[ChannelShuffle], the input argument[x] must be a type of {{{NUMBER_TYPES}}}, but got "
     "Tensor[BFloat16]."),
    (lambda: ops.addmv(BOOLS[:2], Tensor(np.ones((2, 3), np.bool_)), BOOLS), f"For 'Addmv', the 'input' {SCALED}"),
    (lambda: BOOLS[:2].addmv(Tensor(np.ones((2, 3), np.bool_)), BOOLS), f"For 'Addmv', the 'input' {SCALED}"),
    (lambda: ops.addmv(_tensor([1, 1], np.int8), _tensor(np.ones((2, 3)), np.int8), _tensor([1, 1, 1], np.int8)),
     "For 'Addmv', the 'input' " + SCALED.replace("bool", "int8")),
    (lambda: ops.addr(Tensor(np.ones((2, 3), np.bool_)), BOOLS[:2], BOOLS), f"For 'Addr', the 'x' {SCALED}"),
    (lambda: ops.diag_embed(BOOLS), "For 'diag_embed', the dtype of 'input' must be int8, int16, int32, int64, uint8, "
                                    "uint16, uint32, uint64, float16, float32 or float64, but got 'Bool'."),
    (lambda: ops.heaviside(BOOLS, BOOLS), "For primitive[Heaviside], the input argument[values] must be a type of "
                                          "{Float16, Float32, Float64, Int16, Int32, Int64, Int8, Tensor[Float16], "
                                          "Tensor[Float32], Tensor[Float64], Tensor[Int16], Tensor[Int32], "
                                          "Tensor[Int64], Tensor[Int8], Tensor[UInt16], Tensor[UInt32], Tensor[UInt64], "
                                          "Tensor[UInt8], UInt16, UInt32, UInt64, UInt8}, but got Tensor[Bool]."),
    (lambda: ops.heaviside(_tensor([1, 0], np.int32), _tensor([1, 1], np.float32)),
     "For primitive[Heaviside], the input type must be same."),
    (lambda: ops.heaviside(_tensor([1, 0], np.int64), BOOLS[:2]), "For primitive[Heaviside], the input type must be same."),
    (lambda: ops.kl_div(_tensor([1, 2], np.int32), _tensor([1, 2], np.int32)),
     f"For primitive[KLDivLoss], the input argument[x] must be a type of {FLOATS}, but got Tensor[Int32]."),
    (lambda: ops.kl_div(BOOLS, BOOLS),
     f"For primitive[KLDivLoss], the input argument[x] must be a type of {FLOATS}, but got Tensor[Bool]."),
    (lambda: ops.kl_div(_tensor([1, 2], np.float32), _tensor([1, 2], np.int32)),
     "For primitive[KLDivLoss], the input type must be same."),
    (lambda: ops.kl_div(_tensor([1, 2], np.float32), _tensor([1, 2], np.float64)),
     "For primitive[KLDivLoss], the input type must be same."),
    (lambda: ops.cond(_tensor([[1, 2], [3, 4]], np.int32)), "For primitive[MatrixInverse], the input argument[x] must "
                                                            "be a type of {Tensor[Complex128], Tensor[Complex64], "
                                                            "Tensor[Float32], Tensor[Float64]}, but got Tensor[Int32]."),
    (lambda: ops.cond(_tensor([[1, 2], [3, 4]], np.float16), 1),
     "For primitive[MatrixInverse], the input argument[x] must be a type of {Tensor[Complex128], Tensor[Complex64], "
     "Tensor[Float32], Tensor[Float64]}, but got Tensor[Float16]."),
    (lambda: ops.coalesce(_tensor([[0, 0], [1, 1]], np.int64), _tensor([1, 2], np.int32), _tensor([2, 2], np.int64)),
     f"For primitive[Coalesce], the input argument[x_values] must be a type of {FLOATS}, but got Tensor[Int32]."),
    (lambda: ops.linspace(_tensor(1, np.int32), _tensor(5, np.int32), 3), "For primitive[LinSpace], the input "
                                                                          "argument[start type] must be a type of "
                                                                          "{Tensor[Float32], Tensor[Float64]}, but got "
                                                                          "Tensor[Int32]."),
    (lambda: ops.linspace(_tensor(1, np.float16), _tensor(5, np.float16), 3), "For primitive[LinSpace], the input "
                                                                              "argument[start type] must be a type of "
                                                                              "{Tensor[Float32], Tensor[Float64]}, "
                                                                              "but got Tensor[Float16]."),
    (lambda: ops.linspace(_tensor(1, np.int64), 5, 3), "For primitive[LinSpace], the input type must be same."),
    (lambda: ops.linspace(_tensor(1, np.float64), 5.0, 3), "For primitive[LinSpace], the input type must be same."),
    (lambda: ops.linspace(_tensor(1, np.float32), _tensor(5, np.float64), 3),
     "For primitive[LinSpace], the input type must be same."),
    (lambda: ops.addcdiv(_tensor([1, 2], np.int32), _tensor([3, 4], np.int32), _tensor([2, 2], np.int32),
                         _tensor(1, np.int32)),
     "For primitive[Addcdiv], the input argument[input] must be a type of {Tensor[Float16], Tensor[Float32], "
     "Tensor[Float64], Tensor[Int64]}, but got Tensor[Int32]."),
    (lambda: ops.addcdiv(_tensor([1, 2], np.float32), _tensor([3, 4], np.float32), _tensor([2, 2], np.int32), 1),
     "For primitive[Addcdiv], the input argument[tensor2] must be a type of {Tensor[Float16], Tensor[Float32], "
     "Tensor[Float64], Tensor[Int64]}, but got Tensor[Int32]."),
    (lambda: ops.zeta(_tensor([2.0], np.float32), _tensor([1.0], np.float64)),
     "For primitive[Zeta], the input type must be same."),
    (lambda: ops.igamma(_tensor([2.0], np.float32), _tensor([1.0], np.float64)),
     "For primitive[Igamma], the input type must be same."),
    (lambda: ops.igammac(_tensor([2.0], np.float64), _tensor([1.0], np.float32)),
     "For primitive[Igammac], the input type must be same."),
    (lambda: ops.matrix_power(Tensor(np.eye(2, dtype=np.float16)), 2),
     "For primitive[MatrixPower], the input argument[x] must be a type of {Tensor[Float32], Tensor[Float64], "
     "Tensor[Int16], Tensor[Int32], Tensor[Int64], Tensor[Int8], Tensor[UInt8]}, but got Tensor[Float16]."),
    (lambda: ops.matrix_power(Tensor(np.eye(2, dtype=np.bool_)), 2),
     "For primitive[MatrixPower], the input argument[x] must be a type of {Tensor[Float32], Tensor[Float64], "
     "Tensor[Int16], Tensor[Int32], Tensor[Int64], Tensor[Int8], Tensor[UInt8]}, but got Tensor[Bool]."),
    (lambda: ops.cholesky_solve(Tensor(np.eye(2, dtype=np.float16)), Tensor(np.eye(2, dtype=np.float16))),
     "For primitive[CholeskySolve], the input argument[x1] must be a type of {Tensor[Float32], Tensor[Float64]}, "
     "but got Tensor[Float16]."),
]


def test_what_those_type_checks_still_take():
    # recorded on MindSpore 2.10 CPU: Tensor.trace sums a Bool diagonal (Bool) and an Int32 one in Int64; an Int64
    # addcdiv truncates; linspace of a Float32 Tensor and a Python int; a Python number beside zeta's Tensor; cond
    # in the 1-norm
    assert MATRIX.trace().asnumpy().item() is True and str(MATRIX.trace().dtype) == "Bool"
    assert str(_tensor([[1, 2], [3, 4]], np.int32).trace().dtype) == "Int64"
    result = ops.addcdiv(_tensor([1, 2], np.int64), _tensor([3, 4], np.int64), _tensor([2, 2], np.int64),
                         _tensor(1, np.int64))
    assert str(result.dtype) == "Int64" and result.asnumpy().tolist() == [2, 4]
    result = ops.addcdiv(_tensor([1.0, 2.0], np.float32), _tensor([3.0, 4.0], np.float32),
                         _tensor([2.0, 2.0], np.float32), _tensor(1, np.int32))
    assert str(result.dtype) == "Float32" and result.asnumpy().tolist() == [2.5, 4.0]
    result = ops.linspace(_tensor(1.0, np.float32), 5, 3)
    assert str(result.dtype) == "Float32" and result.asnumpy().tolist() == [1.0, 3.0, 5.0]
    np.testing.assert_allclose(ops.cond(_tensor([[1.0, 2.0], [3.0, 4.0]], np.float32), 1).asnumpy(), 21.0, rtol=1e-5)
    assert ops.leaky_relu(_tensor([-3, 2], np.int32), 0.5).asnumpy().tolist() == [0, 2]


ZERO_D = Tensor(np.array(1.5, np.float32))
SORT_0D = "For Sort, the check range left must be smaller than right number but got left: 0 and right: -1."
DOT_RANKS = ("For \\'dot\\', the inputs x1, x2 should have \\'dimension >= 2\\',but got \\'len(x1_shape)\\': ({}) and "
             "\\'len(x2_shape)\\': ({}).")


@pytest.mark.parametrize("call, error, first_line", [
    # 0-d inputs, recorded on MindSpore 2.10 CPU in a fresh process each (sporax raised IndexError,
    # ZeroDivisionError or ValueError here)
    (lambda: ops.matrix_norm(ZERO_D), ValueError, "For norm, the dim is out of range."),
    (lambda: ops.diag_embed(ZERO_D), ValueError, "For 'diag_embed', 'dim1' must be in range of [-1, 0], but got -2."),
    (lambda: ops.swiglu(ZERO_D), ValueError, "For primitive[Swiglu], the dim must be in [0,0), but got -1."),
    (lambda: ops.trace(ZERO_D), RuntimeError, "For Primitive[Trace], the rank of the input must be 2, but got 0!"),
    (lambda: ops.sort(ZERO_D), ValueError, SORT_0D),
    (lambda: ops.argsort(ZERO_D), ValueError, SORT_0D),
    (lambda: ZERO_D.sort(), ValueError, SORT_0D),
    (lambda: ZERO_D.argsort(descending=True), ValueError, SORT_0D),
    (lambda: ops.dot(ZERO_D, ZERO_D), ValueError, DOT_RANKS.format(0, 0)),
    (lambda: ZERO_D.dot(ZERO_D), ValueError, DOT_RANKS.format(0, 0)),
], ids=["matrix_norm", "diag_embed", "swiglu", "trace", "sort", "argsort", "method-sort", "method-argsort", "dot",
        "method-dot"])
def test_zero_d_inputs_raise_as_mindspore(call, error, first_line):
    with pytest.raises(error) as caught:
        call()
    assert str(caught.value).split("\n")[0] == first_line


@pytest.mark.parametrize("inputs, targets, first_line", [
    # recorded on MindSpore 2.10 CPU, a fresh process each
    (_tensor([1, 2], np.int32), _tensor([1, -1], np.int32),
     "For 'HingeEmbeddingLoss', the dtype of the first input must be float, but got Int32."),
    (_tensor([True, False], np.bool_), _tensor([1, -1], np.float32),
     "For 'HingeEmbeddingLoss', the dtype of the first input must be float, but got Bool."),
    (_tensor([1, 2], np.float32), _tensor([1, -1], np.int32),
     "For 'HingeEmbeddingLoss', the dtype of the second input must be float, but got Int32."),
], ids=["int32", "bool", "int32-targets"])
def test_hinge_embedding_loss_takes_floats(inputs, targets, first_line):
    with pytest.raises(TypeError) as caught:
        ops.hinge_embedding_loss(inputs, targets)
    assert str(caught.value).split("\n")[0] == first_line


@pytest.mark.parametrize("dtype, got", [(np.int32, "Int32"), (np.bool_, "Bool")])
def test_mint_leaky_relu_takes_floats_where_ops_scales_integers(dtype, got):
    # recorded on MindSpore 2.10 CPU: mint.nn.functional.leaky_relu runs LeakyReLUExt (floats alone); ops.leaky_relu
    # of Int32 [-3, 2] with 0.5 gives [0, 2]
    x = _tensor([-3, 2], dtype)
    with pytest.raises(TypeError) as caught:
        mint.nn.functional.leaky_relu(x, 0.5)
    assert str(caught.value).split("\n")[0] == ("For primitive[LeakyReLUExt], the input argument[input_x] must be a "
                                                f"type of {{BFloat16, Float16, Float32, Float64}}, but got {got}.")
    assert ops.leaky_relu(_tensor([-3, 2], np.int32), 0.5).asnumpy().tolist() == [0, 2]


@pytest.mark.parametrize("first, second, error, first_line", [
    # recorded on MindSpore 2.10 CPU, a fresh process each: ops.dot takes Float16/Float32 Tensors of one dtype, both
    # at least 2-D (sporax also computes Float64)
    ((3,), (3,), ValueError, DOT_RANKS.format(1, 1)),
    ((2, 3), (3,), ValueError, DOT_RANKS.format(2, 1)),
    ((2, 3), np.float32(1.5), ValueError, DOT_RANKS.format(2, 0)),
    ((2, 3, np.int32), (3, 2, np.int32), TypeError,
     "The 'x1' doesn't support 'Int32' and expect to receive [mindspore.float16, mindspore.float32]."),
    ((2, 3, np.bool_), (3, 2, np.bool_), TypeError,
     "The 'x1' doesn't support 'Bool' and expect to receive [mindspore.float16, mindspore.float32]."),
    ((2, 3), (3, 2, np.int32), TypeError,
     "The 'x2' doesn't support 'Int32' and expect to receive [mindspore.float16, mindspore.float32]."),
    ((3,), (3, np.float16), TypeError,
     "For \\'dot\\', the inputs must be the same type, but got x1_type: Float32 and x2_type: Float16."),
], ids=["vectors", "matrix-vector", "matrix-0d", "int32", "bool", "int32-other", "float32-float16"])
def test_dot_takes_float_matrices(first, second, error, first_line):
    def operand(shape):
        if not isinstance(shape, tuple):
            return Tensor(np.array(shape))
        dtype = shape[-1] if isinstance(shape[-1], type) else np.float32
        return Tensor(np.ones([size for size in shape if not isinstance(size, type)], dtype))

    x, y = operand(first), operand(second)
    for call in (ops.dot, lambda a, b: a.dot(b)):
        with pytest.raises(error) as caught:
            call(x, y)
        assert str(caught.value).split("\n")[0] == first_line


def test_dot_values_and_mint_dot_of_vectors():
    # recorded on MindSpore 2.10 CPU: ops.dot of (2, 3) and (2, 3, 2) Float16 ones is 3.0 in shape (2, 2, 2);
    # mint.dot (Dot; no CPU kernel in MindSpore 2.10) is the dot product of two vectors
    result = ops.dot(Tensor(np.ones((2, 3), np.float16)), Tensor(np.ones((2, 3, 2), np.float16)))
    assert str(result.dtype) == "Float16" and result.shape == (2, 2, 2) and (result.asnumpy() == 3.0).all()
    vector = Tensor(np.array([1.0, 2.0], np.float32))
    assert mint.dot(vector, Tensor(np.array([3.0, 4.0], np.float32))).asnumpy().item() == 11.0
    with pytest.raises(ValueError, match="must be a 1-D tensor"):
        mint.dot(Tensor(np.ones((2, 2), np.float32)), Tensor(np.ones((2, 2), np.float32)))


def test_meshgrid_of_0d_inputs_gives_length_one_axes():
    # recorded on MindSpore 2.10 CPU: a 0-d input is one point
    scalar, vector = Tensor(np.float32(1.5)), Tensor(np.array([1.0, 2.0, 3.0], np.float32))
    for grids, expected in (
            (ops.meshgrid(scalar, Tensor(np.float32(2.5))), ([[1.5]], [[2.5]])),
            (ops.meshgrid(scalar, vector), ([[1.5], [1.5], [1.5]], [[1.0], [2.0], [3.0]])),
            (ops.meshgrid(scalar, vector, indexing="ij"), ([[1.5, 1.5, 1.5]], [[1.0, 2.0, 3.0]])),
            (mint.meshgrid(scalar, vector), ([[1.5, 1.5, 1.5]], [[1.0, 2.0, 3.0]])),
            (ops.meshgrid(scalar), ([1.5],))):
        assert [grid.asnumpy().tolist() for grid in grids] == list(expected)


def test_clip_by_global_norm_gives_0d_tensors_one_axis():
    # recorded on MindSpore 2.10 CPU: Float32 (1,) [0.6] and (1,) [0.8]; a lone 0-d Tensor gives (1,) [1.0]
    clipped = ops.clip_by_global_norm((Tensor(np.float32(3.0)), Tensor(np.array([4.0], np.float32))), 1.0)
    assert [item.shape for item in clipped] == [(1,), (1,)]
    np.testing.assert_allclose([item.asnumpy()[0] for item in clipped], [0.6, 0.8], rtol=1e-6)
    clipped = ops.clip_by_global_norm(Tensor(np.float32(3.0)), 1.0)
    assert clipped.shape == (1,) and clipped.asnumpy().tolist() == [1.0]
    clipped = ops.clip_by_global_norm((Tensor(np.float32(3.0)), Tensor(np.ones((2, 2), np.float32))), 1.0)
    assert clipped[1].shape == (2, 2)
    np.testing.assert_allclose(clipped[0].asnumpy(), [0.8320503], rtol=1e-6)


INTS = _tensor([1, 2], np.int32)
FLOATS32 = _tensor([0.2, 0.7], np.float32)
BCE_INPUT = "For Primitive[BinaryCrossEntorpy], the type of the input must be [Float16, Float32, BFloat16], but got {}!"
BCE_LOGITS = ("For primitive[BCEWithLogitsLoss], the input argument[{}] must be a type of {{BFloat16, Float16, "
              "Float32}}, but got Int32.")
RELU6 = ("For primitive[ReLU6], the input argument[input_x] must be a type of {{Tensor[Float16], Tensor[Float32]}}, "
         "but got Tensor[{}].")
NANMEAN = "For 'nanmean', input should be floating point dtype, but got <class 'mindspore.common.tensor.Tensor'>."
COUNTED = ("The 'input x' doesn't support 'Bool' and expect to receive (mindspore.int8, mindspore.int16, "
           "mindspore.int32, mindspore.int64, mindspore.uint8, mindspore.uint16, mindspore.uint32, mindspore.uint64, "
           "mindspore.float16, "
           "mindspore.float32, mindspore.float64, mindspore.bfloat16, mindspore.complex64, mindspore.complex128, "
           "mindspore.int4, mindspore.float8_e4m3fn, mindspore.float8_e5m2, mindspore.hifloat8).")
LOG_ADD = "For {}, the dtype of 'input' and 'other' must be float,but got {} and {}."
THIRD_PASS = [
    # (call, first line of MindSpore 2.10's TypeError), each recorded on MindSpore 2.10 CPU in a fresh process
    (lambda: ops.binary_cross_entropy(INTS, INTS), BCE_INPUT.format("Int32")),
    (lambda: ops.binary_cross_entropy(BOOLS, BOOLS), BCE_INPUT.format("Bool")),
    (lambda: ops.binary_cross_entropy(INTS, FLOATS32), BCE_INPUT.format("Int32")),
    (lambda: mint.nn.functional.binary_cross_entropy(INTS, INTS), BCE_INPUT.format("Int32")),
    (lambda: ms.nn.BCELoss()(INTS, INTS), BCE_INPUT.format("Int32")),
    (lambda: ops.BinaryCrossEntropy()(INTS, INTS, None), BCE_INPUT.format("Int32")),
    (lambda: ops.binary_cross_entropy(FLOATS32, INTS), "For primitive[BinaryCrossEntorpy], the input and target should "
                                                       "have same type, but got: Float32 and Int32."),
    (lambda: ops.binary_cross_entropy(FLOATS32, FLOATS32.astype(ms.float16)),
     "For primitive[BinaryCrossEntorpy], the input and target should have same type, but got: Float32 and Float16."),
    (lambda: ops.binary_cross_entropy(FLOATS32, FLOATS32, INTS), "For primitive[BinaryCrossEntorpy], the input and "
                                                                 "weight should have same type, but got: Float32 and "
                                                                 "Int32."),
    (lambda: ops.binary_cross_entropy_with_logits(INTS, INTS, INTS, INTS), BCE_LOGITS.format("input")),
    (lambda: ops.binary_cross_entropy_with_logits(FLOATS32, INTS, FLOATS32, FLOATS32), BCE_LOGITS.format("target")),
    (lambda: ops.binary_cross_entropy_with_logits(FLOATS32, FLOATS32, INTS, FLOATS32), BCE_LOGITS.format("weight")),
    (lambda: ops.binary_cross_entropy_with_logits(FLOATS32, FLOATS32, FLOATS32, INTS), BCE_LOGITS.format("pos_weight")),
    (lambda: ms.nn.BCEWithLogitsLoss()(INTS, INTS), BCE_LOGITS.format("input")),
    (lambda: mint.nn.functional.binary_cross_entropy_with_logits(FLOATS32, INTS), BCE_LOGITS.format("target")),
    (lambda: ops.BCEWithLogitsLoss()(INTS, INTS, INTS, INTS), BCE_LOGITS.format("input")),
    (lambda: ops.relu6(INTS), RELU6.format("Int32")),
    (lambda: ops.relu6(BOOLS), RELU6.format("Bool")),
    (lambda: ops.relu6(_tensor([-1, 7], np.int8)), RELU6.format("Int8")),
    (lambda: ops.ReLU6()(INTS), RELU6.format("Int32")),
    (lambda: ms.nn.ReLU6()(INTS), RELU6.format("Int32")),
    (lambda: ops.nanmean(INTS), NANMEAN),
    (lambda: ops.nanmean(BOOLS), NANMEAN),
    (lambda: ops.nanmean(INTS, 0, True), NANMEAN),
    (lambda: INTS.nanmean(), NANMEAN),
    (lambda: ops.count_nonzero(BOOLS), COUNTED),
    (lambda: ops.count_nonzero(BOOLS, 0), COUNTED),
    (lambda: BOOLS.count_nonzero(), COUNTED),
    (lambda: ops.logaddexp(INTS, INTS), LOG_ADD.format("logaddexp", "Int32", "Int32")),
    (lambda: ops.logaddexp(BOOLS, BOOLS), LOG_ADD.format("logaddexp", "Bool", "Bool")),
    (lambda: ops.logaddexp(FLOATS32, INTS), LOG_ADD.format("logaddexp", "Float32", "Int32")),
    (lambda: INTS.logaddexp(INTS), LOG_ADD.format("logaddexp", "Int32", "Int32")),
    (lambda: ops.logaddexp2(INTS, INTS), LOG_ADD.format("logaddexp2", "Int32", "Int32")),
    (lambda: INTS.logaddexp2(INTS), LOG_ADD.format("logaddexp2", "Int32", "Int32")),
    (lambda: ops.logaddexp(FLOATS32, 2), "For logaddexp, the other must be a Tensor, but got <class 'int'>."),
    (lambda: ops.logaddexp(INTS, 2.0), "For logaddexp, the other must be a Tensor, but got <class 'float'>."),
    (lambda: mint.logaddexp(INTS, INTS), "For primitive[LogAddExp], the input argument [input] must be a type of "
                                         "{Float16, Float32, BFloat16}, but got Int32."),
    (lambda: mint.logaddexp(BOOLS, BOOLS), "For primitive[LogAddExp], the input argument [input] must be a type of "
                                           "{Float16, Float32, BFloat16}, but got Bool."),
    (lambda: ops.copysign(BOOLS, BOOLS), "copysign does not accept dtype bool."),
    (lambda: ops.copysign(BOOLS[:2], FLOATS32), "copysign does not accept dtype bool."),
    (lambda: ops.copysign(BOOLS, -1.0), "copysign does not accept dtype bool."),
    (lambda: BOOLS.copysign(BOOLS), "copysign does not accept dtype bool."),
]


@pytest.mark.parametrize("call, first_line", SECOND_PASS + THIRD_PASS,
                         ids=[f"second-{index}" for index in range(len(SECOND_PASS))] +
                             [f"third-{index}" for index in range(len(THIRD_PASS))])
def test_type_checks_recorded(call, first_line):
    with pytest.raises(TypeError) as caught:
        call()
    assert str(caught.value).split("\n")[0] == first_line


def test_what_the_third_pass_checks_still_take():
    # recorded on MindSpore 2.10 CPU: copysign of Int32 by Int32 or by Bool gives Float32; logaddexp of Float32 and
    # Float16 gives Float32; nanmean of Float16 stays Float16; count_nonzero of Int32 counts in Int32
    result = ops.copysign(_tensor([1, 2], np.int32), _tensor([-1, 2], np.int32))
    assert str(result.dtype) == "Float32" and result.asnumpy().tolist() == [-1.0, 2.0]
    result = ops.copysign(FLOATS32, BOOLS[:2])
    assert str(result.dtype) == "Float32" and result.asnumpy().tolist() == pytest.approx([0.2, 0.7])
    result = ops.logaddexp(_tensor([1.0, 2.0], np.float32), _tensor([1.0, 2.0], np.float16))
    assert str(result.dtype) == "Float32"
    np.testing.assert_allclose(result.asnumpy(), [1.6931472, 2.6931472], rtol=1e-6)
    result = ops.nanmean(_tensor([1, 2, 3], np.float16))
    assert str(result.dtype) == "Float16" and result.asnumpy().item() == 2.0
    result = ops.count_nonzero(_tensor([1, 0, 3], np.int32))
    assert str(result.dtype) == "Int32" and result.asnumpy().item() == 2


@pytest.mark.parametrize("position, argument, dtype", [(1, "labels", np.bool_), (2, "input_length", np.int64),
                                                       (3, "label_length", np.bool_), (3, "label_length", np.float32)])
def test_rnnt_loss_labels_and_lengths_are_int32_only(position, argument, dtype):
    # Found by the op fuzz's sample (a Bool length reached JAX's boolean-index error); recorded on MindSpore 2.10.
    arguments = [Tensor(np.zeros((1, 2, 2, 3), np.float32)), Tensor(np.array([[1]], np.int32)),
                 Tensor(np.array([2], np.int32)), Tensor(np.array([1], np.int32))]
    costs, _ = ops.operations.RNNTLoss(blank_label=0)(*arguments)
    assert costs.shape == (1,) and np.isfinite(costs.asnumpy()).all()
    arguments[position] = Tensor(arguments[position].asnumpy().astype(dtype))
    name = {np.bool_: "Bool", np.int64: "Int64", np.float32: "Float32"}[dtype]
    with pytest.raises(TypeError, match=rf"^For 'RNNTLoss', the element of '{argument}' must be Tensor\[Int32\], "
                                        rf"but got Tensor\[{name}\]\."):
        ops.operations.RNNTLoss(blank_label=0)(*arguments)


def test_mean_of_bool_is_mindspore_runtime_error():
    # recorded on MindSpore 2.10 CPU: ops.mean, Tensor.mean, mint.mean and ops.ReduceMean() of a Bool Tensor all raise
    # RuntimeError "For 'ReduceMean', unsupported reduce operation for bool." (not the usual TypeError); Int keeps
    # its dtype (the mean of [1, 2, 4] is 2)
    flags = Tensor(np.array([True, False, True]))
    for call in (lambda: ops.mean(flags), lambda: flags.mean(), lambda: mint.mean(flags),
                 lambda: ops.ReduceMean()(flags)):
        with pytest.raises(RuntimeError, match=r"^For 'ReduceMean', unsupported reduce operation for bool\."):
            call()
    counts = ops.mean(Tensor(np.array([1, 2, 4], np.int32)))
    assert counts.dtype == ms.int32 and counts.asnumpy() == 2
