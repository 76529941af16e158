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


@pytest.mark.parametrize("dtype", ["int32", "float16", "float32"])
@pytest.mark.parametrize("left,right", [((2, 3), (3, 4)), ((5, 2, 3), (3, 2)), ((3,), (3, 2)),
                                        ((4, 1, 2, 3), (5, 3, 2))])
def test_matmul(dtype, left, right):
    a, b = sample(dtype, left), sample(dtype, right)
    result = ops.matmul(Tensor(a), Tensor(b))
    assert str(result.dtype) == MS_NAME[dtype]
    np.testing.assert_allclose(result.asnumpy().astype(np.float64),
                               np.matmul(a.astype(np.float64), b.astype(np.float64)),
                               rtol=2e-2 if dtype == "float16" else 1e-5, atol=0.1)


def test_other_products():
    a, b = sample("float32", (2, 3, 4)), sample("float32", (2, 4, 5))
    np.testing.assert_allclose(ops.bmm(Tensor(a), Tensor(b)).asnumpy(), a @ b, rtol=1e-5)
    m, v = sample("float32", (3, 4)), sample("float32", (4,))
    np.testing.assert_allclose(ops.mv(Tensor(m), Tensor(v)).asnumpy(), m @ v, rtol=1e-5)
    np.testing.assert_allclose(ops.outer(Tensor(v), Tensor(v)).asnumpy(), np.outer(v, v),
                               rtol=1e-5)
    np.testing.assert_allclose(ops.inner(Tensor(m), Tensor(m)).asnumpy(), np.inner(m, m),
                               rtol=1e-5)
    np.testing.assert_allclose(ops.dot(Tensor(a), Tensor(b)).asnumpy(),
                               np.tensordot(a, b, ([-1], [1])), rtol=1e-5)
    np.testing.assert_allclose(ops.tensor_dot(Tensor(a), Tensor(b), ((2,), (1,))).asnumpy(),
                               np.tensordot(a, b, ((2,), (1,))), rtol=1e-5)
    np.testing.assert_allclose(ops.einsum("bij,bjk->bik", Tensor(a), Tensor(b)).asnumpy(),
                               a @ b, rtol=1e-5)
    np.testing.assert_allclose(ops.trace(Tensor(m)).asnumpy(), np.trace(m), rtol=1e-5)
    np.testing.assert_allclose(ops.addn([Tensor(m), Tensor(m), Tensor(m)]).asnumpy(), 3 * m,
                               rtol=1e-6)
    np.testing.assert_allclose(ops.kron(Tensor(m), Tensor(v)).asnumpy(), np.kron(m, v), rtol=1e-5)
    c = sample("float32", (4, 3))
    np.testing.assert_allclose(ops.cross(Tensor(c), Tensor(c[::-1].copy()), dim=1).asnumpy(),
                               np.cross(c, c[::-1], axis=1), rtol=1e-5, atol=1e-6)


def test_matmul_shape_error_teaches():
    with pytest.raises(ValueError, match="'matmul'.*last dimension"):
        ops.matmul(Tensor(np.ones((2, 3))), Tensor(np.ones((2, 3))))
    with pytest.raises(ValueError, match="addn"):
        ops.addn([Tensor(np.ones(2)), Tensor(np.ones(3))])


NORMS = [
    (dict(), lambda d: np.linalg.norm(d.reshape(-1))),
    (dict(dim=1), lambda d: np.linalg.norm(d, axis=1)),
    (dict(ord=1, dim=1), lambda d: np.linalg.norm(d, 1, axis=1)),
    (dict(ord=float("inf"), dim=0, keepdim=True), lambda d: np.abs(d).max(0, keepdims=True)),
    (dict(ord=3, dim=1), lambda d: (np.abs(d) ** 3).sum(1) ** (1 / 3)),
    (dict(ord=0, dim=1), lambda d: (d != 0).sum(1)),
    (dict(ord="fro"), lambda d: np.linalg.norm(d, "fro")),
    (dict(ord="nuc"), lambda d: np.linalg.norm(d, "nuc")),
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


def test_norm_of_int_is_float32_and_vector_matrix_norms():
    assert ops.norm(Tensor(np.array([3, 4], np.int32))).dtype is mstype.float32
    np.testing.assert_allclose(ops.norm(Tensor(np.array([3, 4], np.int32))).asnumpy(), 5.0)
    data = sample("float32", (2, 3, 4))
    np.testing.assert_allclose(ops.vector_norm(Tensor(data), 1, (1, 2)).asnumpy(),
                               np.abs(data).sum((1, 2)), rtol=1e-5)
    np.testing.assert_allclose(ops.matrix_norm(Tensor(data)).asnumpy(),
                               np.linalg.norm(data, "fro", axis=(1, 2)), rtol=1e-5)


def test_distances_median_diff_trapz():
    # values recorded from MindSpore 2.10
    np.testing.assert_allclose(
        ops.cosine_similarity(Tensor(np.array([[1.0, 0.0], [1.0, 1.0]], np.float32)),
                              Tensor(np.array([[1.0, 1.0], [2.0, 2.0]], np.float32))).asnumpy(),
        [0.70710677, 1.0], rtol=1e-6)
    a, b = sample("float32", (2, 3, 4)), sample("float32", (2, 5, 4))
    want = np.linalg.norm(a[:, :, None, :] - b[:, None, :, :], axis=-1)
    np.testing.assert_allclose(ops.cdist(Tensor(a), Tensor(b)).asnumpy(), want, rtol=1e-5)
    want = (np.abs(a[:, :, None, :] - b[:, None, :, :])).sum(-1)
    np.testing.assert_allclose(ops.cdist(Tensor(a), Tensor(b), 1.0).asnumpy(), want, rtol=1e-5)
    assert float(ops.dist(Tensor([0.0, 0.0]), Tensor([3.0, 4.0])).asnumpy()) == 5.0
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
    np.testing.assert_allclose(ops.diff(Tensor(a), 2, 1).asnumpy(), np.diff(a, 2, 1), rtol=1e-5)
    np.testing.assert_allclose(ops.trapz(Tensor(a)).asnumpy(), np.trapezoid(a, axis=-1),
                               rtol=1e-5)
    x = np.array([0.0, 1.0, 3.0, 6.0], np.float32)
    np.testing.assert_allclose(ops.trapz(Tensor(a), Tensor(x)).asnumpy(),
                               np.trapezoid(a, x, axis=-1), rtol=1e-5)


def test_clip_by_global_norm():
    first, second = np.array([3.0, 4.0], np.float32), np.array([[0.0, 12.0]], np.float32)
    clipped = ops.clip_by_global_norm((Tensor(first), Tensor(second)), 1.0)
    assert isinstance(clipped, tuple) and len(clipped) == 2
    np.testing.assert_allclose(clipped[0].asnumpy(), first / 13, rtol=1e-6)  # global norm 13
    np.testing.assert_allclose(clipped[1].asnumpy(), second / 13, rtol=1e-6)
    unchanged = ops.clip_by_global_norm([Tensor(first), Tensor(second)], 20.0)
    np.testing.assert_allclose(unchanged[1].asnumpy(), second)
    single = ops.clip_by_global_norm(Tensor(first.astype(np.float16)), 1.0)
    assert single.dtype is mstype.float16
    np.testing.assert_allclose(single.asnumpy(), [0.6, 0.8], rtol=1e-3)
    with pytest.raises(ValueError, match="use_norm"):
        ops.clip_by_global_norm((Tensor(first),), 1.0, Tensor(10.0))
