"""Dict keys and ``with`` statements in compiled code: in ``ms.jit`` functions and GRAPH_MODE Cells sporax raises
MindSpore 2.10's errors (types and messages recorded from MindSpore 2.10 on CPU); PyNative runs plain Python."""
import contextlib
import os
import re

import numpy as np
import pytest

import sporax as ms
from sporax import nn
from sporax.core.tensor import Tensor

X = Tensor(np.array([1], np.int64))


@pytest.fixture
def graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


# ---- a missing key: MindSpore's ValueError, the dict shown as its graph prints it ----

def _missing(d):
    return d['c']


@pytest.mark.parametrize("mapping,key,shown", [
    ({'a': 1, 'b': 2}, 'c', "{'a': 1, 'b': 2}"),
    ({1: 'a', 2: 3.5}, 3, "{'1': a, '2': 3.5}"),
    ({(1, 2): 'a'}, (1, 3), "{'(1, 2)': a}"),
    ({'a': [1, 2], 'b': (3, 'x'), 'c': None}, 'e', "{'a': [1, 2], 'b': (3, x), 'c': None}"),
    ({}, 'e', "{}"),
    ({'a': 1.5, 'b': True}, 'e', "{'a': 1.5, 'b': true}"),
])
def test_missing_key_in_a_dict_built_in_jit(mapping, key, shown):
    @ms.jit
    def lookup(x):
        d = dict(mapping)
        return x + d[key]

    key_text = str(key) if not isinstance(key, str) else key
    with pytest.raises(ValueError, match="^" + re.escape(f"The key {key_text} does not exist in the dict:{shown}")):
        lookup(X)


def test_missing_key_of_an_argument_dict_and_a_tensor_value():
    @ms.jit
    def lookup(x, d):
        return d['z']

    with pytest.raises(ValueError, match=r"^The key z does not exist in the dict:\{'a': 1\}"):
        lookup(X, {'a': 1})

    @ms.jit
    def with_tensor_value(x):
        d = {'a': x, 'b': 2}
        return d['c']

    # MindSpore's graph shows a dict holding a computed Tensor as 'ValueAny'
    with pytest.raises(ValueError, match=r"^The key c does not exist in the dict:ValueAny"):
        with_tensor_value(X)


def test_missing_key_in_a_graph_mode_cell_and_in_a_tensor_branch(graph_mode):
    class Net(nn.Cell):
        def construct(self, x):
            d = {'a': 1}
            return x + d['c']

    with pytest.raises(ValueError, match=r"^The key c does not exist in the dict:\{'a': 1\}"):
        Net()(X)

    @ms.jit
    def in_branch(x):
        d = {'a': 1}
        return d['c'] if x > 0 else 2

    with pytest.raises(ValueError, match=r"^The key c does not exist in the dict:\{'a': 1\}"):
        in_branch(X)


def test_present_keys_get_and_pop_keep_python():
    @ms.jit
    def reads(x):
        d = {'a': 1}
        d['b'] = x
        k = 'a'
        return d['b'] + d[k], d.get('c'), d.get('c', 5)

    out, missing, default = reads(X)
    assert out.asnumpy().tolist() == [2] and missing is None and default == 5

    @ms.jit
    def pops(x):
        d = {'a': 1}
        return d.pop('b')

    with pytest.raises(KeyError, match="'b'"):  # MindSpore 2.10: KeyError 'b' too
        pops(X)


def test_pynative_keeps_python_key_error():
    class Net(nn.Cell):
        def construct(self, x):
            d = {'a': 1}
            return x + d['c']

    with pytest.raises(KeyError):
        Net()(X)


# ---- a traced Tensor as a key: MindSpore's RuntimeError; a constant Tensor is a valid key ----

def test_traced_tensor_key_builds_or_indexes_no_dict(graph_mode):
    class Builds(nn.Cell):
        def construct(self, x):
            return {x: 1}

    with pytest.raises(RuntimeError, match="^make_dict evaluator key only supports string, number, type, none, "
                                           "constant tensor and tuple, but got ValueAny"):
        Builds()(X)

    @ms.jit
    def indexes(x, d):
        return d[x]

    with pytest.raises(RuntimeError, match="^dict_getitem evaluator key only supports string, number, type, none, "
                                           "constant tensor and tuple, but got ValueAny"):
        indexes(X, {'a': 1})


