"""``op_table.primitive_named``: a MindSpore Primitive name (as MindIR stores it) resolves to sporax's class, and
MindSpore 2.x's Ext/scalar Primitives compute what their functional ops compute; a Primitive's attributes and
io names."""
import numpy as np
import pytest

from sporax import Tensor, ops
from sporax.ops.op_table import primitive_named as primitive_class

X = np.array([[1.5, -2.0, 0.25], [3.0, 0.5, -1.0]], np.float32)


def test_names_resolve_to_the_primitive_classes():
    assert primitive_class("Conv2D") is ops.Conv2D
    assert primitive_class("ReduceMean") is ops.ReduceMean
    assert primitive_class("SumExt")().name == "SumExt"
    assert primitive_class("NoSuchPrimitive") is None
    assert primitive_class("conv2d") is None  # functional ops are not Primitive classes


@pytest.mark.parametrize("name, arguments, expected", [
    ("Muls", (2.0,), X * 2), ("Divs", (4.0,), X / 4), ("AddScalar", (1.0, 2), X + 2),
    ("SubExt", (Tensor(X), 3), X - 3 * X), ("SumExt", ((1,), True), X.sum(1, keepdims=True)),
    ("MeanExt", (None,), X.mean()), ("Max", (), X.max()), ("Min", (), X.min()),
    ("MatMulExt", (Tensor(X.T),), X @ X.T), ("ClampScalar", (-1.0, 1.0), np.clip(X, -1, 1)),
    ("SiLU", (), X / (1 + np.exp(-X))), ("TensorMove", (), X), ("Copy", (), X), ("Narrow", (1, 1, 2), X[:, 1:3]),
    ("Norm", (2.0, 1), np.sqrt((X ** 2).sum(1))), ("TExt", (), X.T),
])
def test_ext_primitives_match_numpy(name, arguments, expected):
    out = primitive_class(name)()(Tensor(X), *arguments)
    np.testing.assert_allclose(out.asnumpy(), expected, rtol=1e-6)


def test_split_views_return_pieces():
    first, second = primitive_class("SplitTensorView")()(Tensor(X), 1, 0)
    np.testing.assert_array_equal(second.asnumpy(), X[1:])
    assert primitive_class("ScalarMul")()(3, 4) == 12


def test_user_data_round_trips_and_a_missing_key_names_itself():
    cast = ops.Cast()
    payload = Tensor(X)
    cast.set_user_data("__user_data__", payload)
    assert cast.get_user_data("__user_data__") is payload
    np.testing.assert_array_equal(cast(payload, payload.dtype).asnumpy(), X)  # the data leaves the op unchanged
    with pytest.raises(RuntimeError, match="no user data under key 'other'"):
        cast.get_user_data("other")


class _Custom(ops.PrimitiveWithInfer):
    """A library's custom Primitive: its io names in ``__init__``, as MindSpore's own older ones."""

    @ops.prim_attr_register
    def __init__(self, k=2):
        self.init_prim_io_names(inputs=["x", "y"], outputs=["out"])


def test_custom_primitive_io_names_and_attribute_changes_as_mindspore():
    # Recorded on MindSpore 2.10 (/tmp/semantics22-x/prim_io*.py).
    custom = _Custom()
    assert custom.attrs == {"k": 2, "input_names": ["x", "y"], "output_names": ["out"]}
    assert (custom.input_names, custom.output_names, custom.k) == (["x", "y"], ["out"], 2)
    assert custom.add_prim_attr("foo", 3) is custom and (custom.foo, custom.attrs["foo"]) == (3, 3)
    assert custom.add_prim_attr("k", 5).k == 5  # the attribute follows add_prim_attr
    custom.k = 7
    assert custom.attrs["k"] == 5  # ... but not the other way round
    assert custom.del_prim_attr("k") is custom and "k" not in custom.attrs and not hasattr(custom, "k")
    custom.del_prim_attr("absent")  # nothing to delete: no error
    custom.attrs["z"] = 1
    assert custom.z == 1  # an attribute only in attrs reads from there
    with pytest.raises(AttributeError, match=r"^'_Custom' object has no attribute 'nothing'$"):
        custom.nothing
    assert repr(custom) == "Prim[_Custom]<foo=3, z=1>"
    # names are kept as given (a tuple, a bare string); a plain Primitive has none until it is given them
    plain = ops.Primitive("Q")
    assert plain.attrs == {} and not hasattr(plain, "input_names")
    assert plain.init_prim_io_names(inputs="x", outputs=("y",)) is None
    assert plain.attrs == {"input_names": "x", "output_names": ("y",)}
    # MindSpore shadows the method with the recorded value; generated Primitives keep no io names in attrs
    relu = ops.ReLU()
    assert relu.recompute() is relu and relu.recompute is True and relu.attrs == {"recompute": True}


# Recorded on MindSpore 2.10 (CPU): its generated Primitives store these attributes converted (``attrs`` too).
@pytest.mark.parametrize("build, attribute, expected", [
    (lambda: ops.Squeeze(1), "axis", (1,)), (lambda: ops.Squeeze([1, 2]), "axis", (1, 2)),
    (lambda: ops.Squeeze(), "axis", ()), (lambda: ops.Softmax(), "axis", (-1,)), (lambda: ops.Softmax(1), "axis", (1,)),
    (lambda: ops.BroadcastTo([2, 3]), "shape", (2, 3)), (lambda: ops.ReverseV2([0]), "axis", (0,)),
    (lambda: ops.Roll(1, 0), "shifts", (1,)), (lambda: ops.Roll([1, 2], [0, 1]), "dims", (0, 1)),
    (lambda: ops.ResizeNearestNeighbor([2, 3]), "size", (2, 3)), (lambda: ops.HShrink(True), "lambd", 1.0),
    (lambda: ops.SoftShrink(1), "lambd", 1.0), (lambda: ops.SmoothL1Loss(2), "beta", 2.0),
    (lambda: ops.IsClose(rtol=1, atol=0), "atol", 0.0), (lambda: ops.NanToNum(posinf=1), "posinf", 1.0),
    (lambda: ops.NanToNum(), "neginf", None), (lambda: ops.CeLU(2), "alpha", 2),
    (lambda: ops.ReduceStd(1), "axis", (1,)), (lambda: ops.ReduceStd([0, 1]), "axis", (0, 1)),
    (lambda: ops.ReduceStd(), "axis", ()),
])
def test_generated_primitive_attributes_have_mindspores_types(build, attribute, expected):
    primitive = build()
    value = getattr(primitive, attribute)
    assert (type(value), value) == (type(expected), expected)
    assert primitive.attrs[attribute] == expected


def test_generated_primitive_attribute_of_a_wrong_type_is_mindspores_type_error():
    with pytest.raises(TypeError, match=r"For 'Squeeze', the type of 'axis' should be one of '\[list of int, int, "
                                        r"tuple of int\]', but got <class 'str'>"):
        ops.Squeeze("a")
    with pytest.raises(TypeError, match=r"For 'HShrink', the type of 'lambd' should be one of '\[bool, int, float\]'"):
        ops.HShrink("a")
    # the stored tuple still computes the op
    np.testing.assert_allclose(ops.Softmax(0)(Tensor(X)).asnumpy(), np.exp(X) / np.exp(X).sum(0), rtol=1e-6)
    assert ops.Squeeze(1)(Tensor(X[:, :1])).shape == (2,)
