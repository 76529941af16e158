"""Creating instances and calling builtins in compiled code: MindSpore 2.10's refusals
(graph.control_flow.instance_creation, sequences; nn.Cell.construct).

Every error type and message start below was printed by MindSpore 2.10 (CPU, ``ms.jit``; GRAPH_MODE for Cells).
"""
import numpy as np
import pytest

import sporax as ms
from sporax import Parameter, Tensor, nn
from tests.graph.test_in_place_arguments import graph_mode  # noqa: F401 - the GRAPH_MODE fixture


def _ones():
    return Tensor(np.ones(3, np.float32))


_PARAMETER = ("Failed to compile in GRAPH_MODE because creating class 'mindspore.common.parameter.Parameter' "
              "instances is not supported in 'construct' or @jit decorated function.")


def test_creating_a_parameter_in_a_jit_function_raises_value_error():
    @ms.jit
    def make(x):
        p = Parameter(Tensor(np.ones(2, np.float32)), name="p")
        return x + p.sum()

    with pytest.raises(ValueError) as error:
        make(_ones())
    assert str(error.value).startswith(_PARAMETER)


def test_creating_a_parameter_in_construct_raises_value_error(graph_mode):
    class Make(nn.Cell):
        def construct(self, x):
            return ms.Parameter(x, name="q")

    with pytest.raises(ValueError) as error:
        Make()(_ones())
    assert str(error.value).startswith(_PARAMETER)


def test_a_parameter_created_in_pynative_is_fine():
    class Make(nn.Cell):
        def construct(self, x):
            return Parameter(x, name="q") * 2

    assert Make()(_ones()).asnumpy().tolist() == [2, 2, 2]


@ms.jit_class
class _Doubler:
    def __init__(self, v, w=1):
        self.v = v
        self.w = w

    def get(self):
        return self.v * 2


def test_a_jit_class_instance_of_a_traced_tensor_raises_type_error():
    @ms.jit
    def positional(x):
        return _Doubler(1, x).get()

    @ms.jit
    def keyword(x):
        return _Doubler(1, w=x).get()

    @ms.jit
    def computed(x):
        return _Doubler(x + 1).get()

    start = "When creating an instance of '_Doubler', all arguments are required to be constants, but input "
    with pytest.raises(TypeError) as error:
        positional(_ones())
    assert str(error.value).startswith(start + "1 is a variable, which is AbstractTensor(shape: (3), element: "
                                       "AbstractScalar(Type: Float32, Value: ValueAny, Shape: NoShape)")
    with pytest.raises(TypeError) as error:
        keyword(_ones())
    assert str(error.value).startswith(start + "1 is a variable, which is AbstractKeywordArg(key: w, value: "
                                       "AbstractTensor(shape: (3)")
    with pytest.raises(TypeError) as error:
        computed(_ones())
    assert str(error.value).startswith(start + "0 is a variable")


def test_a_jit_class_instance_of_constants_and_a_plain_class_of_a_tensor_are_fine():
    class Plain:
        def __init__(self, v):
            self.v = v

    @ms.jit
    def constants(x):
        made = _Doubler(Tensor([1.0]))
        sized = _Doubler(x.shape[0])
        return made.get() + sized.get() + x

    @ms.jit
    def plain(x):
        return Plain(x).v * 3

    # MindSpore 2.10: [9. 9. 9.] (2 + 6 + 1) and [3. 3. 3.]
    assert constants(_ones()).asnumpy().tolist() == [9, 9, 9]
    assert plain(_ones()).asnumpy().tolist() == [3, 3, 3]


def _max_key(x):
    return max([1, 2, 3], key=lambda a: -a)


def _min_default(x):
    return min([1], default=4)


def _max_of_two_key(x):
    return max(1, 2, key=abs)


@pytest.mark.parametrize("function, keyword, python", [(_max_key, "key", 1), (_min_default, "default", 1),
                                                       (_max_of_two_key, "key", 2)])
def test_builtin_max_min_with_a_keyword_raise_runtime_error_in_jit(function, keyword, python):
    assert function(_ones()) == python  # PyNative: Python's builtins
    with pytest.raises(RuntimeError, match=f"^Got an unexpected keyword argument '{keyword}'"):
        ms.jit(function)(_ones())


class _NoConstruct(nn.Cell):
    pass


def test_a_cell_without_construct_raises_mindspores_attribute_error():
    """PyNative/Graph difference: MindSpore's graph raises the same text quoted."""
    with pytest.raises(AttributeError, match=r"^For 'Cell', the method 'construct' is not defined\. "):
        _NoConstruct()(_ones())
    with pytest.raises(AttributeError, match=r"^'For 'Cell', the method 'construct' is not defined\.' "):
        ms.jit(_NoConstruct())(_ones())


def test_a_cell_without_construct_in_graph_mode_raises_the_quoted_text(graph_mode):
    class Wrap(nn.Cell):
        def __init__(self):
            super().__init__()
            self.inner = _NoConstruct()

        def construct(self, x):
            return self.inner(x)

    with pytest.raises(AttributeError, match=r"^'For 'Cell', the method 'construct' is not defined\.' "):
        Wrap()(_ones())
