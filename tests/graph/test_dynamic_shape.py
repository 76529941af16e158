"""``enable_dynamic``: declared dynamic dimensions, checked on every call."""
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor


def _dynamic():
    @ms.jit
    @ms.enable_dynamic(x=Tensor(shape=[None, 2], dtype=ms.float32), pair=[Tensor(shape=[None], dtype=ms.int32)])
    def function(x, pair, scale=2):
        return x * scale, pair[0] + 1

    return function


def test_calls_that_fit_run_for_any_size():
    function = _dynamic()
    for rows in (1, 3):
        out, counts = function(Tensor(np.ones((rows, 2), np.float32)), [Tensor(np.arange(rows, dtype=np.int32))])
        np.testing.assert_array_equal(out.asnumpy(), np.full((rows, 2), 2.0))
        np.testing.assert_array_equal(counts.asnumpy(), np.arange(rows) + 1)


@pytest.mark.parametrize("x, pair, error", [
    (np.ones((3, 3), np.float32), [np.arange(3, dtype=np.int32)], ValueError),   # fixed dimension differs
    (np.ones((3,), np.float32), [np.arange(3, dtype=np.int32)], ValueError),     # rank differs
    (np.ones((3, 2), np.float16), [np.arange(3, dtype=np.int32)], TypeError),    # dtype differs (as MindSpore)
])
def test_calls_that_do_not_fit_are_refused(x, pair, error):
    with pytest.raises(error, match="declared by enable_dynamic"):
        _dynamic()(Tensor(x), [Tensor(p) for p in pair])


@pytest.mark.parametrize("kwargs, error, message", [
    ({}, ValueError, "cannot be empty"),
    ({"x": 3}, TypeError, "must be Tensor"),
    ({"x": Tensor(np.ones((2, 2), np.float32))}, TypeError, "at least have one None"),
])
def test_bad_declarations(kwargs, error, message):
    with pytest.raises(error, match=message):
        ms.enable_dynamic(**kwargs)


def test_enable_dynamic_over_jit_with_a_dynamic_rank():
    # MindSpore's enable_dynamic docstring: @enable_dynamic(y=Tensor(shape=None, ...)) over @jit. Recorded on
    # MindSpore 2.10: Tensor(shape=None) has shape (-2,), any rank fits, another dtype is a TypeError.
    assert Tensor(shape=None, dtype=ms.float32).shape == (-2,)

    @ms.enable_dynamic(y=Tensor(shape=None, dtype=ms.float32))
    @ms.jit
    def func(x, y):
        return x + 1, y + 1

    x = Tensor(np.ones((2, 3), np.float32))
    for shape in ((2, 3), (4,)):
        out = func(x, Tensor(np.full(shape, 2.0, np.float32)))
        assert out[1].shape == shape and np.array_equal(out[1].asnumpy(), np.full(shape, 3.0, np.float32))
    with pytest.raises(TypeError, match="declared by enable_dynamic"):
        func(x, Tensor(np.ones((4,), np.int32)))


def test_bad_targets():
    decorator = ms.enable_dynamic(y=Tensor(shape=[None], dtype=ms.float32))
    with pytest.raises(ValueError, match="function or method"):
        decorator(3)
    with pytest.raises(ValueError, match="not arguments of"):
        decorator(lambda x: x)


class _Add(ms.nn.Cell):
    def construct(self, x, y):
        return x + y


class _JitAdd(ms.nn.Cell):
    @ms.jit
    def construct(self, x, y):
        return x + y


def _ones(*shape, dtype=np.float32):
    return Tensor(np.ones(shape, dtype))


SET_INPUTS_REFUSALS = [  # MindSpore 2.10's errors (CPU), positions from 1
    ([2, None], (_ones(2, 3), _ones(1, 3)), ValueError, "the shape of 2th input must be the same as expected, "
                                                        "but got expected: 2, and input: 1!"),
    ([None, 3], (_ones(2, 3), _ones(2, 4)), ValueError, "the shape of 2th input must be the same as expected, "
                                                        "but got expected: 3, and input: 4!"),
    ([None, 3], (_ones(2, 3), _ones(3)), ValueError, "the dims of 2th input must be the same as expected, "
                                                     "but got expected: 2, and input: 1!"),
    ([None, 3], (_ones(2, 3), _ones(2, 3, dtype=np.int32)), TypeError,
     "the 2th type should be Tensor[Float32], but got Tensor[Int32]!"),
    ([None, 3], (_ones(2, 3), 1.0), TypeError, "the 2th should be mutable one, but got static!"),
]


@pytest.mark.parametrize("shape, args, error, message", SET_INPUTS_REFUSALS)
def test_set_inputs_refuses_a_graph_call_that_does_not_fit(shape, args, error, message):
    previous = ms.get_context("mode")
    try:
        ms.set_context(mode=ms.GRAPH_MODE)
        net = _Add()
        net.set_inputs(Tensor(shape=shape, dtype=ms.float32), Tensor(shape=shape, dtype=ms.float32))
        with pytest.raises(error) as raised:
            net(*args)
        assert str(raised.value) == "For set_inputs " + ("or" if error is TypeError else "and") + \
            " tuple(list) in set_inputs, " + message
    finally:
        ms.set_context(mode=previous)


def test_set_inputs_checks_a_jitted_construct_not_a_pynative_one():
    spec = (Tensor(shape=[None, 3], dtype=ms.float32), Tensor(shape=[None, 3], dtype=ms.float32))
    jitted = _JitAdd()
    jitted.set_inputs(*spec)
    with pytest.raises(ValueError, match="expected: 3, and input: 4!"):
        jitted(_ones(2, 3), _ones(2, 4))
    assert jitted(_ones(5, 3), _ones(5, 3)).shape == (5, 3)
    pynative = _Add()
    pynative.set_inputs(*spec)
    # MindSpore 2.10's PyNative runs it: an Int32 argument is added as given
    assert pynative(_ones(2, 3), _ones(2, 3, dtype=np.int32)).shape == (2, 3)
    with pytest.raises(ValueError, match="broadcast"):  # the op's own error, not set_inputs'
        pynative(_ones(2, 3), _ones(2, 4))


def test_set_inputs_shape_none_and_symbols_take_any_size():
    previous = ms.get_context("mode")
    try:
        ms.set_context(mode=ms.GRAPH_MODE)
        net = _Add()
        net.set_inputs(Tensor(shape=None, dtype=ms.float32), Tensor(shape=[ms.Symbol(), ms.Symbol()], dtype=ms.float32))
        assert net(_ones(2, 3), _ones(2, 3)).shape == (2, 3)
        assert net(_ones(4, 5), _ones(4, 5)).shape == (4, 5)
    finally:
        ms.set_context(mode=previous)
