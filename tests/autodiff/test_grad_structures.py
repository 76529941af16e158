"""grad / value_and_grad output structures and values, as recorded from MindSpore 2.10.

The oracle ran the same functions (x=[1,2], y=[3,4], w=[0.5,2], b=[1]); each row is what it
returned, Tensors written as nested lists.
"""
import numpy as np
import pytest

from sporax.autodiff import get_grad, grad, value_and_grad
from sporax.core.parameter import Parameter
from tests.state.helpers import add, as_numpy, mul, tensor, total

x = tensor([1.0, 2.0])
y = tensor([3.0, 4.0])
w = Parameter(tensor([0.5, 2.0]), name="w")
b = Parameter(tensor([1.0]), name="b")


def f(x, y):
    return add(total(mul(x, y, w)), total(b))


def f2(x, y):
    return mul(x, y), add(x, y)


def faux(x, y):
    return total(mul(x, y, w)), add(x, y), x


def faux1(x):
    return mul(x, x), x


CASES = [
    ("grad pos0", lambda: grad(f)(x, y), [1.5, 8.0]),
    ("grad pos(0,) is a single Tensor", lambda: grad(f, (0,))(x, y), [1.5, 8.0]),
    ("grad pos(0,1)", lambda: grad(f, (0, 1))(x, y), ([1.5, 8.0], [0.5, 4.0])),
    ("grad weights list", lambda: grad(f, None, [w, b])(x, y), ([3.0, 8.0], [1.0])),
    ("grad single weight", lambda: grad(f, None, w)(x, y), [3.0, 8.0]),
    ("grad pos and one-weight list", lambda: grad(f, 0, [w])(x, y), ([1.5, 8.0], ([3.0, 8.0],))),
    ("grad both", lambda: grad(f, (0, 1), [w, b])(x, y), (([1.5, 8.0], [0.5, 4.0]), ([3.0, 8.0], [1.0]))),
    ("grad of tuple output sums", lambda: grad(f2)(x, y), [4.0, 5.0]),
    ("grad has_aux", lambda: grad(faux, 0, has_aux=True)(x, y), ([1.5, 8.0], ([4.0, 6.0], [1.0, 2.0]))),
    ("grad has_aux one aux is a tuple", lambda: grad(faux1, 0, has_aux=True)(x), ([2.0, 4.0], ([1.0, 2.0],))),
    ("grad has_aux weights", lambda: grad(faux, 0, [w], has_aux=True)(x, y),
     (([1.5, 8.0], ([3.0, 8.0],)), ([4.0, 6.0], [1.0, 2.0]))),
    ("value_and_grad", lambda: value_and_grad(f)(x, y), (18.5, [1.5, 8.0])),
    ("value_and_grad has_aux", lambda: value_and_grad(faux, 0, has_aux=True)(x, y),
     ((17.5, [4.0, 6.0], [1.0, 2.0]), [1.5, 8.0])),
    ("value_and_grad one aux", lambda: value_and_grad(faux1, 0, has_aux=True)(x),
     (([1.0, 4.0], [1.0, 2.0]), [2.0, 4.0])),
    ("value_and_grad weights has_aux (unused b gets zeros)",
     lambda: value_and_grad(faux, None, [w, b], has_aux=True)(x, y),
     ((17.5, [4.0, 6.0], [1.0, 2.0]), ([3.0, 8.0], [0.0]))),
    ("value_and_grad tuple output", lambda: value_and_grad(f2, (0, 1))(x, y),
     (([3.0, 8.0], [4.0, 6.0]), ([4.0, 5.0], [2.0, 3.0]))),
    ("return_ids both", lambda: grad(f, (0, 1), [w, b], return_ids=True)(x, y),
     (((0, [1.5, 8.0]), (1, [0.5, 4.0])), (("w", [3.0, 8.0]), ("b", [1.0])))),
    ("return_ids position and one weight", lambda: grad(f, 0, [w], return_ids=True)(x, y),
     ((0, [1.5, 8.0]), (("w", [3.0, 8.0]),))),
    ("return_ids only position", lambda: grad(f, 0, return_ids=True)(x, y), (0, [1.5, 8.0])),
    ("return_ids only weights", lambda: grad(f, None, [w, b], return_ids=True)(x, y),
     (("w", [3.0, 8.0]), ("b", [1.0]))),
    ("sens_param tuple output", lambda: grad(f2, 0, sens_param=True)(x, y, (tensor([1.0, 0.0]), tensor([0.0, 2.0]))),
     [3.0, 2.0]),
    ("value_and_grad sens_param", lambda: value_and_grad(f, 0, sens_param=True)(x, y, tensor(2.0)),
     (18.5, [3.0, 16.0])),
    ("grad of a 0-d input", lambda: grad(lambda a: mul(a, a))(tensor(3.0)), 6.0),
    ("second order", lambda: grad(grad(lambda a: total(mul(a, a, a))))(x), [6.0, 12.0]),
]


