"""MindSpore's other spellings of existing ops (``AddV2``, ``DivMod``, ``ClipByNorm``, ``SparseSegmentSum`` ...) at
the paths MindSpore 2.10 serves them, with the values, dtypes and error types it gives on CPU in PyNative mode
(recorded on MindSpore 2.10 with these inputs)."""
import numpy as np
import pytest

import sporax.compat
from sporax import Parameter, Tensor, float16, float32, int32, int64, jit

sporax.compat.install()
from mindspore.ops.operations import (  # noqa: E402
    _inner_ops, _sequence_ops, array_ops, image_ops, linalg_ops, math_ops, nn_ops, other_ops, random_ops, sparse_ops)

X = np.array([[-1.5, 2.5, 3.0], [4.0, -5.0, 0.5]], np.float32)
Y = np.array([[2.0, -2.0, 4.0], [3.0, 2.0, -0.5]], np.float32)


def close(tensor, expected, dtype=None):
    np.testing.assert_allclose(tensor.asnumpy(), np.asarray(expected, np.float32), rtol=1e-6, atol=1e-6)
    if dtype is not None:
        assert tensor.dtype == dtype


def test_elementwise_spellings():
    x, y = Tensor(X), Tensor(Y)
    close(math_ops.AddV2()(x, y), [[0.5, 0.5, 7.0], [7.0, -3.0, 0.0]], float32)
    close(nn_ops.ReLUV3()(x), [[0.0, 2.5, 3.0], [4.0, 0.0, 0.5]])
    close(math_ops.TanhGrad()(x, y), [[-2.5, 10.5, -32.0], [-45.0, -48.0, -0.375]])
    close(math_ops.DivMod()(x, y), [[-0.75, -1.25, 0.75], [4 / 3, -2.5, -1.0]])
    close(math_ops.DivMod()(x, y, "trunc"), [[0.0, -1.0, 0.0], [1.0, -2.0, -1.0]])
    close(math_ops.DivMod()(x, y, "floor"), [[-1.0, -2.0, 0.0], [1.0, -3.0, -1.0]])


def test_clip_by_norm():
    x = Tensor(X)
    close(_inner_ops.ClipByNorm()(x, Tensor(1.0, float32)),
          [[-0.19569842, 0.32616404, 0.39139685], [0.52186245, -0.65232807, 0.06523281]], float32)
    # Along an axis each row's own norm applies (NumPy); MindSpore 2.10's CPU kernel gives the second row
    # [2.1466, -2.6833, 0.2683], scaled by the first column pair's norm instead: sporax keeps the documented formula.
    norms = np.sqrt((X * X).sum(1, keepdims=True))
    close(_inner_ops.ClipByNorm(axis=1)(x, Tensor(3.0, float32)), X * 3.0 / np.maximum(norms, 3.0))
    with pytest.raises(TypeError, match="ClipByNorm.*Float16 or Float32.*Int32"):
        _inner_ops.ClipByNorm()(Tensor(np.array([1, 2], np.int32)), Tensor(1.0, float32))


def test_sparse_segment_sum_and_sqrt_n():
    x, indices, ids = Tensor(X), Tensor(np.array([1, 0, 1], np.int32)), Tensor(np.array([0, 0, 1], np.int32))
    close(sparse_ops.SparseSegmentSum()(x, indices, ids), [[2.5, -2.5, 3.5], [4.0, -5.0, 0.5]])
    close(sparse_ops.SparseSegmentSqrtN()(x, indices, ids),
          [[1.76776695, -1.76776695, 2.47487378], [4.0, -5.0, 0.5]])
    with pytest.raises(ValueError, match="SparseSegmentSum.*contiguous"):  # MindSpore: ValueError too
        sparse_ops.SparseSegmentSum()(x, indices, Tensor(np.array([0, 0, 2], np.int32)))


def test_casts_checks_and_reads():
    x = Tensor(X)
    half, whole = _inner_ops.MixedPrecisionCast()(float16, (x, Tensor(np.array([1, 2], np.int32))))
    assert half.dtype == float16 and whole.dtype == int32  # only float Tensors are cast
    assert isinstance(_inner_ops.MixedPrecisionCast()(float16, [x]), tuple)
    assert _inner_ops.SameTypeShape()(x, Tensor(Y)) is x
    with pytest.raises(TypeError, match="SameTypeShape"):
        _inner_ops.SameTypeShape()(x, Tensor(np.ones((2, 3), np.int32)))
    with pytest.raises(ValueError, match="SameTypeShape"):
        _inner_ops.SameTypeShape()(x, Tensor(np.ones(2, np.float32)))
    close(other_ops.Load()(Parameter(x, name="w"), Tensor(0)), X)
    close(other_ops.stop_gradient_op(x), X)
    close(_inner_ops.DynamicBroadcastTo()(Tensor(np.array([1.0, 2.0, 3.0], np.float32)),
                                          Tensor(np.array([2, 3], np.int64))), [[1.0, 2.0, 3.0]] * 2)


