"""Pinned differences from MindSpore 2.10 in how compiled code changes outside lists and dicts (recorded with
/tmp/ms, ``@ms.jit`` functions in PyNative mode; the rows that agree are in test_outside_changes).

MindSpore's graph inlines a helper function: a change it makes to a module-level list or a list argument is not
seen by the caller (``x + len(items)`` after ``helper(items)`` that extends ``items`` gives the length before the
change), while the methods that run at every call (``extend``, ``insert``, ``pop``, ``reverse``) still change the
list and the others (``append``, ``clear``, ``[i] = v``) change nothing. sporax tells the methods apart in the
compiled function's own bytecode only: a helper's change is unknown there, so the function runs eagerly, the
Python way. Reading a dict after ``pop`` makes MindSpore raise TypeError "For 'TupleGetItem', input[0] should be
Sequence, but got Int64."; sporax gives the dict without the key.
"""
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor

_held = None


def _extends(items):
    items.extend([3, 4])


def _appends(items):
    items.append(3)


def _global_helper_extend(x):
    _extends(_held)
    return x + len(_held)


def _argument_helper_append(items, x):
    _appends(items)
    return x + len(items)


def _global_dict_pop(x):
    _held.pop("a")
    return x + len(_held)


def _calls(function, *args):
    x = Tensor(np.array([10.0], np.float32))
    results = []
    for _ in range(2):
        output = function(*args, x)
        results.append((output.asnumpy().tolist(), list(args[0]) if args else None))
    return results


@pytest.mark.filterwarnings("ignore::sporax.state.EagerFallbackWarning")
def test_difference_a_helper_extending_a_module_list_is_seen_by_the_caller():
    # MindSpore: x + len(_held) is [12.0] at both calls, _held becomes [1, 2, 3, 4] then [1, 2, 3, 4, 3, 4];
    # sporax's eager reruns fold len as first compiled (graph.attribute_views.global_views), the change included
    global _held
    _held = [1, 2]
    function = ms.jit(_global_helper_extend)
    x = Tensor(np.array([10.0], np.float32))
    assert [(function(x).asnumpy().tolist(), list(_held)) for _ in range(2)] == \
        [([14.0], [1, 2, 3, 4]), ([14.0], [1, 2, 3, 4, 3, 4])]


@pytest.mark.filterwarnings("ignore::sporax.state.EagerFallbackWarning")
def test_difference_a_helper_appending_to_a_list_argument_changes_it():
    # MindSpore: x + len(items) is [12.0] at both calls and items stays [1, 2]
    items = [1, 2]
    assert _calls(ms.jit(_argument_helper_append), items) == [([13.0], [1, 2, 3]), ([14.0], [1, 2, 3, 3])]


@pytest.mark.filterwarnings("ignore::sporax.state.EagerFallbackWarning")
def test_difference_reading_a_module_dict_after_pop_gives_the_dict_without_the_key():
    # MindSpore: TypeError "For 'TupleGetItem', input[0] should be Sequence, but got Int64." at both calls
    global _held
    _held = {"a": 1, "b": 2}
    function = ms.jit(_global_dict_pop)
    x = Tensor(np.array([10.0], np.float32))
    assert [(function(x).asnumpy().tolist(), dict(_held)) for _ in range(2)] == \
        [([11.0], {"a": 1, "b": 2}), ([11.0], {"a": 1, "b": 2})]
