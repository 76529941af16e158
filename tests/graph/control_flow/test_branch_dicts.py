"""A tensor condition choosing between dicts of different keys or tuples of different lengths: MindSpore 2.10
builds them in Python at run time (its JIT fallback), so the call gives the chosen branch's value; sporax runs
such a call eagerly."""
import warnings

import sporax as ms
from sporax import Tensor
from sporax.state import EagerFallbackWarning


@ms.jit
def _returns(x):
    if x:
        return None, x, {"1": x}
    return None, x * 2, {"2": x * 2}


@ms.jit
def _assigns(x):
    if x > 1:
        y = {"a": x}
    else:
        y = {"b": x, "c": x}
    return y


@ms.jit
def _tuples(x):
    if x > 1:
        y = (x, x)
    else:
        y = (x,)
    return y


def _plain(value):
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, tuple):
        return tuple(_plain(item) for item in value)
    return value if value is None else int(value.asnumpy())


def test_dicts_of_different_keys_give_the_chosen_branch():
    # MindSpore 2.10: (None, 10, {'1': 10}) / (None, 0, {'2': 0}); {'a': 3} / {'b': 0, 'c': 0}.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", EagerFallbackWarning)
        assert _plain(_returns(Tensor(10))) == (None, 10, {"1": 10})
        assert _plain(_returns(Tensor(0))) == (None, 0, {"2": 0})
        assert _plain(_assigns(Tensor(3))) == {"a": 3}
        assert _plain(_assigns(Tensor(0))) == {"b": 0, "c": 0}


def test_tuples_of_different_lengths_give_the_chosen_branch():
    # MindSpore 2.10: (3, 3) for Tensor(3); for Tensor(0) its one item has shape [1] (sporax: the scalar).
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", EagerFallbackWarning)
        assert _plain(_tuples(Tensor(3))) == (3, 3)
        assert _plain(_tuples(Tensor(0))) == (0,)
