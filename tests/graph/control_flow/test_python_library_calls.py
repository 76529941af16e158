"""Functions of Python's standard library called from compiled code run as Python runs them.

MindSpore 2.10's graph compiler does not parse the standard library: it interprets such a call (its JIT Fallback).
``copy.deepcopy`` looks its memo dict up inside ``try: ... except KeyError``; converted like a user's function,
that lookup would raise the compiled code's error instead. Values recorded on MindSpore 2.10 (CPU), both modes.
"""
import copy

import numpy as np
import pytest

import sporax as ms
from sporax import Tensor
from sporax.graph.control_flow.interpreted_calls import python_library

MODES = [ms.GRAPH_MODE, ms.PYNATIVE_MODE]


class _Forwarder:
    """A jit method that calls its instance: the instance may be any callable (``self`` is not checked)."""

    @ms.jit
    def forward(self, *args, **kwargs):
        return self(*args, **kwargs)


def _plain_forward(*args, **kwargs):
    return _Forwarder.forward(*args, **kwargs)


@pytest.fixture(params=MODES, ids=["graph", "pynative"])
def mode(request):
    previous = ms.get_context("mode")
    ms.set_context(mode=request.param)
    yield request.param
    ms.set_context(mode=previous)


def test_deepcopy_in_jit_function(mode):
    @ms.jit
    def doubled(x):
        return copy.deepcopy(x) + x

    out = doubled(Tensor(np.array([1, 2], np.int64)))
    np.testing.assert_array_equal(out.asnumpy(), [2, 4])  # MindSpore 2.10: [2, 4]


def test_deepcopy_as_the_instance_of_a_jit_method(mode):
    out = _plain_forward(copy.deepcopy, Tensor(np.array([1.5, 2.5], np.float32)))
    assert out.dtype == ms.float32
    np.testing.assert_array_equal(out.asnumpy(), [1.5, 2.5])  # MindSpore 2.10: [1.5, 2.5] Float32


def test_shallow_copy_of_a_list_in_jit_function(mode):
    @ms.jit
    def twice_second(x):
        return copy.copy([x, x])[1] * 2

    np.testing.assert_array_equal(twice_second(Tensor(np.array([3.0], np.float32))).asnumpy(), [6.0])


def test_python_library_is_the_interpreter_library_only():
    assert python_library("copy") and python_library("json.decoder")
    assert not python_library(__name__)  # the user's code
    assert not python_library("numpy")  # site-packages: a library MindSpore names one by one
    assert not python_library("sys")  # built into the interpreter: no file
