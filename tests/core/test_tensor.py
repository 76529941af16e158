"""Tensor construction, dtype inference and attributes, as MindSpore 2.10 (values recorded from the oracle)."""
import warnings
import numpy as np
import pytest

import sporax.ops  # noqa: F401
from sporax.core import Tensor, dtype as ms, from_numpy, tensor
from sporax.core.initializer import One

# (expression, dtype, shape, values) recorded from MindSpore 2.10.
CONSTRUCTION = [
    ("Tensor([1, 0])", "Int64", (2,), [1, 0]),
    ("Tensor([1.0, 2])", "Float32", (2,), [1.0, 2.0]),
    ("Tensor(True)", "Bool", (), True),
    ("Tensor(1.5)", "Float32", (), 1.5),
    ("Tensor(3)", "Int64", (), 3),
    ("Tensor([True, 1])", "Int64", (2,), [1, 1]),
    ("Tensor([True, False])", "Bool", (2,), [True, False]),
    ("Tensor(np.float64(1.0))", "Float64", (), 1.0),
    ("Tensor(np.int32(3))", "Int32", (), 3),
    ("Tensor(np.array([1.0]))", "Float64", (1,), [1.0]),
    ("Tensor(np.array([1, 2], np.int16))", "Int16", (2,), [1, 2]),
    ("Tensor(1+2j)", "Complex128", (), 1 + 2j),
    ("Tensor([])", "Float32", (0,), []),
    ("Tensor([[1, 2], [3, 4]], ms.float16)", "Float16", (2, 2), [[1.0, 2.0], [3.0, 4.0]]),
    ("Tensor(Tensor(np.array([1, 2], np.int32)), ms.float32)", "Float32", (2,), [1.0, 2.0]),
    ("Tensor((1, 2))", "Int64", (2,), [1, 2]),
    ("Tensor([[1.5], [2]])", "Float32", (2, 1), [[1.5], [2.0]]),
    ("Tensor(np.array(5))", "Int64", (), 5),
    ("Tensor([np.float32(1), np.float32(2)])", "Float32", (2,), [1.0, 2.0]),
    ("Tensor([Tensor(1.0), Tensor(2.0)])", "Float32", (2,), [1.0, 2.0]),
    ("Tensor(2.5, ms.int32)", "Int32", (), 2),
    ("Tensor(np.array([1.7, -1.7]), ms.int32)", "Int32", (2,), [1, -1]),
    ("Tensor([300], ms.uint8)", "UInt8", (1,), [44]),
    ("Tensor(np.array([True, False]), ms.float32)", "Float32", (2,), [1.0, 0.0]),
    ("Tensor(shape=(2, 3), dtype=ms.float32)", "Float32", (2, 3), [[0.0] * 3] * 2),
]


@pytest.mark.parametrize("expression, dtype, shape, values", CONSTRUCTION, ids=[c[0] for c in CONSTRUCTION])
def test_construction_and_dtype_inference(expression, dtype, shape, values):
    result = eval(expression, {"Tensor": Tensor, "np": np, "ms": ms})
    assert str(result.dtype) == dtype
    assert result.shape == shape
    assert result.asnumpy().tolist() == values


def test_other_constructors():
    assert tensor([1, 2]).dtype is ms.int64
    array = np.ones((2, 2), np.float32)
    assert from_numpy(array).dtype is ms.float32 and Tensor.from_numpy(array).shape == (2, 2)
    assert Tensor(np.ones(2), dtype=np.float32).dtype is ms.float32
    with pytest.raises(TypeError):
        Tensor("abc")
    with pytest.raises(ValueError, match="needs both shape and dtype"):
        Tensor(shape=(2,), init=One())


def test_seed001_attributes():
    x = Tensor(np.array([[1, 2], [3, 4]]), ms.int32)
    lines = [f"x_shape: {x.shape}", f"x_dtype: {x.dtype}", f"x_itemsize: {x.itemsize}", f"x_nbytes: {x.nbytes}",
             f"x_ndim: {x.ndim}", f"x_size: {x.size}", f"x_strides: {x.strides}"]
    assert lines == ["x_shape: (2, 2)", "x_dtype: Int32", "x_itemsize: 4", "x_nbytes: 16", "x_ndim: 2",
                     "x_size: 4", "x_strides: (8, 4)"]