def test_range_v2_takes_tensors_only():
    out = array_ops.RangeV2()(Tensor(0.5, float32), Tensor(2.0, float32), Tensor(0.5, float32))
    close(out, [0.5, 1.0, 1.5], float32)
    assert array_ops.RangeV2()(Tensor(1, int64), Tensor(8, int64), Tensor(2, int64)).asnumpy().tolist() == [1, 3, 5, 7]
    with pytest.raises(TypeError, match="RangeV2.*Tensor"):  # MindSpore: TypeError, the input should be a Tensor
        array_ops.RangeV2()(1, 8, 2)


def test_private_python_value_primitives_at_mindspores_paths():
    # _inner_ops holds string_mul and same_type_shape_ as instances, _sequence_ops the comparisons as classes
    assert _inner_ops.string_mul("ab", 3) == "ababab" and _inner_ops.string_getitem("abc", -1) == "c"
    assert _inner_ops.same_type_shape_(Tensor(X), Tensor(Y)).shape == (2, 3)
    assert _sequence_ops.list_lt()((1,), (2,)) is True  # list_lt takes tuples too; tuple_lt takes tuples only
    with pytest.raises(TypeError, match="tuple_lt"):
        _sequence_ops.tuple_lt()((1,), [2])
    assert _inner_ops.TileSize()((1, 3), (4, 3), 2) == (4, 1)
    assert _inner_ops.IsParameter()(Parameter(Tensor(X), name="p")) is True


SYMMETRIC = np.array([[4.0, 1.0, 2.0], [1.0, 3.0, 0.5], [2.0, 0.5, 5.0]], np.float32)
UPPER = np.array([[4.0, 9.0, 9.0], [0.0, 3.0, 9.0], [0.0, 0.0, 5.0]], np.float32)


def same_up_to_column_signs(vectors, expected):
    expected = np.asarray(expected, np.float32)
    signs = np.sign(np.sum(vectors.asnumpy() * expected, axis=0))
    np.testing.assert_allclose(vectors.asnumpy() * signs, expected, atol=1e-5)


def test_eigh_and_self_adjoint_eig():
    values, vectors = linalg_ops.Eigh()(Tensor(SYMMETRIC))
    close(values, [2.0965228, 3.0722241, 6.8312569])
    same_up_to_column_signs(vectors, [[0.71674323, -0.32576737, 0.61656713], [-0.57487285, -0.77650183, 0.25800461],
                                      [-0.39471608, 0.53937065, 0.74382716]])
    # lower=False reads the upper triangle only (MindSpore 2.10's values; averaging the triangles would differ)
    np.testing.assert_allclose(linalg_ops.Eigh(lower=False)(Tensor(UPPER))[0].asnumpy(),
                               [-5.589561, -4.4351215, 22.024677], rtol=1e-5)
    close(linalg_ops.Eigh(compute_eigenvectors=False)(Tensor(SYMMETRIC)), [2.0965228, 3.0722241, 6.8312569])
    # MindSpore 2.10's SelfAdjointEig returns the eigenvectors even with compute_v=False
    values, vectors = math_ops.SelfAdjointEig(compute_v=False)(Tensor(SYMMETRIC))
    close(values, [2.0965228, 3.0722241, 6.8312569])
    assert vectors.shape == (3, 3)


def test_tridiagonal_solve():
    diagonals = Tensor(np.array([[2.0, 1.0, 0.0], [4.0, 5.0, 6.0], [0.0, 3.0, 1.0]], np.float32))
    rhs = Tensor(np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], np.float32))
    expected = [[0.0375, 0.275], [0.425, 0.45], [0.7625, 0.925]]
    close(math_ops.TridiagonalSolve()(diagonals, rhs), expected, float32)
    close(math_ops.TridiagonalSolve(False)(diagonals, rhs), expected)
    with pytest.raises(ValueError, match="TridiagonalSolve.*diagonals"):
        math_ops.TridiagonalSolve()(Tensor(np.ones((2, 3), np.float32)), rhs)


