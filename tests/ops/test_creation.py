"""Creation ops: values against NumPy, MindSpore's default dtypes, static-shape rules, errors.

MindSpore's recorded results for the common cases are in ``test_oracle_array_nn.py``.
"""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

from sporax import ops
from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor
from sporax.state.fallback import UntraceableError

CASES = [
    # name, call, expected values, expected dtype
    ("ones_tensor_shape", lambda: ops.ones(Tensor([2, 3])), np.ones((2, 3)), mstype.float32),
    ("zeros_default", lambda: ops.zeros(3), np.zeros(3), mstype.float32),
    ("full_bool_is_int64", lambda: ops.full((2,), True), np.ones(2), mstype.int64),
    ("full_tensor_value", lambda: ops.full((2,), Tensor(2.0), dtype=mstype.float16), np.full(2, 2.0), mstype.float16),
    ("full_like_dtype", lambda: ops.full_like(Tensor([1, 2]), 0.5, dtype=mstype.float32), np.full(2, 0.5), mstype.float32),
    ("fill_int_truncates", lambda: ops.fill(mstype.int32, (2,), 1.7), np.ones(2), mstype.int32),
    ("eye_square_int", lambda: ops.eye(2, dtype=mstype.int64), np.eye(2), mstype.int64),
    ("arange_float_tensor", lambda: ops.arange(Tensor(0.5), 3), np.arange(0.5, 3), mstype.float32),
    ("arange_float64_tensor_is_float32", lambda: ops.arange(Tensor(0.0, mstype.float64), 2), np.arange(2.0), mstype.float32),
    ("arange_float_steps_exact", lambda: ops.arange(0, 1, 0.1), np.arange(0, 1, 0.1), mstype.float32),
    ("arange_int_dtype_float64", lambda: ops.arange(3, dtype=mstype.float64), np.arange(3.0), mstype.float64),
    ("range_float", lambda: ops.range(0.0, 5.0, 2.0), np.array([0.0, 2.0, 4.0]), mstype.float32),
    # MindSpore 2.10 recorded: integer Tensor bounds of different widths give an Int64 range
    ("range_int_tensors_mixed_widths",
     lambda: ops.range(Tensor(0, mstype.int64), Tensor(4, mstype.int32), Tensor(1, mstype.int32)), np.arange(4),
     mstype.int64),
    ("linspace_single", lambda: ops.linspace(2, 5, 1), np.array([2.0]), mstype.float32),
    ("linspace_float64_tensors", lambda: ops.linspace(Tensor(0.0, mstype.float64), Tensor(1.0, mstype.float64), 3),
     np.linspace(0, 1, 3), mstype.float64),
    ("tuple_to_array_list", lambda: ops.tuple_to_array([1, 2]), np.array([1, 2]), mstype.int32),
    # MindSpore 2.10 recorded: tuple_to_array(range(2, 9, 3)) -> [2 5 8] Int32 (PyNative; GRAPH gives Int32 too)
    ("tuple_to_array_range", lambda: ops.tuple_to_array(range(2, 9, 3)), np.array([2, 5, 8]), mstype.int32),
    ("scalar_to_tensor_int", lambda: ops.scalar_to_tensor(3, mstype.int32), np.array(3), mstype.int32),
    ("meshgrid_tuple_argument", lambda: ops.meshgrid((Tensor([1, 2]), Tensor([3, 4, 5])))[1],
     np.meshgrid([1, 2], [3, 4, 5])[1], mstype.int64),
]


@pytest.mark.parametrize("name,call,values,dtype", CASES, ids=[c[0] for c in CASES])
def test_creation(name, call, values, dtype):
    result = call()
    assert result.dtype == dtype, name
    np.testing.assert_allclose(result.asnumpy().astype(np.float64), values, rtol=1e-6, atol=1e-7)


def test_creation_under_jit_uses_static_shapes():
    def body(array):
        x = Tensor._wrap(array)
        return (ops.ones_like(x)._value + ops.zeros(x.shape)._value + ops.eye(3)._value
                + ops.linspace(Tensor._wrap(array[0, 0]), 1.0, 3)._value)

    value = jnp.zeros((3, 3), jnp.float32)
    np.testing.assert_allclose(jax.jit(body)(value), body(value))
    # a shape computed in the compiled function: ms.jit and GRAPH mode run such a function eagerly
    with pytest.raises(UntraceableError, match="ones.*known when the op is compiled"):
        jax.jit(lambda a: ops.ones(Tensor._wrap(a))._value)(jnp.array([2, 3]))


