"""``JitConfig(jit_syntax_level=...)`` on a Cell, against MindSpore 2.10's recorded behaviour (GRAPH_MODE).

STRICT returns a dict output as the tuple of its values; STRICT and COMPATIBLE refuse ``tensor.asnumpy()``
in compiled code (AttributeError) where LAX runs it; MS_DEV_JIT_SYNTAX_LEVEL overrides the JitConfig.
"""
import numpy as np
import pytest

from sporax import JitConfig, Tensor, ops
from sporax.core import context
from sporax.nn.cell import Cell
from sporax.state import EagerFallbackWarning

_REFUSED = "In JIT strict mode, cannot get attributes asnumpy"


@pytest.fixture(autouse=True)
def graph_mode(monkeypatch):
    monkeypatch.delenv("MS_DEV_JIT_SYNTAX_LEVEL", raising=False)
    context.set_context(mode=context.GRAPH_MODE)
    yield
    context.set_context(mode=context.PYNATIVE_MODE)


class _Numbers:
    def __init__(self):
        self.number = 2

    def times(self, x):
        return self.number * x.asnumpy()


class _CallsAsnumpy(Cell):
    def __init__(self):
        super().__init__()
        self.helper = _Numbers()

    def construct(self, x):
        return self.helper.times(x)


class _ReadsAttribute(Cell):
    def __init__(self):
        super().__init__()
        self.helper = _Numbers()

    def construct(self, x):
        return self.helper.number * x


class _ReturnsDict(Cell):
    def construct(self, x):
        return {"a": 1, "b": x}


def _configured(cell, level):
    cell.set_jit_config(JitConfig(jit_syntax_level=level))
    return cell


def test_strict_returns_a_dict_output_as_the_tuple_of_its_values():
    # MindSpore 2.10: STRICT -> (1, Tensor(2)); COMPATIBLE -> {'a': 1, 'b': Tensor(2)}
    strict = _configured(_ReturnsDict(), "STRICT")(Tensor(np.int64(2)))
    assert isinstance(strict, tuple) and strict[0] == 1 and int(strict[1].asnumpy()) == 2
    compatible = _configured(_ReturnsDict(), "COMPATIBLE")(Tensor(np.int64(2)))
    assert isinstance(compatible, dict) and int(compatible["b"].asnumpy()) == 2


@pytest.mark.parametrize("level", ["STRICT", "COMPATIBLE"])
def test_asnumpy_in_compiled_code_is_refused_below_lax(level):
    with pytest.raises(AttributeError, match=_REFUSED):
        _configured(_CallsAsnumpy(), level)(Tensor(np.int64(2)))
    # a plain attribute of the outside object still compiles (MindSpore 2.10: 4)
    assert int(_configured(_ReadsAttribute(), level)(Tensor(np.int64(2))).asnumpy()) == 4


def test_lax_runs_asnumpy_and_the_environment_variable_overrides_the_config(monkeypatch):
    with pytest.warns(EagerFallbackWarning):  # LAX runs the host read eagerly (MindSpore 2.10: 4)
        assert _configured(_CallsAsnumpy(), "LAX")(Tensor(np.int64(2))) == 4
    monkeypatch.setenv("MS_DEV_JIT_SYNTAX_LEVEL", "0")
    with pytest.raises(AttributeError, match=_REFUSED):
        _configured(_CallsAsnumpy(), "LAX")(Tensor(np.int64(2)))


def test_strict_context_or_environment_also_returns_dict_values(monkeypatch):
    # MindSpore 2.10: set_context(jit_syntax_level=STRICT) -> (Tensor(3),); MS_DEV_JIT_SYNTAX_LEVEL=0 -> (Tensor(4),)
    context.set_context(jit_syntax_level=context.STRICT)
    try:
        out = _ReturnsDict()(Tensor(np.int64(3)))
    finally:
        context.set_context(jit_syntax_level=context.LAX)
    assert isinstance(out, tuple) and int(out[1].asnumpy()) == 3
    monkeypatch.setenv("MS_DEV_JIT_SYNTAX_LEVEL", "0")
    out = _ReturnsDict()(Tensor(np.int64(4)))
    assert isinstance(out, tuple) and int(out[1].asnumpy()) == 4


class _Wrap(Cell):
    def __init__(self, func):
        super().__init__()
        self.func = func

    def construct(self, *inputs):
        return self.func(*inputs)


class _AddsAttribute(Cell):
    def construct(self, x):
        self.y = 2
        return x


def _abs_in_a_new_cell(x):
    return _Wrap(ops.abs)(x)


def _grad_of_abs_in_a_new_cell(x):
    return ops.grad(_abs_in_a_new_cell, 0)(x)


def test_strict_lets_a_cell_created_in_compiled_code_set_its_attributes():
    """A Cell built inside a construct (tests' run_with_cell helper) sets attributes in its own __init__ under
    STRICT, as in MindSpore 2.10 (grad [1, -1, -1], vmap |x|); construct adding one still raises there."""
    context.set_context(jit_syntax_level=context.STRICT)
    try:
        grads = _Wrap(_grad_of_abs_in_a_new_cell)(Tensor(np.array([1.0, -2.0, -3.0], np.float32)))
        mapped = ops.vmap(_abs_in_a_new_cell)(Tensor(np.array([[1.0, -2.0], [-3.0, 4.0]], np.float32)))
        with pytest.raises(AttributeError, match="^The '_AddsAttribute' object has no attribute 'y'."):
            _AddsAttribute()(Tensor([1.0]))
    finally:
        context.set_context(jit_syntax_level=context.LAX)
    np.testing.assert_array_equal(grads.asnumpy(), [1.0, -1.0, -1.0])
    np.testing.assert_array_equal(mapped.asnumpy(), [[1.0, 2.0], [3.0, 4.0]])