def _compare(actual, expected, name):
    if isinstance(expected, tuple):
        assert isinstance(actual, tuple), f"{name}: expected a tuple, got {type(actual).__name__}"
        assert len(actual) == len(expected), f"{name}: length {len(actual)} != {len(expected)}"
        for item, want in zip(actual, expected):
            _compare(item, want, name)
    elif isinstance(expected, (int, str)) and not isinstance(expected, bool) and not isinstance(expected, float):
        assert actual == expected, name
    else:
        np.testing.assert_allclose(as_numpy(actual), np.asarray(expected, np.float32), rtol=1e-6, err_msg=name)


@pytest.mark.parametrize("name,call,expected", CASES, ids=[case[0] for case in CASES])
def test_structure_matches_mindspore(name, call, expected):
    _compare(call(), expected, name)


def test_get_grad_by_position_and_parameter():
    gradients = grad(f, (0, 1), [w, b], return_ids=True)(x, y)
    np.testing.assert_allclose(get_grad(gradients, 1).asnumpy(), [0.5, 4.0])
    np.testing.assert_allclose(get_grad(gradients, w).asnumpy(), [3.0, 8.0])
    with pytest.raises(ValueError, match="get_grad"):
        get_grad(gradients, 5)


def test_errors_match_mindspore():
    with pytest.raises(ValueError, match="can not be None at the same time"):
        grad(f, None, None)
    with pytest.raises(RuntimeError, match="exceed input size"):
        grad(f, 5)(x, y)
    with pytest.raises(TypeError, match="weights"):
        grad(f, 0, ["not a parameter"])


@pytest.mark.parametrize("mode", ["PYNATIVE", "GRAPH"])
def test_a_function_without_inputs(mode):
    """Recorded on MindSpore 2.10 CPU (tests/st/pynative/jit/test_pynative_jit.py::test_jit_pyexecute calls
    GradOperation()(net)() on a construct without inputs): GradOperation()(g)() is () in both modes, also with
    sens_param; grad(g)() and grad(g, (0,))() are () and value_and_grad(g)() is (value, ()) in PyNative, while a
    graph (GRAPH_MODE, ms.jit) raises IndexError "Position index 0 is exceed input size." as it does for any
    position past the inputs (PyNative: RuntimeError)."""
    import sporax
    from sporax import context, jit, ops

    def g():
        return mul(x, x)

    previous = context.get_context("mode")
    context.set_context(mode=getattr(sporax, f"{mode}_MODE"))
    try:
        assert ops.GradOperation()(g)() == ()
        assert ops.GradOperation(sens_param=True)(g)(x) == ()
        gradients, weighted = ops.GradOperation(get_all=True, get_by_list=True)(lambda: mul(x, w), [w])()
        assert gradients == () and as_numpy(weighted[0]).tolist() == [1.0, 2.0]
        if mode == "PYNATIVE":
            assert grad(g)() == () and grad(g, (0,))() == ()
            value, gradients = value_and_grad(g)()
            assert as_numpy(value).tolist() == [1.0, 4.0] and gradients == ()
        for api in (grad, value_and_grad):
            if mode == "GRAPH":
                with pytest.raises(IndexError, match="position index 0 is exceed input size"):
                    api(g)()
            with pytest.raises(RuntimeError if mode == "PYNATIVE" else IndexError,
                               match="position index 1 is exceed input size"):
                api(f, 1)(x)
        with pytest.raises(IndexError, match="position index 1 is exceed input size"):
            jit(lambda a: grad(f, 1)(a))(x)
    finally:
        context.set_context(mode=previous)


