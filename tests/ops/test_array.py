"""Array ops (layout, slicing, indexing) against NumPy, under jit, and their error messages.

MindSpore's own results for the common cases are checked in ``test_oracle_array_nn.py``; the layout
ops that are op-table entries (reshape, transpose, squeeze, concat, split ...) are checked against
NumPy by the op test table (``test_op_table.py``); this file covers the rest of the family.
"""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

from sporax import ops
from sporax.core import dtype as mstype
from sporax.core.tensor import Tensor

A = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
M = np.arange(12, dtype=np.float32).reshape(3, 4)
I = np.array([[1, 0], [0, 2]], np.int64)


def T(array):
    return Tensor(np.asarray(array))


CASES = [
    ("cat_promotes", lambda: ops.cat([T(M), T(M.astype(np.int32))]), lambda: np.concatenate([M, M])),
    ("diag", lambda: ops.diag(T(M[0])), lambda: np.diag(M[0])),
    ("split_v", lambda: ops.SplitV((1, -1), 1, 2)(T(M))[1], lambda: M[:, 1:]),
    ("scalar_to_array", lambda: ops.ScalarToArray()(2.5), lambda: np.array(2.5, np.float32)),
    ("where_python_scalars", lambda: ops.where(T(M > 5), 1.0, 0.0), lambda: (M > 5).astype(np.float32)),
]


@pytest.mark.parametrize("name,actual,expected", CASES, ids=[case[0] for case in CASES])
def test_matches_numpy(name, actual, expected):
    result, reference = actual(), np.asarray(expected())
    assert result.shape == reference.shape, name
    np.testing.assert_allclose(result.asnumpy(), reference, err_msg=name)


def test_dtypes_are_kept_or_promoted_as_mindspore():
    assert ops.cat([T(M), T(M.astype(np.int32))]).dtype == mstype.float32
    assert ops.where(T(M > 5), T(M.astype(np.int32)), 2.5).dtype == mstype.float32
    assert ops.masked_fill(T(M.astype(np.int32)), T(M > 5), 9.7).dtype == mstype.int32
    assert ops.gather(T(M.astype(np.float16)), T(np.array([0])), 0).dtype == mstype.float16
    assert ops.cast(1.5, mstype.int32).asnumpy() == 1


def test_layout_ops_work_under_jit_and_grad():
    def body(array):
        x = Tensor._wrap(array)
        y = ops.reshape(ops.transpose(x, (2, 0, 1)), (4, -1))
        parts = ops.split(y, [1, 3], 0)
        z = ops.concat([parts[1], ops.tile(parts[0], (1, 1))], 0)
        z = ops.strided_slice(z, (0, 0), (4, 6), (1, 2))
        z = ops.gather(z, Tensor._wrap(jnp.array([2, 0])), 1)
        return jnp.sum(ops.where(z > 1.5, z, ops.zeros_like(z))._value * jnp.arange(2.0))

    value = jnp.asarray(A)
    np.testing.assert_allclose(jax.jit(body)(value), body(value))
    grad = jax.grad(body)(value)
    assert grad.shape == A.shape and float(jnp.sum(grad)) > 0


@pytest.mark.parametrize("call,error,pattern", [
    (lambda: ops.reshape(T(M), (5, -1)), ValueError, "reshape.*12 elements"),
    (lambda: ops.reshape(T(M), (-1, -1)), ValueError, "at most one -1"),
    (lambda: ops.transpose(T(M), (0, 0)), ValueError, "permutation"),
    (lambda: ops.expand_dims(T(M), 3), ValueError, "expand_dims.*axis"),
    (lambda: ops.broadcast_to(T(M), (2, 4)), ValueError, "broadcast_to"),
    (lambda: ops.concat([T(M), T(A)]), ValueError, "concat.*tensors\\[1\\]"),
    (lambda: ops.stack([T(M), T(M[:2])]), ValueError, "stack.*shape"),
    (lambda: ops.slice(T(M), (0, 2), (3, 3)), ValueError, "slice"),
    (lambda: ops.strided_slice(T(M), (0,), (2,), (0,)), ValueError, "strides"),
    (lambda: ops.gather(T(M), T(np.array([0.5])), 0), TypeError, "gather.*integer"),
    (lambda: ops.one_hot(T(np.array([1])), -1), ValueError, "depth"),
    # MindSpore 2.10: on_value and off_value of one dtype (no promotion), and no Bool
    (lambda: ops.one_hot(T(np.array([1], np.int32)), 2, T(np.int32(1)), 0.5), TypeError, "one_hot.*same dtype"),
    (lambda: ops.one_hot(T(np.array([1], np.int32)), 2, True, False), TypeError, "one_hot.*on_value"),
    (lambda: ops.type_as(T(M), 1), TypeError, "type_as.*'other' must be a Tensor"),
    (lambda: ops.clip_by_norm(T(np.array([np.inf, 1.0], np.float32)), 1.0, 2.0, True), RuntimeError,
     "clip_by_norm.*non-finite"),
    (lambda: ops.masked_fill(T(M), T(M), 1.0), TypeError, "mask"),
    (lambda: ops.reshape([1, 2], (2,)), TypeError, "reshape.*'input' must be a Tensor"),
    (lambda: ops.tile(T(M), "2"), TypeError, "tile.*dims"),
    (lambda: ops.chunk(T(M), 0), ValueError, "chunks"),
    (lambda: ops.tril(T(M[0])), ValueError, "tril.*2 dimensions"),
    (lambda: ops.roll(T(M), (1, 2), 0), ValueError, "roll"),
    (lambda: ops.tile(T(M), (-1, 2)), ValueError, "tile.*non-negative"),
    (lambda: ops.where(T(np.array([True, False])), T(M), T(M)), ValueError, "where.*broadcast"),
    (lambda: ops.strided_slice(T(M), (0, 0, 0), (1, 1, 1), (1, 1, 1)), ValueError, "strided_slice.*3 axes"),
])
def test_bad_input_raises_a_clear_error(call, error, pattern):
    with pytest.raises(error, match=pattern):
        call()


