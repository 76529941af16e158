"""ops' graph-IR helpers (J, hastype, isconstant, distribute/array_reduce, the gradient environment, registries,
recompute_block) with the meaning they have in MindSpore's graphs; values against NumPy."""
import numpy as np
import pytest

import sporax as ms
from sporax import Parameter, Tensor, ops


def _t(values, dtype=np.float32):
    return Tensor(np.asarray(values, dtype))


def test_j_returns_the_output_and_a_backpropagator_matching_the_analytic_gradient():
    x = np.array([1.0, -2.0, 3.0], np.float32)
    output, backpropagator = ops.J(lambda t: (t * t * t).sum())(_t(x))
    assert float(output) == pytest.approx(float((x ** 3).sum()))
    (grad,) = backpropagator(_t(2.0))
    np.testing.assert_allclose(grad.asnumpy(), 2 * 3 * x ** 2, rtol=1e-6)


def test_hastype_checks_the_mindspore_type_of_a_value():
    x = _t([1.0])
    assert ops.hastype(x, ms.tensor_type) and ops.hastype(x, ms.tensor_type(ms.float32))
    assert not ops.hastype(x, ms.tensor_type(ms.int32)) and not ops.hastype(x, ms.number)
    assert ops.hastype(3, ms.int64) and ops.hastype(3.0, ms.number) and not ops.hastype(3.0, ms.int64)
    assert ops.hastype((1,), ms.tuple_) and not ops.hastype((1,), ms.list_) and ops.hastype(None, ms.type_none)
    with pytest.raises(TypeError, match="hastype.*MindSpore type"):
        ops.hastype(x, Tensor)


def test_isconstant_is_false_for_traced_values_only():
    x = _t([1.0, 2.0])
    assert ops.isconstant(x) and ops.isconstant((1, x))

    @ms.jit
    def traced(t):
        # returned, not appended to an outside list: MindSpore's graph drops an append nothing reads
        return t, ops.isconstant(t), ops.is_sequence_value_unknown((t, 1))

    _, constant, unknown = traced(x)
    assert (constant, unknown) == (False, True)
    assert not ops.is_sequence_value_unknown((1, 2)) and not ops.is_sequence_shape_unknown([1])
    assert not ops.is_dynamic_sequence_element_unknown((1,))


def test_distribute_and_array_reduce_are_broadcast_and_its_reduction():
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    np.testing.assert_array_equal(ops.distribute(_t([1.0, 2.0, 3.0]), (2, 3)).asnumpy(), [[1, 2, 3], [1, 2, 3]])
    np.testing.assert_array_equal(ops.array_reduce(ops.add, _t(x), (1, 3)).asnumpy(), x.sum(0, keepdims=True))
    np.testing.assert_array_equal(ops.array_reduce(ops.maximum, _t(x), (2, 1)).asnumpy(), x.max(1, keepdims=True))
    np.testing.assert_array_equal(ops.array_reduce(ops.add, _t(x), (3,)).asnumpy(), x.sum(0))
    with pytest.raises(ValueError, match="array_reduce.*broadcast"):
        ops.array_reduce(ops.add, _t(x), (4,))


def test_the_gradient_environment_maps_parameters_to_values():
    weight = Parameter(_t([1.0, 2.0]), name="w")
    other = Parameter(_t([0.0]), name="b")
    env = ops.environ_set(ops.environ_create(), ops.ref_to_embed(weight), _t([3.0, 4.0]))
    np.testing.assert_array_equal(ops.env_get(env, weight).asnumpy(), [3.0, 4.0])
    np.testing.assert_array_equal(ops.env_get(env, other).asnumpy(), [0.0])  # none held: zeros like it
    both = ops.environ_add(env, ops.environ_set(ops.environ_create(), ops.embed(weight), _t([1.0, 1.0])))
    np.testing.assert_array_equal(ops.environ_get(both, ops.ref_to_embed(weight), None).asnumpy(), [4.0, 5.0])
    with pytest.raises(TypeError, match="EnvironSet.*ref_to_embed"):
        ops.environ_set(env, "w", _t([1.0]))


def test_scalar_iteration_and_condition_helpers():
    assert ops.array_to_scalar(_t(2.5)) == 2.5
    assert [r.asnumpy().tolist() for r in ops.iter_converter(_t([[1, 2], [3, 4]]))] == [[1, 2], [3, 4]]
    assert ops.iter_converter({"a": 1, "b": 2}) == ("a", "b")
    assert ops.is_tensor_bool_cond(_t([1.0]))
    with pytest.raises(ValueError, match=r"shape is \(\) or \(1,\)"):
        ops.is_tensor_bool_cond(_t([1.0, 2.0]))


def test_row_tensor_add_adds_the_dense_tensor_to_the_slices():
    row = ms.RowTensor(Tensor(np.array([0, 2], np.int32)), _t([[1, 2], [3, 4]]), (3, 2))
    result = ops.row_tensor_add(row, _t([10.0, 20.0]))
    np.testing.assert_array_equal(result.values.asnumpy(), [[11, 22], [13, 24]])
    assert result.dense_shape == (3, 2)


def test_registries_and_vm_implementations():
    x = _t([1.0, -2.0])
    np.testing.assert_array_equal(ops.get_vm_impl_fn(ops.Add())(x, x).asnumpy(), [2.0, -4.0])
    np.testing.assert_array_equal(ops.get_vm_impl_fn("ReLU")(x).asnumpy(), [1.0, 0.0])
    assert ops.get_vm_impl_fn("NoSuchPrimitive") is None
    # MindSpore 2.10 (get_vm_impl_fn's docstring): the registered function is a factory, called with the
    # Primitive (or its name) to give the implementation; get_vm_impl_fn("Type")(1.0) is <class 'float'>.
    made_for = []
    ops.vm_impl_registry.register("MyDouble", lambda prim: made_for.append(prim) or (lambda t: t * 2))
    try:
        np.testing.assert_array_equal(ops.get_vm_impl_fn("MyDouble")(x).asnumpy(), [2.0, -4.0])
        assert made_for == ["MyDouble"]
    finally:
        ops.vm_impl_registry.pop("MyDouble")
    assert ops.tensor_operator_registry.get("add") is ops.add


def test_prim_arg_register_makes_arguments_attributes():
    class Scale(ops.PrimitiveWithCheck):
        @ops.prim_arg_register
        def __init__(self, factor=2.0, bias=0):
            pass

    scale = Scale(bias=1)
    assert (scale.name, scale.factor, scale.bias, scale.init_attrs) == ("Scale", 2.0, 1, {"factor": 2.0, "bias": 1})


def test_recompute_block_gives_the_gradient_of_the_block():
    dense = ms.nn.Dense(3, 2)
    x = _t([[1.0, -2.0, 0.5]])

    def loss(block_call, t):
        return (block_call(t) ** 2).sum()

    plain = ms.grad(lambda t: loss(dense, t))(x)
    recomputed = ms.grad(lambda t: loss(ops.recompute_block(dense), t))(x)
    np.testing.assert_allclose(recomputed.asnumpy(), plain.asnumpy(), rtol=1e-6)
    with pytest.raises(TypeError, match="recompute_block"):
        ops.recompute_block(3)