def test_adjust_contrast_v2():
    images = Tensor(np.arange(12, dtype=np.float32).reshape(2, 2, 3) / 5)
    close(image_ops.AdjustContrastv2()(images, Tensor(0.5, float32)),
          [[[0.45, 0.65, 0.85], [0.75, 0.95, 1.15]], [[1.05, 1.25, 1.45], [1.35, 1.55, 1.75]]], float32)


def test_sparse_softmax_cross_entropy_with_logits_v2():
    logits = Tensor(np.array([[1.0, 2.0, 0.5], [0.1, -1.0, 3.0]], np.float32))
    loss, backprop = nn_ops.SparseSoftmaxCrossEntropyWithLogitsV2()(logits, Tensor(np.array([2, 0], np.int32)))
    close(loss, [1.96436882, 2.97077441])
    close(backprop, [[0.2312239, 0.62853169, -0.85975564], [-0.94873643, 0.01706417, 0.93167222]])


def _rows(*shape, shift=0.0):
    return Parameter(Tensor(np.arange(np.prod(shape), dtype=np.float32).reshape(shape) / 7 - 0.3 + shift),
                     name=f"p{shift}")


def test_sparse_apply_momentum_nesterov_on_cpu_is_plain_momentum():
    """Recorded on MindSpore 2.10 (CPU): two SparseApplyMomentum(use_nesterov=True) steps on var [[1, 2], [3, 4]],
    accum zeros, lr 0.1, row 1 gradient [1, 10], momentum 0.5 give var [[1, 2], [2.75, 1.5]] and accum
    [[0, 0], [1.5, 15]], as use_nesterov=False: its CPU kernel has no Nesterov branch."""
    var = Parameter(Tensor(np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)), name="var")
    accum = Parameter(Tensor(np.zeros((2, 2), np.float32)), name="accum")
    for _ in range(2):
        nn_ops.SparseApplyMomentum(use_nesterov=True)(var, accum, Tensor(0.1, float32),
                                                      Tensor(np.array([[1.0, 10.0]], np.float32)),
                                                      Tensor(np.array([1], np.int32)), Tensor(0.5, float32))
    close(var, [[1.0, 2.0], [2.75, 1.5]])
    close(accum, [[0.0, 0.0], [1.5, 15.0]])


def test_sparse_apply_momentum_proximal_and_centered_rmsprop():
    grad, indices = Tensor(np.ones((2, 2), np.float32)), Tensor(np.array([0, 2], np.int32))
    lr, momentum = Tensor(0.1, float32), Tensor(0.9, float32)
    accum = _rows(3, 2)
    close(nn_ops.SparseApplyMomentum()(_rows(3, 2), accum, lr, grad, indices, momentum),
          [[-0.373, -0.243], [-0.01428571, 0.12857142], [0.147, 0.277]])
    close(accum[0], [0.73, 0.85857141])  # accum = accum * momentum + grad on the rows updated
    close(nn_ops.SparseApplyProximalGradientDescent()(_rows(3, 2), lr, Tensor(0.01, float32), Tensor(0.01, float32),
                                                       grad, indices),
          [[-0.39860141, -0.255887], [-0.01428571, 0.12857142], [0.17025833, 0.31297275]])
    var = _rows(3, 2)
    out = nn_ops.SparseApplyCenteredRMSProp()(var, _rows(3, 2, shift=1.0), _rows(3, 2, shift=2.0), _rows(3, 2), lr,
                                              momentum, momentum, Tensor(1e-3, float32), grad, indices)
    expected = [[-0.12542872, -0.11461148], [-0.01428571, 0.12857142], [-0.10227633, -0.11888045]]
    close(out, expected)
    close(var, expected)  # the Parameter is updated in place


@pytest.mark.parametrize("x_shape, y_shape, expected", [
    ((2, 1, 3), (4, 3), [[1], [0]]), ((1, 3), (2, 1, 1), [[0, 1], [1, 2]]), ((2, 3), (2, 3), [[], []]),
    ((1,), (1,), [[], []]), ((3, 1), (1, 1), [[1], [0, 1]])])
def test_dynamic_broadcast_gradient_args(x_shape, y_shape, expected):
    reductions = _inner_ops.DynamicBroadcastGradientArgs()(Tensor(np.array(x_shape, np.int64)),
                                                          Tensor(np.array(y_shape, np.int64)))
    assert [reduction.asnumpy().tolist() for reduction in reductions] == expected
    assert all(reduction.dtype == int64 for reduction in reductions)