@pytest.mark.parametrize("call,error,pattern", [
    (lambda: ops.arange(5, 0, 1), ValueError, "arange.*sign"),
    (lambda: ops.arange(0, 5, 0), ValueError, "step"),
    (lambda: ops.arange("5"), TypeError, "arange.*'end'"),
    (lambda: ops.ones((2, 2.5)), TypeError, "ones.*shape"),
    (lambda: ops.zeros((2,), "no-such-type"), TypeError, "zeros.*dtype"),
    (lambda: ops.eye(-1), ValueError, "eye"),
    (lambda: ops.full((2,), "x"), TypeError, "full.*'fill_value' must be a Tensor or a Python number"),
    (lambda: ops.linspace(0, 1, 0), ValueError, "steps"),
    (lambda: ops.tuple_to_array(()), TypeError, "tuple_to_array"),
    (lambda: ops.range(0, 10, 1, maxlen=5), ValueError, "maxlen"),
    # MindSpore 2.10's message (SimCLR's NT-Xent loss calls range(Tensor(0.0), Tensor(n, int32), Tensor(1.0)))
    (lambda: ops.range(Tensor(0.0), Tensor(4, mstype.int32), Tensor(1.0)), TypeError,
     r"dtypes of inputs must be the same, but got \(Float32, Int64, Float32\)"),
    (lambda: ops.range(0.0, 4, 1), TypeError, r"dtypes of inputs must be the same, but got \(Float32, Int64, Int64\)"),
])
def test_creation_errors(call, error, pattern):
    with pytest.raises(error, match=pattern):
        call()


def test_zeros_and_ones_primitives_take_their_inputs_by_name():
    # recorded from MindSpore 2.10: ops.Zeros()((2, 1, 3), dtype=ms.float32).shape == (2, 1, 3) (mindformers' MoE
    # dispatch calls it so); Zeros()(size=(2,), dtype=ms.float16) and Ones()(shape=(2,), dtype=ms.float16) are
    # Float16; a name the call does not have is a TypeError naming the Primitive
    assert ops.Zeros()((2, 1, 3), dtype=mstype.float32).shape == (2, 1, 3)
    zeros = ops.Zeros()(size=(2,), dtype=mstype.float16)
    ones = ops.Ones()(shape=(2,), dtype=mstype.float16)
    assert (zeros.dtype, ones.dtype) == (mstype.float16, mstype.float16)
    np.testing.assert_array_equal(ones.asnumpy(), np.ones(2, np.float16))
    assert ops.Ones()((2,), mstype.int8).dtype == mstype.int8
    with pytest.raises(TypeError, match=r"^Zeros.__call__\(\) got an unexpected keyword argument 'shape'$"):
        ops.Zeros()(shape=(2,), dtype=mstype.float32)
    with pytest.raises(TypeError, match=r"^Ones.__call__\(\) got an unexpected keyword argument 'size'$"):
        ops.Ones()(size=(2,), dtype=mstype.float16)


def test_hamming_window_keeps_float32_alpha_and_beta():
    """Recorded on MindSpore 2.10 CPU: its ends are 0.08000001 (Float32 0.54 - 0.46), a Float64 window's peak
    1.00000003, as its HammingWindow docstring example prints."""
    np.testing.assert_array_equal(ops.HammingWindow(periodic=False)(Tensor(np.array([7], np.int32))).asnumpy(),
                                  np.array([0.08000001, 0.31, 0.77000004, 1.0, 0.77000004, 0.31, 0.08000001], np.float32))
    np.testing.assert_array_equal(
        ops.hamming_window(10).asnumpy(),
        np.array([0.08000001, 0.1678522, 0.3978522, 0.68214786, 0.9121478, 1.0, 0.9121478, 0.68214786, 0.3978522,
                  0.1678522], np.float32))
    assert ops.hamming_window(5, False, dtype=mstype.float64).asnumpy().tolist() == [
        0.08000001311302185, 0.5400000214576721, 1.0000000298023224, 0.5400000214576722, 0.08000001311302185]


def test_blackman_window_values_as_recorded():
    # Recorded on MindSpore 2.10 (its blackman_window docstring prints the ends as 0., not -1.4e-17).
    recorded = {(10, True): [0.0, 0.04021286219358444, 0.20077013969421387, 0.5097871422767639, 0.8492298722267151,
                             1.0, 0.8492298722267151, 0.5097871422767639, 0.20077013969421387, 0.04021286219358444],
                (7, False): [0.0, 0.12999999523162842, 0.6299999952316284, 1.0, 0.6299999952316284,
                             0.12999999523162842, 0.0]}
    for (length, periodic), expected in recorded.items():
        assert ops.blackman_window(length, periodic=periodic).asnumpy().tolist() == expected
