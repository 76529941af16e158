"""sporax.mint against values, dtypes and shapes recorded from mindspore.mint 2.10 (table-driven).

The table and the recording script are tests/fixtures/numpy_mint/record_mint.py. Calls whose kernel
MindSpore 2.10 lacks on CPU were recorded as errors; those are checked against NumPy references in
test_mint_numpy.py instead.
"""
import builtins
import json
import pathlib

import numpy as np
import pytest

import sporax as ms
from sporax import mint

FIXTURE = json.loads((pathlib.Path(__file__).parents[1] / "fixtures" / "numpy_mint" / "mint.json").read_text())


def _ramp(shape):
    size = int(np.prod(shape)) if shape else 1
    return np.linspace(-0.5, 0.5, size, dtype=np.float32).reshape(shape)


def init(cell):
    """The recording's deterministic parameters: a ramp per shape, plus one for 1-D scales."""
    for parameter in cell.get_parameters():
        scale = "gamma" in parameter.name or "weight" in parameter.name and len(parameter.shape) == 1
        parameter.set_data(ms.Tensor(_ramp(parameter.shape) + (1.0 if scale else 0.0)))
    return cell


SCOPE = {"np": np, "mint": mint, "F": mint.nn.functional, "nn": mint.nn, "init": init}
SCOPE.update({name: ms.Tensor(eval(text, {"np": np})) for name, text in FIXTURE["inputs"].items()})
# Recorded errors that are MindSpore's behaviour (not a missing CPU kernel or an internal failure).
EXPECTED_ERRORS = {"mint.squeeze(mint.unsqueeze(x, 0))"}
RECORDED = [call for call, expected in FIXTURE["calls"].items() if "error" not in expected or call in EXPECTED_ERRORS]


def _check(result, expected, call):
    if "sequence" in expected:
        assert isinstance(result, (tuple, list)), f"{call}: expected a sequence, got {type(result).__name__}"
        assert len(result) == len(expected["sequence"]), call
        for item, item_expected in zip(result, expected["sequence"]):
            _check(item, item_expected, call)
    elif "scalar" in expected:
        assert result == pytest.approx(expected["scalar"]), call
    else:
        assert isinstance(result, ms.Tensor), f"{call}: expected a Tensor, got {type(result).__name__}"
        assert str(result.dtype) == expected["dtype"], f"{call}: dtype {result.dtype} vs {expected['dtype']}"
        assert list(result.shape) == expected["shape"], f"{call}: shape {result.shape} vs {expected['shape']}"
        values = np.array([np.nan if v is None else v for v in expected["value"]], np.float64)
        np.testing.assert_allclose(result.asnumpy().astype(np.float64).ravel(), values, rtol=2e-5, atol=2e-6,
                                   err_msg=call)


# Every call compiles its own small programs: the default run checks every fourth call, the slow run all.
@pytest.mark.parametrize("call", [pytest.param(call, marks=[pytest.mark.slow] if index % 4 else [])
                                  for index, call in enumerate(RECORDED)])
def test_matches_mindspore(call):
    expected = FIXTURE["calls"][call]
    if "error" in expected:
        with pytest.raises(getattr(builtins, expected["error"])):
            eval(call, SCOPE)
        return
    _check(eval(call, SCOPE), expected, call)


def test_add_and_sub_take_alpha_by_keyword_only():
    # MindSpore 2.10: mint.add/sub and Tensor.add/sub with a positional alpha raise TypeError ('Failed calling add
    # with "add(Tensor, Tensor, int)".'); by keyword, x + alpha * y ([7.0, 12.0]) and x - alpha * y ([-5.0, -8.0]).
    x, y = ms.Tensor(np.array([1.0, 2.0], np.float32)), ms.Tensor(np.array([3.0, 5.0], np.float32))
    for call in (lambda: mint.add(x, y, 2), lambda: mint.sub(x, y, 2), lambda: x.add(y, 2), lambda: x.sub(y, 2)):
        with pytest.raises(TypeError):
            call()
    assert mint.add(x, y, alpha=2).asnumpy().tolist() == [7.0, 12.0] == x.add(y, alpha=2).asnumpy().tolist()
    assert mint.sub(x, y, alpha=2).asnumpy().tolist() == [-5.0, -8.0]