def test_integer_input_gradient_is_the_derivative_cast_to_int():
    """As MindSpore: d(x*n)/dn for an int n is x's value cast to int (tests/autodiff/test_integer_gradients.py)."""
    gradients = grad(lambda a, n: mul(a, n), (0, 1))(x, tensor([2, 3], np.int32))
    np.testing.assert_allclose(gradients[0].asnumpy(), [2.0, 3.0])
    assert gradients[1].asnumpy().dtype == np.int32
    np.testing.assert_array_equal(gradients[1].asnumpy(), x.asnumpy().astype(np.int32))


@pytest.mark.parametrize("mode", ["PYNATIVE", "GRAPH"])
def test_sensitivity_for_outputs_that_are_no_tensors_is_ignored(mode):
    """MindSpore 2.10 (both modes) takes a sensitivity for a shape list or a Python number among the outputs and
    ignores it: a function returning only its input's shape has zero gradients; (3x, x.shape[0]) seeded with
    (2, 2) gives 6."""
    import sporax
    from sporax import Tensor, context, nn, ops

    class ShapeOut(nn.Cell):
        def construct(self, x):
            shape = list(x.shape)
            shape.insert(0, 7)
            return shape

    class Mixed(nn.Cell):
        def construct(self, x):
            return x * 3, x.shape[0]

    previous = context.get_context("mode")
    context.set_context(mode=getattr(sporax, f"{mode}_MODE"))
    try:
        grad_all = ops.GradOperation(get_all=True, sens_param=True)
        ones = Tensor(np.ones((2, 3), np.float32))
        assert as_numpy(grad_all(ShapeOut())(ones, [7, 2, 3])[0]).tolist() == [[0.0] * 3] * 2
        sens = (Tensor(np.full((2, 3), 2.0, np.float32)), 2)
        assert as_numpy(grad_all(Mixed())(ones, sens)[0]).tolist() == [[6.0] * 3] * 2
    finally:
        context.set_context(mode=previous)


@pytest.mark.parametrize("aux", [3, 2.5, True, None, "s"])
@pytest.mark.parametrize("api", [grad, value_and_grad])
def test_has_aux_refuses_a_lone_python_value_as_aux(api, aux):
    # MindSpore 2.10: RuntimeError for (loss, 3), (loss, None), (loss, 's'); (loss, (1, 2)), (loss, [x]),
    # (loss, (x, 3)) and (loss, x * 2, 'tag') are fine.
    with pytest.raises(RuntimeError, match="should be multi output"):
        api(lambda a: (total(mul(a, a)), aux), 0, has_aux=True)(x)


def test_has_aux_takes_python_values_in_a_sequence_or_after_a_tensor():
    gradient, aux = grad(lambda a: (total(mul(a, a)), (1, 2)), 0, has_aux=True)(x)
    assert as_numpy(gradient).tolist() == [2.0, 4.0] and aux == ((1, 2),)
    gradient, aux = grad(lambda a: (total(mul(a, a)), mul(a, a), "tag"), 0, has_aux=True)(x)
    assert as_numpy(aux[0]).tolist() == [1.0, 4.0] and aux[1] == "tag"


@pytest.mark.parametrize("api", [grad, value_and_grad])
@pytest.mark.parametrize("weights", [None, [w]])
def test_has_aux_refuses_a_function_of_one_output(api, weights):
    # Recorded on MindSpore 2.10 CPU (the custom-optimizer docs page's train_step): a single Tensor, or a
    # 1-tuple, under has_aux is "ValueError When has_aux is True, origin fn requires more than one outputs."
    # in PyNative, under ms.jit too; GRAPH_MODE reports it as RuntimeError.
    from sporax.core import context
    from sporax.graph import jit

    position = 0 if weights is None else None
    for fn in (lambda a: total(mul(a, a)), lambda a: (total(mul(a, a)),)):
        with pytest.raises(ValueError, match="^When has_aux is True, origin fn requires more than one outputs."):
            api(fn, position, weights, has_aux=True)(x)
    with pytest.raises(ValueError, match="origin fn requires more than one outputs"):
        jit(lambda a: api(lambda b: total(mul(b, b)), position, weights, has_aux=True)(a))(x)
    previous = context.get_context("mode")
    context.set_context(mode=context.GRAPH_MODE)
    try:
        with pytest.raises(RuntimeError, match="^When has_aux is True, origin fn requires more than one outputs."):
            api(lambda a: total(mul(a, a)), position, weights, has_aux=True)(x)
    finally:
        context.set_context(mode=previous)