def test_one_hot_primitive_leaves_on_and_off_at_their_defaults():
    # ``OneHot()(indices, depth)``: 1 and 0 (axis is an attribute, not the third input)
    np.testing.assert_array_equal(ops.OneHot()(T(np.array([1, 0], np.int32)), 2).asnumpy(), [[0, 1], [1, 0]])


def test_clip_by_norm_of_a_list_gives_a_tuple():
    # MindSpore 2.10 gives a tuple for a list or a tuple, one Tensor for one Tensor
    clipped = ops.clip_by_norm([T(np.array([3.0, 4.0], np.float32))], 1.0)
    assert isinstance(clipped, tuple) and isinstance(ops.clip_by_norm(clipped[0], 1.0), Tensor)


def test_value_dependent_ops_explain_under_jit():
    with pytest.raises(RuntimeError, match="nonzero.*PyNative"):
        jax.jit(lambda a: ops.nonzero(Tensor._wrap(a))._value)(jnp.ones(3))


def test_chunk_under_jit_needs_constant_chunks_and_dim():
    # MindSpore 2.10 (jit or a GRAPH_MODE Cell): "For ChunkView, the chunk (dims) is a unknown variable, which is not
    # supported now." (RuntimeError), where other settings compile or run eagerly; PyNative takes mutable values.
    import sporax as ms
    from sporax import mint

    x = T(np.arange(20, dtype=np.float32).reshape(10, 2))
    by_chunks = ms.jit(lambda x, chunks: mint.chunk(x, chunks, 0))
    by_dim = ms.jit(lambda x, dim: mint.chunk(x, 2, dim))
    with pytest.raises(RuntimeError, match="'chunks' is a unknown variable"):
        by_chunks(x, ms.mutable(2))
    with pytest.raises(RuntimeError, match="'axis' is a unknown variable"):
        by_dim(x, ms.mutable(0))
    pieces = mint.chunk(x, ms.mutable(2), ms.mutable(0))
    np.testing.assert_array_equal(pieces[1].asnumpy(), np.arange(10, 20).reshape(5, 2))
    assert len(by_chunks(x, 3)) == 3  # a plain int is a constant
    with pytest.raises(RuntimeError, match="'split_size_or_sections' is a unknown variable"):
        ms.jit(lambda x, size: ops.split(x, size, 0))(x, ms.mutable(1))  # MindSpore: "the output_num is ValueAny"


def test_an_axis_of_length_zero_unstacks_to_nothing():
    # MindSpore 2.10 gives () for both
    assert ops.unstack(T(np.zeros((0, 3), np.float32))) == ()
    assert ops.unbind(T(np.zeros((2, 0), np.float32)), 1) == ()


def test_squeeze_of_an_empty_axis_tuple_removes_every_size_one_axis():
    # MindSpore 2.10: ops.squeeze(x, ()) and ops.Squeeze(())(x) are both shape (3,) for a (1, 3, 1) input
    x = T(np.ones((1, 3, 1), np.float32))
    assert ops.squeeze(x, ()).shape == (3,) and ops.Squeeze(())(x).shape == (3,)
    assert ops.squeeze(x, (0, 1)).shape == (3, 1)  # axes whose size is not 1 are kept


def test_a_tensor_list_input_must_be_a_list():
    with pytest.raises(TypeError, match="concat.*'tensors' must be a non-empty tuple or list"):
        ops.concat(T(M))
    with pytest.raises(TypeError, match="stack.*'tensors' must be a non-empty tuple or list"):
        ops.stack([])
    with pytest.raises(TypeError, match="concat.*tensors\\[1\\]"):
        ops.concat([T(M), "x"])


def test_layout_ops_leave_no_nested_call_in_a_traced_program():
    """``inline`` entries: a compiled step holds the plain reshape/transpose/concatenate."""
    def body(array):
        x = Tensor._wrap(array)
        y = ops.concat([ops.reshape(ops.transpose(x, (1, 0)), (-1,)), ops.flatten(x, start_dim=0)])
        return ops.squeeze(ops.expand_dims(y, 0))._value

    jaxpr = jax.make_jaxpr(body)(jnp.asarray(M))
    names = [equation.primitive.name for equation in jaxpr.jaxpr.eqns]
    assert "pjit" not in names and "jit" not in names, names
    assert {"transpose", "reshape", "concatenate"} <= set(names)