def test_conv3d_backprop_input():
    def ramp(*shape, scale):
        return Tensor(np.arange(np.prod(shape), dtype=np.float32).reshape(shape) / scale - 0.3)

    primitive = nn_ops.Conv3DBackpropInput(2, (2, 2, 1), pad_mode="pad", pad=(1, 0, 0, 1, 0, 0), stride=(1, 2, 1))
    dx = primitive(ramp(2, 3, 2, 2, 1, scale=5), ramp(1, 2, 2, 2, 3, scale=11), (1, 3, 2, 3, 3))
    assert dx.shape == (1, 3, 2, 3, 3)
    close(dx[0, 1, 0], [[6.33818, 7.02909, 7.72], [6.75273, 7.51636, 8.28], [8.41091, 9.10182, 9.79273]])
    np.testing.assert_allclose(float(dx.sum().asnumpy()), 361.65272, rtol=1e-5)


def test_instance_norm_v2_training_and_inference():
    x = Tensor((np.arange(24, dtype=np.float32).reshape(2, 3, 2, 2) ** 1.3) / 10)
    gamma = Tensor(np.array([1.0, 2.0, 0.5] * 2, np.float32).reshape(2, 3, 1, 1))
    beta = Tensor(np.array([0.0, 1.0, -1.0] * 2, np.float32).reshape(2, 3, 1, 1))
    mean, variance = Tensor(np.full((2, 3, 1, 1), 0.5, np.float32)), Tensor(np.full((2, 3, 1, 1), 2.0, np.float32))
    y, batch_mean, batch_rstd = nn_ops.InstanceNormV2()(x, gamma, beta, mean, variance)
    np.testing.assert_allclose(y.asnumpy().ravel()[:8], [-1.2131529, -0.5774498, 0.3521316, 1.4384711, -1.6323047,
                                                         0.0547209, 1.846684, 3.7308993], rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(batch_mean.asnumpy().ravel(), [0.1908364, 0.9246573, 1.871607, 2.9513106, 4.1332831,
                                                              5.4000649], rtol=1e-5)
    np.testing.assert_allclose(batch_rstd.asnumpy().ravel(), [6.3570309, 4.1340246, 3.5039811, 3.1523185, 2.9158199,
                                                              2.741024], rtol=1e-5)
    # MindSpore 2.10's CPU inference: running statistics blended with the planes' own, zeros for the statistics
    y, batch_mean, batch_rstd = nn_ops.InstanceNormV2(is_training=False)(x, gamma, beta, mean, variance)
    np.testing.assert_allclose(y.asnumpy().ravel()[:4], [-0.3493134, -0.2748462, -0.1659537, -0.0386983], rtol=1e-5)
    np.testing.assert_allclose(float(y.sum().asnumpy()), 35.788795, rtol=1e-5)
    assert not batch_mean.asnumpy().any() and not batch_rstd.asnumpy().any()


def test_crop_and_resize_gradients():
    grads = Tensor(np.arange(24, dtype=np.float32).reshape(2, 3, 2, 2) / 7 - 0.5)
    image = Tensor(np.arange(40, dtype=np.float32).reshape(1, 4, 5, 2) ** 1.2 / 10)
    boxes = Tensor(np.array([[0.1, 0.2, 0.8, 0.9], [0.3, 0.0, 0.7, 0.6]], np.float32))
    index, size = Tensor(np.array([0, 0], np.int32)), Tensor(np.array([1, 4, 5, 2], np.int32))
    d_image = image_ops.CropAndResizeGradImage(float32)(grads, boxes, index, size)
    assert d_image.shape == (1, 4, 5, 2) and d_image.dtype == float32
    np.testing.assert_allclose(d_image.asnumpy().ravel()[:12], [0.0514285, 0.0857142, -0.28, -0.2, 0.09, 0.0985714, 0.0,
                                                                0.0457143, -0.09, -0.03, 1.965, 2.192143], atol=1e-5)
    nearest = image_ops.CropAndResizeGradImage(float32, method="nearest")(grads, boxes, index, size)
    np.testing.assert_allclose(nearest.asnumpy().ravel()[8:16], [-0.2142857, -0.0714286, 1.2142857, 1.3571428,
                                                                 0.0714286, 0.2142857, 1.5, 1.6428571], atol=1e-6)
    d_boxes = image_ops.CropAndResizeGradBoxes()(grads, image, boxes, index)
    np.testing.assert_allclose(d_boxes.asnumpy(), [[-2.3748488, 2.0869241, 28.184719, 4.89882],
                                                   [56.104305, 0.0, 97.617088, 22.641891]], rtol=1e-5, atol=1e-5)


def test_sparse_fill_empty_rows():
    indices, values = Tensor(np.array([[1, 0], [1, 2], [3, 1]], np.int64)), Tensor(np.array([1.5, 2.0, 3.0], np.float32))
    out = sparse_ops.SparseFillEmptyRows()(indices, values, Tensor(np.array([5, 3], np.int64)), Tensor(np.float32(-1)))
    assert [item.asnumpy().tolist() for item in out] == [
        [[0, 0], [1, 0], [1, 2], [2, 0], [3, 1], [4, 0]], [-1.0, 1.5, 2.0, -1.0, 3.0, -1.0],
        [True, False, True, False, True], [1, 2, 4]]
    # unsorted rows come out in row order; reverse_index_map says where each input entry went
    out = sparse_ops.SparseFillEmptyRows()(Tensor(np.array([[2, 0], [0, 2]], np.int64)), Tensor(np.array([1, 2], np.int32)),
                                           Tensor(np.array([3, 3], np.int64)), Tensor(np.int32(0)))
    assert [item.asnumpy().tolist() for item in out] == [[[0, 2], [1, 0], [2, 0]], [2, 0, 1], [False, True, False], [2, 0]]
    assert out[1].dtype == int32 and out[3].dtype == int64


def test_sparse_concat_and_dense_set_operations():
    def longs(values):
        return Tensor(np.array(values, np.int64))

    out = sparse_ops.SparseConcat(1)((longs([[0, 0], [1, 0]]), longs([[0, 1], [1, 0]])),
                                     (Tensor(np.array([1.0, 2.0], np.float32)), Tensor(np.array([3.0, 4.0], np.float32))),
                                     (longs([2, 1]), longs([2, 2])))
    assert [item.asnumpy().tolist() for item in out] == [[[0, 0], [0, 2], [1, 0], [1, 1]], [1.0, 3.0, 2.0, 4.0], [2, 3]]
    a = Tensor(np.array([[1, 2, 3, 3], [4, 5, 4, 6]], np.int32))
    b = Tensor(np.array([[3, 1, 7, 7], [6, 6, 9, 4]], np.int32))
    expected = {"a-b": ([[0, 0], [1, 0]], [2, 5], [2, 1]), "b-a": ([[0, 0], [1, 0]], [7, 9], [2, 1]),
                "intersection": ([[0, 0], [0, 1], [1, 0], [1, 1]], [1, 3, 4, 6], [2, 2]),
                "union": ([[0, 0], [0, 1], [0, 2], [0, 3], [1, 0], [1, 1], [1, 2], [1, 3]], [1, 2, 3, 7, 4, 5, 6, 9],
                          [2, 4])}
    for operation, (indices, values, shape) in expected.items():
        out = sparse_ops.DenseToDenseSetOperation(operation)(a, b)
        assert [item.asnumpy().tolist() for item in out] == [indices, values, shape], operation
        assert out[1].dtype == int32


def test_uniform_runs_mindspores_stream_for_its_seed_and_offset():
    uniform = random_ops.Uniform(0.0, 1.0, seed=3, offset=2)
    zeros = Tensor(np.zeros(6, np.float32))
    close(uniform(zeros), [0.85098350, 0.14548838, 0.16237748, 0.87177265, 0.45901167, 0.53342485], float32)
    # the next call runs on from the words the first left (MindSpore 2.10's values)
    close(uniform(zeros), [0.96277320, 0.71216857, 0.08489156, 0.33386970, 0.70513856, 0.24928784])
    half = random_ops.Uniform(0.5, 2.0, seed=7, offset=1)(Tensor(np.zeros((2, 3), np.float16)))
    assert half.dtype == float16
    np.testing.assert_array_equal(half.asnumpy(), np.array([[1.1904296875, 1.892578125, 1.0185546875],
                                                            [1.0263671875, 0.982421875, 0.67626953125]], np.float16))
    with pytest.raises(ValueError, match="Uniform.*minval"):  # MindSpore: ValueError for minval > maxval
        random_ops.Uniform(1.0, 0.0)


def test_uniform_under_jit_starts_its_own_stream_and_runs_on():
    # MindSpore 2.10 (recorded): Uniform(seed=5) called twice eagerly, then twice in one @jit function: the
    # compiled op starts the (seed, offset) stream afresh and draws on at each run (not one frozen value)
    uniform = random_ops.Uniform(0.0, 1.0, seed=5, offset=0)
    zeros = Tensor(np.zeros(4, np.float32))
    first = [0.18286479, 0.68998957, 0.6732248, 0.45222378]
    second = [0.77721405, 0.9560559, 0.11103988, 0.15921366]
    close(uniform(zeros), first)
    close(uniform(zeros), second)
    compiled = jit(lambda x: uniform(x))
    close(compiled(zeros), first)
    close(compiled(zeros), second)