def test_constant_tensor_key_is_valid():
    @ms.jit
    def constant_key(x):
        t = ms.tensor([1])
        d = {t: 1}
        return d[t]

    assert constant_key(X) == 1


def test_pynative_tensor_key():
    class Builds(nn.Cell):
        def construct(self, x):
            return {x: 1}[x]

    assert Builds()(X) == 1


# ---- 'with': only @jit_class instances; a context made by calling a non-class fails before the call ----

class PlainContext:
    def __enter__(self):
        return 3

    def __exit__(self, *exc):
        return False


@ms.jit_class
class JitContext:
    def __enter__(self):
        return 3

    def __exit__(self, *exc):
        return False


class JitContextChild(JitContext):
    pass


def test_with_jit_class_instances():
    @ms.jit
    def made_here(x):
        with JitContext() as v:
            y = x + v
        return y

    @ms.jit
    def subclass(x):
        with JitContextChild() as v:
            y = x + v
        return y

    assert made_here(X).asnumpy().tolist() == [4] and subclass(X).asnumpy().tolist() == [4]


def test_with_other_objects_raises_as_mindspore(graph_mode):
    plain = PlainContext()

    @ms.jit
    def plain_global(x):
        with plain as v:
            y = x + v
        return y

    @ms.jit
    def suppressing(x):
        with contextlib.suppress(ValueError):
            y = x + 1
        return y

    match = r"^Only support jit_class instance, but got PythonObject\(type: <class '{}'>, value: <"
    with pytest.raises(TypeError, match=match.format(f"{__name__}.PlainContext")):
        plain_global(X)
    with pytest.raises(TypeError, match=match.format("contextlib.suppress")):
        suppressing(X)

    class CellContext(nn.Cell):
        def __enter__(self):
            return 3

        def __exit__(self, *exc):
            return False

        def construct(self, x):
            with self as v:
                y = x + v
            return y

    with pytest.raises(TypeError, match=r"^Only support jit_class instance, but got ValueAny"):
        CellContext()(X)


def test_with_open_raises_before_opening(graph_mode, tmp_path):
    path = str(tmp_path / "written.txt")

    class Writes(nn.Cell):
        def construct(self, x):
            with open(path, "w") as f:
                f.write("hi")
            return x + 1

    with pytest.raises(TypeError, match=r"^issubclass\(\) arg 1 must be a class"):
        Writes()(X)
    assert not os.path.exists(path)  # MindSpore 2.10 opens no file either

    def make():
        return JitContext()

    @ms.jit
    def factory(x):
        with make() as v:
            y = x + v
        return y

    with pytest.raises(TypeError, match=r"^issubclass\(\) arg 1 must be a class"):
        factory(X)


def test_pynative_with_open_runs(tmp_path):
    path = tmp_path / "read.txt"
    path.write_text("abc")

    class Reads(nn.Cell):
        def construct(self, x):
            with open(str(path)) as f:
                text = f.read()
            return x + len(text)

    assert Reads()(X).asnumpy().tolist() == [4]


def test_dict_update_with_keywords_is_the_graph_call_error():
    """MindSpore 2.10 (ms.jit and GRAPH_MODE): ``d.update(z=v)`` raises RuntimeError "Got an unexpected keyword
    argument 'z'", as a statement and inside an expression; ``d.update({...})`` runs."""
    @ms.jit
    def statement(x):
        d = {"x": x}
        d.update({"y": x}, z=x)
        return d

    @ms.jit
    def expression(x):
        d = {"x": x}
        return d.update(z=x), d

    @ms.jit
    def positional(x):
        d = {"x": x}
        d.update({"y": x * 2})
        return d["y"]

    x = Tensor(np.ones(2, np.float32))
    for function in (statement, expression):
        with pytest.raises(RuntimeError, match="Got an unexpected keyword argument 'z'"):
            function(x)
    assert positional(x).asnumpy().tolist() == [2.0, 2.0]