def test_seed001_data_and_numpy():
    data = [1, 0, 1, 0]
    x_data = Tensor(data)
    x_np = Tensor(np.array(data))
    assert x_data.dtype is ms.int64 and x_np.dtype is ms.int64
    assert str(x_data) == "[1 0 1 0]"


def test_lazy_tensor_shape_dtype_without_values():
    lazy = Tensor(shape=(2, 2), dtype=ms.float32, init=One())
    assert lazy._array is None and lazy.shape == (2, 2) and lazy.dtype is ms.float32 and lazy.size == 4
    assert lazy.init is not None
    assert lazy.init_data() is lazy and lazy._array is not None and lazy.init is None


def test_strides_and_sizes():
    x = Tensor(np.ones((2, 3), np.float16))
    assert (x.itemsize, x.nbytes, x.strides) == (2, 12, (6, 2))


def test_a_placeholder_without_shape_has_dynamic_rank():
    # MindSpore 2.10: Tensor(shape=None, dtype=float32).shape == (-2,), as Tensor(dtype=float32)'s
    placeholder = Tensor(shape=None, dtype=ms.float32)
    assert placeholder.shape == (-2,) and placeholder.dtype == ms.float32
    assert Tensor(dtype=ms.float32).shape == (-2,)


@pytest.mark.parametrize("data", [[[1, 2], [3]], [1, [2]], ((1.0,), (2.0, 3.0))])
def test_a_ragged_nested_list_is_a_type_error(data):
    # MindSpore 2.10: TypeError "For Tensor, the input_data is [[1, 2], [3]] that contain unsupported element."
    with pytest.raises(TypeError, match=r"input_data is .* that contain unsupported element: .* rectangular"):
        Tensor(data)


# Recorded on MindSpore 2.10 CPU: 0-d Tensors from Python and NumPy scalars (dtype and value); sporax puts 0-d
# values on the device through a compiled identity outside a trace, and stages them as constants inside one.
SCALARS = [((1.0, None), "Float32", 1.0), ((3, None), "Int64", 3), ((True, None), "Bool", True),
           ((2**40, None), "Int64", 2**40), ((1.5, "float16"), "Float16", 1.5), ((300, "uint8"), "UInt8", 44),
           ((np.float64(2.5), None), "Float64", 2.5)]


@pytest.mark.parametrize("args, dtype, value", SCALARS)
def test_scalar_tensor_dtype_and_value(args, dtype, value):
    data, name = args
    tensor = Tensor(data, getattr(ms, name)) if name else Tensor(data)
    assert (str(tensor.dtype), tensor.shape, tensor.asnumpy().item()) == (dtype, (), value)


def test_scalar_tensor_made_inside_jit_is_a_constant():
    import sporax
    double = sporax.jit(lambda x: x * Tensor(2.0))
    assert double(Tensor(np.array([1.0, 3.0], np.float32))).asnumpy().tolist() == [2.0, 6.0]
    assert double(Tensor(np.array([5.0], np.float32))).asnumpy().tolist() == [10.0]


OVERFLOWING = [  # MindSpore 2.10 (CPU, PyNative) gives these infinities and prints no warning
    ("Tensor(-1e10, ms.float16)", -np.inf),
    ("Tensor(np.float64(-1e10), ms.float16)", -np.inf),
    ("Tensor(np.array([1e40]), ms.float32)", [np.inf]),
    ("Tensor([1e10, 1.0], ms.float16)", [np.inf, 1.0]),
    ("ops.fill(ms.float16, (2,), 1e10)", [np.inf, np.inf]),
    ("ops.full((2,), -1e10, dtype=ms.float16)", [-np.inf, -np.inf]),
    ("ops.full_like(Tensor([1.0, 2.0], ms.float16), 1e10)", [np.inf, np.inf]),
]


@pytest.mark.parametrize("expression, values", OVERFLOWING, ids=[c[0] for c in OVERFLOWING])
def test_a_value_beyond_the_dtypes_range_becomes_infinity_without_a_numpy_warning(expression, values):
    from sporax import ops
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # NumPy's "overflow encountered in cast" is not MindSpore's
        result = eval(expression, {"Tensor": Tensor, "np": np, "ms": ms, "ops": ops})
    assert result.asnumpy().tolist() == values
