"""Products, norms and distances against NumPy, with MindSpore 2.10's result dtypes."""
import numpy as np
import pytest

from sporax import Tensor, ops
from sporax.core import dtype as mstype

RNG = np.random.default_rng(4)
MS_NAME = {"bool": "Bool", "int32": "Int32", "int64": "Int64", "float16": "Float16",
           "float32": "Float32", "float64": "Float64"}


def sample(dtype, shape=(2, 3, 4)):
    if dtype.startswith("int"):
        return RNG.integers(-5, 6, shape).astype(dtype)
    return RNG.permutation(np.arange(np.prod(shape))).reshape(shape).astype(dtype) / 7 - 1.5


def test_integer_products_keep_their_dtype():
    # (values, float dtypes and every face: the op table, tests/ops/test_op_table.py)
    a, b = sample("int32", (4, 1, 2, 3)), sample("int32", (5, 3, 2))
    result = ops.matmul(Tensor(a), Tensor(b))
    assert result.dtype is mstype.int32
    np.testing.assert_array_equal(result.asnumpy(), np.matmul(a, b))


def test_product_arguments_the_table_samples_do_not_use():
    # values of tensor_dot, Einsum and addn: the op table; here nested-list axes and einsum's operand forms
    a, b = sample("float32", (2, 3, 4)), sample("float32", (2, 4, 5))
    np.testing.assert_allclose(ops.tensor_dot(Tensor(a), Tensor(b), [[2], [1]]).asnumpy(),
                               np.tensordot(a, b, ((2,), (1,))), rtol=1e-5, atol=1e-5)
    expected = ops.Einsum("bij,bjk->bik")((Tensor(a), Tensor(b))).asnumpy()
    np.testing.assert_allclose(expected, a @ b, rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(ops.einsum("bij,bjk->bik", Tensor(a), Tensor(b)).asnumpy(), expected)
    np.testing.assert_array_equal(ops.einsum("bij,bjk->bik", [Tensor(a), Tensor(b)]).asnumpy(), expected)
    with pytest.raises(ValueError, match="'einsum'.*does not fit"):
        ops.einsum("ij,jk->ik", Tensor(a), Tensor(b))


def test_primitive_defaults():
    c = sample("float32", (4, 3))
    np.testing.assert_array_equal(ops.Cross()(Tensor(c), Tensor(c[::-1].copy())).asnumpy(),
                                  ops.cross(Tensor(c), Tensor(c[::-1].copy())).asnumpy())
    assert ops.Trace()(Tensor(c[:3])).asnumpy() == pytest.approx(np.trace(c[:3]))
    assert repr(ops.MatMul(transpose_b=True)) == "Prim[MatMul]<transpose_a=False, transpose_b=True>"


@pytest.mark.parametrize("first, second, error, message", [
    # MindSpore 2.10 (ops.matmul, mint.matmul, Tensor.matmul and @ alike), each shape pair in its own process
    ((2, 3), (2, 3), RuntimeError, "For 'MatMulExt' op, shape1[-1] must be equal to shape2[-2], but got 3 and 2."),
    ((3,), (2, 4), RuntimeError, "For 'MatMulExt' op, shape1[-1] must be equal to shape2[-2], but got 3 and 2."),
    ((2, 3, 4), (3, 5, 5), RuntimeError,
     "For 'MatMulExt' op, shape1[-1] must be equal to shape2[-2], but got 4 and 5."),
    ((2, 3, 4), (3, 4, 5), RuntimeError, "For 'MatMulExt' op,  shape1 and shape2 must be broadcastable, but got "
                                         "[const vector]{2, 3, 4} and [const vector]{3, 4, 5}"),
    ((2, 3, 4), (5,), ValueError, "For 'MatMul' the input dimensions must be equal, but got 'x1_col': 4 and "
                                  "'x2_row': 5."),
])
def test_matmul_shape_errors_are_mindspores(first, second, error, message):
    x, y = Tensor(np.ones(first, np.float32)), Tensor(np.ones(second, np.float32))
    for call in (ops.matmul, lambda a, b: a @ b, lambda a, b: a.matmul(b)):
        with pytest.raises(error) as info:
            call(x, y)
        assert str(info.value).startswith(message)


def test_matmul_broadcasts_batch_dimensions():
    out = ops.matmul(Tensor(np.ones((2, 3), np.float32)), Tensor(np.ones((4, 3, 5), np.float32)))
    assert out.shape == (4, 2, 5) and float(out.asnumpy()[0, 0, 0]) == 3.0


def test_addn_shape_error_teaches():
    with pytest.raises(ValueError, match="addn"):
        ops.addn([Tensor(np.ones(2)), Tensor(np.ones(3))])


@pytest.mark.parametrize("other_dtype", ["float16", "int32", "float64"])
def test_matmul_refuses_two_dtypes(other_dtype):
    # MindSpore 2.10 promotes nothing here: ops.matmul, mint.matmul, `@`, Tensor.matmul and ops.mm of a Float32
    # and a Float16 / Int32 / Float64 tensor raise TypeError "For 'MatMulExt', the type of 'x2' should be same
    # as 'x1', but got 'x1' with type Tensor[Float32] and 'x2' with type Tensor[Float16]" (mm: 'MatMul')
    from sporax import mint
    first, second = Tensor(np.ones((2, 3), np.float32)), Tensor(np.ones((3, 2), other_dtype))
    expected = f"'input' with type Tensor\\[Float32\\] and '(other|mat2)' with type Tensor\\[{MS_NAME[other_dtype]}\\]"
    for product in (ops.matmul, mint.matmul, lambda a, b: a @ b, lambda a, b: a.matmul(b), ops.mm):
        with pytest.raises(TypeError, match=expected):
            product(first, second)
    assert ops.matmul(first, Tensor(np.ones((3, 2), np.float32))).dtype is mstype.float32


@pytest.mark.parametrize("first, second", [((1, 6, 4, 4), (1, 6, 4, 4)), ((2, 2, 3), (3, 4)), ((2, 3), (3,)),
                                            ((3,), (3, 2))])
def test_mat_mul_primitive_refuses_non_matrices(first, second):
    # MindSpore 2.10: ops.MatMul() raises "MatMul inputs should have the same dimension size and equal to 2"
    # for each of these pairs (the optimizer tutorial's Net feeds it a 4-D conv output); (2, 3) @ (3, 4) runs.
    with pytest.raises(ValueError, match="'MatMul'.*2-D"):
        ops.MatMul()(Tensor(np.ones(first, np.float32)), Tensor(np.ones(second, np.float32)))
    assert ops.MatMul()(Tensor(np.ones((2, 3), np.float32)), Tensor(np.ones((3, 4), np.float32))).shape == (2, 4)


# Norms beyond the op table's samples (tests/ops/test_op_table.py).
NORMS = [
    (dict(ord=0, dim=1), lambda d: (d != 0).sum(1)),
    (dict(ord="fro"), lambda d: np.linalg.norm(d, "fro")),
    (dict(ord=float("inf")), lambda d: np.linalg.norm(d, np.inf)),
    (dict(ord=2), lambda d: np.linalg.norm(d, 2)),
    (dict(ord=-1, dim=(1, 0)), lambda d: np.linalg.norm(d.T, -1)),
]


@pytest.mark.parametrize("kwargs,reference", NORMS, ids=[str(k) for k, _ in NORMS])
def test_norm(kwargs, reference):
    data = sample("float32", (3, 4))
    result = ops.norm(Tensor(data), **kwargs)
    assert result.dtype is mstype.float32
    np.testing.assert_allclose(result.asnumpy(), reference(data.astype(np.float64)), rtol=1e-5)


def test_cosine_similarity_median_diff_trapz():
    # values recorded from MindSpore 2.10
    np.testing.assert_allclose(
        ops.cosine_similarity(Tensor(np.array([[1.0, 0.0], [1.0, 1.0]], np.float32)),
                              Tensor(np.array([[1.0, 1.0], [2.0, 2.0]], np.float32))).asnumpy(),
        [0.70710677, 1.0], rtol=1e-6)
    a = sample("float32", (2, 3, 4))
    values, indices = ops.median(Tensor(np.array([[1.0, 5.0, 2.0, 4.0], [3.0, 1.0, 7.0, 0.0]])))
    np.testing.assert_array_equal(values.asnumpy(), [2.0, 1.0])  # the lower median
    np.testing.assert_array_equal(indices.asnumpy(), [2, 1])
    assert indices.dtype is mstype.int64
    values, _ = ops.median(Tensor(a), 0, keepdims=True)
    assert values.shape == (1, 3, 4)
    np.testing.assert_allclose(values.asnumpy(), np.minimum(a[0], a[1])[None])
    result = ops.diff(Tensor(np.array([1, 4, 9, 16])))
    assert result.dtype is mstype.int64
    np.testing.assert_array_equal(result.asnumpy(), [3, 5, 7])
    # (plain diff and trapz values: the op table; prepend/append are Tensors after settings, checked here)
    ends = (Tensor(a[:, :, :1]), Tensor(a[:, :, :2]))
    np.testing.assert_allclose(ops.diff(Tensor(a), prepend=ends[0], append=ends[1]).asnumpy(),
                               np.diff(a, prepend=a[:, :, :1], append=a[:, :, :2]), rtol=1e-6)
    np.testing.assert_allclose(Tensor(a).diff(1, -1, ends[0]).asnumpy(), np.diff(a, prepend=a[:, :, :1]), rtol=1e-6)


def test_clip_by_global_norm_list_and_use_norm():
    """Values are the op table's; a list gives a tuple, and a given norm is refused by name."""
    first, second = np.array([3.0, 4.0], np.float32), np.array([[0.0, 12.0]], np.float32)
    clipped = ops.clip_by_global_norm([Tensor(first), Tensor(second)], 1.0)
    assert isinstance(clipped, tuple) and len(clipped) == 2
    np.testing.assert_allclose(clipped[1].asnumpy(), second / 13, rtol=1e-6)  # global norm 13
    with pytest.raises(ValueError, match="use_norm"):
        ops.clip_by_global_norm((Tensor(first),), 1.0, Tensor(10.0))
