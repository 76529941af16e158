"""Changes to a module-level list or dict and to a list argument inside compiled code
(sporax.graph.outside_objects), against MindSpore 2.10 (recorded with /tmp/ms: ``@ms.jit`` functions in
PyNative mode).

Each row: the holder ('global_jit': ``@ms.jit`` function changing the module-level ``_held``; 'arg_jit': the
same changing its list argument; 'global_cell' and 'arg_cell': a GRAPH_MODE Cell doing so), the method
('nested_...': of the first list in ``[[1, 2], [7]]``, 'nested_d...': of the dict in ``{"a": {...}, "z": [7]}``),
what
the function returns ('len': ``x + len(...)``, 'obj': the container, 'none': ``x``), the syntax level, and for
the first and the second call: (the returned value, the container afterwards, whether the returned object is
the container) or ('raise', the exception's type, the container afterwards). On later calls MindSpore's graph
keeps the module-level list it compiled with (``x + len(_held)`` after ``extend``/``insert``/``pop`` stays the
first call's value, while the list keeps changing); under STRICT a ``@jit`` function changes no list argument.
Reading a dict after ``pop`` and the changes a function the compiled one calls makes are in test_outside_helpers.
"""
import numpy as np
import pytest

import sporax as ms
from sporax import nn
from tests.graph.helper_cases import result
from tests.graph.test_attribute_views import check_calls

_held = None


def _global_append_num(x, ret):
    _held.append(3)
    return result(_held, ret, x)


def _argument_append_num(items, x, ret):
    items.append(3)
    return result(items, ret, x)


def _global_append_tensor(x, ret):
    _held.append(x)
    return result(_held, ret, x)


def _argument_append_tensor(items, x, ret):
    items.append(x)
    return result(items, ret, x)


def _global_extend(x, ret):
    _held.extend([3, 4])
    return result(_held, ret, x)


def _argument_extend(items, x, ret):
    items.extend([3, 4])
    return result(items, ret, x)


def _global_insert(x, ret):
    _held.insert(0, 5)
    return result(_held, ret, x)


def _argument_insert(items, x, ret):
    items.insert(0, 5)
    return result(items, ret, x)


def _global_pop(x, ret):
    _held.pop()
    return result(_held, ret, x)


def _argument_pop(items, x, ret):
    items.pop()
    return result(items, ret, x)


def _global_setitem(x, ret):
    _held[0] = 9
    return result(_held, ret, x)


def _argument_setitem(items, x, ret):
    items[0] = 9
    return result(items, ret, x)


def _global_clear(x, ret):
    _held.clear()
    return result(_held, ret, x)


def _argument_clear(items, x, ret):
    items.clear()
    return result(items, ret, x)


def _global_reverse(x, ret):
    _held.reverse()
    return result(_held, ret, x)


def _argument_reverse(items, x, ret):
    items.reverse()
    return result(items, ret, x)


def _global_dset(x, ret):
    _held["c"] = 3
    return result(_held, ret, x)


def _argument_dset(items, x, ret):
    items["c"] = 3
    return result(items, ret, x)


def _global_dupdate(x, ret):
    _held.update({"c": 3})
    return result(_held, ret, x)


def _argument_dupdate(items, x, ret):
    items.update({"c": 3})
    return result(items, ret, x)


def _global_dpop(x, ret):  # 'none' rows only: a read after pop raises (test_outside_helpers)
    _held.pop("a")
    return x


def _argument_dpop(items, x, ret):
    items.pop("a")
    return x


def _global_nested_append_num(x, ret):
    _held[0].append(3)
    return result(_held, ret, x)


def _argument_nested_append_num(items, x, ret):
    items[0].append(3)
    return result(items, ret, x)


def _global_nested_setitem(x, ret):
    _held[0][0] = 9
    return result(_held, ret, x)


def _argument_nested_setitem(items, x, ret):
    items[0][0] = 9
    return result(items, ret, x)


def _global_nested_clear(x, ret):
    _held[0].clear()
    return result(_held, ret, x)


def _argument_nested_clear(items, x, ret):
    items[0].clear()
    return result(items, ret, x)


def _argument_nested_extend(items, x, ret):
    items[0].extend([3, 4])
    return result(items, ret, x)


def _global_nested_dupdate(x, ret):
    _held["a"].update({"c": 3})
    return result(_held, ret, x)


def _argument_nested_dupdate(items, x, ret):
    items["a"].update({"c": 3})
    return result(items, ret, x)


def _global_dior(x, ret):
    global _held
    _held |= {"c": 3}
    return result(_held, ret, x)


def _argument_dior(items, x, ret):
    items |= {"c": 3}
    return result(items, ret, x)

_ROWS = [
    ('global_jit', 'append_num', 'len', 'LAX',
     [(['T', [13.0]], ['list', 1, 2], False),
      (['T', [13.0]], ['list', 1, 2], False)]),
    ('global_jit', 'append_num', 'obj', 'LAX',
     [(['list', 1, 2, 3], ['list', 1, 2], False),
      (['list', 1, 2, 3], ['list', 1, 2], False)]),
    ('global_jit', 'append_num', 'none', 'LAX',
     [(['T', [10.0]], ['list', 1, 2], False),
      (['T', [10.0]], ['list', 1, 2], False)]),
    ('arg_jit', 'append_num', 'len', 'LAX',
     [(['T', [13.0]], ['list', 1, 2], False),
      (['T', [13.0]], ['list', 1, 2], False)]),
    ('arg_jit', 'append_num', 'obj', 'LAX',
     [(['list', 1, 2, 3], ['list', 1, 2], False),
      (['list', 1, 2, 3], ['list', 1, 2], False)]),
    ('arg_jit', 'append_num', 'none', 'LAX',
     [(['T', [10.0]], ['list', 1, 2], False),
      (['T', [10.0]], ['list', 1, 2], False)]),
    ('global_jit', 'append_tensor', 'len', 'LAX',
     [(['T', [13.0]], ['list', 1, 2], False),
      (['T', [13.0]], ['list', 1, 2], False)]),
    ('global_jit', 'append_tensor', 'obj', 'LAX',
     [(['list', 1, 2, ['T', [10.0]]], ['list', 1, 2], False),
      (['list', 1, 2, ['T', [10.0]]], ['list', 1, 2], False)]),
    ('global_jit', 'append_tensor', 'none', 'LAX',
     [(['T', [10.0]], ['list', 1, 2], False),
      (['T', [10.0]], ['list', 1, 2], False)]),
    ('arg_jit', 'append_tensor', 'len', 'LAX',
     [(['T', [13.0]], ['list', 1, 2], False),
      (['T', [13.0]], ['list', 1, 2], False)]),
    ('arg_jit', 'append_tensor', 'obj', 'LAX',
     [(['list', 1, 2, ['T', [10.0]]], ['list', 1, 2], False),
      (['list', 1, 2, ['T', [10.0]]], ['list', 1, 2], False)]),
    ('arg_jit', 'append_tensor', 'none', 'LAX',
     [(['T', [10.0]], ['list', 1, 2], False),
      (['T', [10.0]], ['list', 1, 2], False)]),
    ('global_jit', 'extend', 'obj', 'LAX',
     [(['list', 1, 2, 3, 4], ['list', 1, 2, 3, 4], True),
      (['list', 1, 2, 3, 4, 3, 4], ['list', 1, 2, 3, 4, 3, 4], True)]),
    ('global_jit', 'extend', 'none', 'LAX',
     [(['T', [10.0]], ['list', 1, 2, 3, 4], False),
      (['T', [10.0]], ['list', 1, 2, 3, 4, 3, 4], False)]),
    ('arg_jit', 'extend', 'len', 'LAX',
     [(['T', [14.0]], ['list', 1, 2, 3, 4], False),
      (['T', [16.0]], ['list', 1, 2, 3, 4, 3, 4], False)]),
    ('arg_jit', 'extend', 'obj', 'LAX',
     [(['list', 1, 2, 3, 4], ['list', 1, 2, 3, 4], True),
      (['list', 1, 2, 3, 4, 3, 4], ['list', 1, 2, 3, 4, 3, 4], True)]),
    ('arg_jit', 'extend', 'none', 'LAX',
     [(['T', [10.0]], ['list', 1, 2, 3, 4], False),
      (['T', [10.0]], ['list', 1, 2, 3, 4, 3, 4], False)]),
    ('global_jit', 'insert', 'obj', 'LAX',
     [(['list', 5, 1, 2], ['list', 5, 1, 2], True),
      (['list', 5, 5, 1, 2], ['list', 5, 5, 1, 2], True)]),
    ('global_jit', 'insert', 'none', 'LAX',
     [(['T', [10.0]], ['list', 5, 1, 2], False),
      (['T', [10.0]], ['list', 5, 5, 1, 2], False)]),
    ('arg_jit', 'insert', 'len', 'LAX',
     [(['T', [13.0]], ['list', 5, 1, 2], False),
      (['T', [14.0]], ['list', 5, 5, 1, 2], False)]),
    ('arg_jit', 'insert', 'obj', 'LAX',
     [(['list', 5, 1, 2], ['list', 5, 1, 2], True),
      (['list', 5, 5, 1, 2], ['list', 5, 5, 1, 2], True)]),
    ('arg_jit', 'insert', 'none', 'LAX',
     [(['T', [10.0]], ['list', 5, 1, 2], False),
      (['T', [10.0]], ['list', 5, 5, 1, 2], False)]),
    ('global_jit', 'pop', 'obj', 'LAX',
     [(['list', 1], ['list', 1], True),
      (['list'], ['list'], True)]),
    ('global_jit', 'pop', 'none', 'LAX',
     [(['T', [10.0]], ['list', 1], False),
      (['T', [10.0]], ['list'], False)]),
    ('arg_jit', 'pop', 'len', 'LAX',
     [(['T', [11.0]], ['list', 1], False),
      (['T', [10.0]], ['list'], False)]),
    ('arg_jit', 'pop', 'obj', 'LAX',
     [(['list', 1], ['list', 1], True),
      (['list'], ['list'], True)]),
    ('arg_jit', 'pop', 'none', 'LAX',
     [(['T', [10.0]], ['list', 1], False),
      (['T', [10.0]], ['list'], False)]),
    ('global_jit', 'setitem', 'len', 'LAX',
     [(['T', [12.0]], ['list', 1, 2], False),
      (['T', [12.0]], ['list', 1, 2], False)]),
    ('global_jit', 'setitem', 'obj', 'LAX',
     [(['list', 9, 2], ['list', 1, 2], False),
      (['list', 9, 2], ['list', 1, 2], False)]),
    ('global_jit', 'setitem', 'none', 'LAX',
     [(['T', [10.0]], ['list', 1, 2], False),
      (['T', [10.0]], ['list', 1, 2], False)]),
    ('arg_jit', 'setitem', 'len', 'LAX',
     [(['T', [12.0]], ['list', 1, 2], False),
      (['T', [12.0]], ['list', 1, 2], False)]),
    ('arg_jit', 'setitem', 'obj', 'LAX',
     [(['list', 9, 2], ['list', 1, 2], False),
      (['list', 9, 2], ['list', 1, 2], False)]),
    ('arg_jit', 'setitem', 'none', 'LAX',
     [(['T', [10.0]], ['list', 1, 2], False),
      (['T', [10.0]], ['list', 1, 2], False)]),
    ('global_jit', 'clear', 'len', 'LAX',
     [(['T', [10.0]], ['list', 1, 2], False),
      (['T', [10.0]], ['list', 1, 2], False)]),
    ('global_jit', 'clear', 'obj', 'LAX',
     [(['list'], ['list', 1, 2], False),
      (['list'], ['list', 1, 2], False)]),
    ('global_jit', 'clear', 'none', 'LAX',
     [(['T', [10.0]], ['list', 1, 2], False),
      (['T', [10.0]], ['list', 1, 2], False)]),
    ('arg_jit', 'clear', 'len', 'LAX',
     [(['T', [10.0]], ['list', 1, 2], False),
      (['T', [10.0]], ['list', 1, 2], False)]),
    ('arg_jit', 'clear', 'obj', 'LAX',
     [(['list'], ['list', 1, 2], False),
      (['list'], ['list', 1, 2], False)]),
    ('arg_jit', 'clear', 'none', 'LAX',
     [(['T', [10.0]], ['list', 1, 2], False),
      (['T', [10.0]], ['list', 1, 2], False)]),
    ('global_jit', 'reverse', 'len', 'LAX',
     [(['T', [12.0]], ['list', 2, 1], False),
      (['T', [12.0]], ['list', 1, 2], False)]),
    ('global_jit', 'reverse', 'obj', 'LAX',
     [(['list', 2, 1], ['list', 2, 1], True),
      (['list', 1, 2], ['list', 1, 2], True)]),
    ('global_jit', 'reverse', 'none', 'LAX',
     [(['T', [10.0]], ['list', 2, 1], False),
      (['T', [10.0]], ['list', 1, 2], False)]),
    ('arg_jit', 'reverse', 'len', 'LAX',
     [(['T', [12.0]], ['list', 2, 1], False),
      (['T', [12.0]], ['list', 1, 2], False)]),
    ('arg_jit', 'reverse', 'obj', 'LAX',
     [(['list', 2, 1], ['list', 2, 1], True),
      (['list', 1, 2], ['list', 1, 2], True)]),
    ('arg_jit', 'reverse', 'none', 'LAX',
     [(['T', [10.0]], ['list', 2, 1], False),
      (['T', [10.0]], ['list', 1, 2], False)]),
    ('global_jit', 'dset', 'len', 'LAX',
     [(['T', [13.0]], {'a': 1, 'b': 2, 'c': 3}, False),
      (['T', [13.0]], {'a': 1, 'b': 2, 'c': 3}, False)]),
    ('global_jit', 'dset', 'obj', 'LAX',
     [({'a': 1, 'b': 2, 'c': 3}, {'a': 1, 'b': 2, 'c': 3}, True),
      ({'a': 1, 'b': 2, 'c': 3}, {'a': 1, 'b': 2, 'c': 3}, True)]),
    ('global_jit', 'dset', 'none', 'LAX',
     [(['T', [10.0]], {'a': 1, 'b': 2, 'c': 3}, False),
      (['T', [10.0]], {'a': 1, 'b': 2, 'c': 3}, False)]),
    ('arg_jit', 'dset', 'len', 'LAX',
     [(['T', [13.0]], {'a': 1, 'b': 2, 'c': 3}, False),
      (['T', [13.0]], {'a': 1, 'b': 2, 'c': 3}, False)]),
    ('arg_jit', 'dset', 'obj', 'LAX',
     [({'a': 1, 'b': 2, 'c': 3}, {'a': 1, 'b': 2, 'c': 3}, True),
      ({'a': 1, 'b': 2, 'c': 3}, {'a': 1, 'b': 2, 'c': 3}, True)]),
    ('arg_jit', 'dset', 'none', 'LAX',
     [(['T', [10.0]], {'a': 1, 'b': 2, 'c': 3}, False),
      (['T', [10.0]], {'a': 1, 'b': 2, 'c': 3}, False)]),
    ('global_jit', 'dupdate', 'len', 'LAX',
     [(['T', [13.0]], {'a': 1, 'b': 2}, False),
      (['T', [13.0]], {'a': 1, 'b': 2}, False)]),
    ('global_jit', 'dupdate', 'obj', 'LAX',
     [({'a': 1, 'b': 2, 'c': 3}, {'a': 1, 'b': 2}, False),
      ({'a': 1, 'b': 2, 'c': 3}, {'a': 1, 'b': 2}, False)]),
    ('global_jit', 'dupdate', 'none', 'LAX',
     [(['T', [10.0]], {'a': 1, 'b': 2}, False),
      (['T', [10.0]], {'a': 1, 'b': 2}, False)]),
    ('arg_jit', 'dupdate', 'len', 'LAX',
     [(['T', [13.0]], {'a': 1, 'b': 2}, False),
      (['T', [13.0]], {'a': 1, 'b': 2}, False)]),
    ('arg_jit', 'dupdate', 'obj', 'LAX',
     [({'a': 1, 'b': 2, 'c': 3}, {'a': 1, 'b': 2}, False),
      ({'a': 1, 'b': 2, 'c': 3}, {'a': 1, 'b': 2}, False)]),
    ('arg_jit', 'dupdate', 'none', 'LAX',
     [(['T', [10.0]], {'a': 1, 'b': 2}, False),
      (['T', [10.0]], {'a': 1, 'b': 2}, False)]),
    ('global_jit', 'dpop', 'none', 'LAX',
     [(['T', [10.0]], {'a': 1, 'b': 2}, False),
      (['T', [10.0]], {'a': 1, 'b': 2}, False)]),
    ('arg_jit', 'dpop', 'none', 'LAX',
     [(['T', [10.0]], {'a': 1, 'b': 2}, False),
      (['T', [10.0]], {'a': 1, 'b': 2}, False)]),
    ('global_jit', 'extend', 'len', 'LAX',
     [(['T', [14.0]], ['list', 1, 2, 3, 4], False),
      (['T', [14.0]], ['list', 1, 2, 3, 4, 3, 4], False)]),
    ('global_jit', 'extend', 'len', 'STRICT',
     [(['T', [14.0]], ['list', 1, 2, 3, 4], False),
      (['T', [14.0]], ['list', 1, 2, 3, 4, 3, 4], False)]),
    ('global_jit', 'insert', 'len', 'COMPATIBLE',
     [(['T', [13.0]], ['list', 5, 1, 2], False),
      (['T', [13.0]], ['list', 5, 5, 1, 2], False)]),
    ('global_jit', 'pop', 'len', 'LAX',
     [(['T', [11.0]], ['list', 1], False),
      (['T', [11.0]], ['list'], False)]),
    ('arg_jit', 'extend', 'len', 'STRICT',
     [(['T', [14.0]], ['list', 1, 2], False),
      (['T', [14.0]], ['list', 1, 2], False)]),
    ('arg_jit', 'extend', 'obj', 'STRICT',
     [(['list', 1, 2, 3, 4], ['list', 1, 2], False),
      (['list', 1, 2, 3, 4], ['list', 1, 2], False)]),
    ('arg_jit', 'pop', 'obj', 'STRICT',
     [(['list', 1], ['list', 1, 2], False),
      (['list', 1], ['list', 1, 2], False)]),
    ('arg_jit', 'dset', 'obj', 'STRICT',
     [({'a': 1, 'b': 2, 'c': 3}, {'a': 1, 'b': 2}, False),
      ({'a': 1, 'b': 2, 'c': 3}, {'a': 1, 'b': 2}, False)]),
    ('global_jit', 'nested_append_num', 'len', 'STRICT',
     [(['T', [12.0]], ['list', ['list', 1, 2], ['list', 7]], False),
      (['T', [12.0]], ['list', ['list', 1, 2], ['list', 7]], False)]),
    ('global_jit', 'nested_append_num', 'obj', 'LAX',
     [(['list', ['list', 1, 2, 3], ['list', 7]], ['list', ['list', 1, 2], ['list', 7]], False),
      (['list', ['list', 1, 2, 3], ['list', 7]], ['list', ['list', 1, 2], ['list', 7]], False)]),
    ('global_jit', 'nested_setitem', 'obj', 'LAX',
     [(['list', ['list', 9, 2], ['list', 7]], ['list', ['list', 1, 2], ['list', 7]], False),
      (['list', ['list', 9, 2], ['list', 7]], ['list', ['list', 1, 2], ['list', 7]], False)]),
    ('global_jit', 'nested_clear', 'none', 'LAX',
     [(['T', [10.0]], ['list', ['list', 1, 2], ['list', 7]], False),
      (['T', [10.0]], ['list', ['list', 1, 2], ['list', 7]], False)]),
    ('arg_jit', 'nested_append_num', 'obj', 'LAX',
     [(['list', ['list', 1, 2, 3], ['list', 7]], ['list', ['list', 1, 2], ['list', 7]], False),
      (['list', ['list', 1, 2, 3], ['list', 7]], ['list', ['list', 1, 2], ['list', 7]], False)]),
    ('arg_jit', 'nested_extend', 'len', 'LAX',
     [(['T', [12.0]], ['list', ['list', 1, 2, 3, 4], ['list', 7]], False),
      (['T', [12.0]], ['list', ['list', 1, 2, 3, 4, 3, 4], ['list', 7]], False)]),
    ('arg_jit', 'nested_setitem', 'len', 'LAX',
     [(['T', [12.0]], ['list', ['list', 1, 2], ['list', 7]], False),
      (['T', [12.0]], ['list', ['list', 1, 2], ['list', 7]], False)]),
    ('arg_jit', 'nested_clear', 'obj', 'STRICT',
     [(['list', ['list'], ['list', 7]], ['list', ['list', 1, 2], ['list', 7]], False),
      (['list', ['list'], ['list', 7]], ['list', ['list', 1, 2], ['list', 7]], False)]),
    ('global_jit', 'nested_dupdate', 'len', 'LAX',
     [(['T', [12.0]], {'a': {'a': 1, 'b': 2, 'c': 3}, 'z': ['list', 7]}, False),
      (['T', [12.0]], {'a': {'a': 1, 'b': 2, 'c': 3}, 'z': ['list', 7]}, False)]),
    ('arg_jit', 'nested_dupdate', 'obj', 'LAX',
     [({'a': {'a': 1, 'b': 2, 'c': 3}, 'z': ['list', 7]}, {'a': {'a': 1, 'b': 2, 'c': 3}, 'z': ['list', 7]}, True),
      ({'a': {'a': 1, 'b': 2, 'c': 3}, 'z': ['list', 7]}, {'a': {'a': 1, 'b': 2, 'c': 3}, 'z': ['list', 7]}, True)]),
    ('global_jit', 'dior', 'len', 'LAX',
     [('raise', 'RuntimeError', {'a': 1, 'b': 2}),
      ('raise', 'RuntimeError', {'a': 1, 'b': 2})]),
    ('global_jit', 'dior', 'obj', 'STRICT',
     [('raise', 'RuntimeError', {'a': 1, 'b': 2}),
      ('raise', 'RuntimeError', {'a': 1, 'b': 2})]),
    ('arg_jit', 'dior', 'none', 'LAX',
     [('raise', 'RuntimeError', {'a': 1, 'b': 2}),
      ('raise', 'RuntimeError', {'a': 1, 'b': 2})]),
    ('arg_jit', 'dior', 'obj', 'STRICT',
     [('raise', 'RuntimeError', {'a': 1, 'b': 2}),
      ('raise', 'RuntimeError', {'a': 1, 'b': 2})]),
]


@pytest.mark.filterwarnings("ignore::sporax.state.EagerFallbackWarning")
@pytest.mark.parametrize("holder, op, ret, level, calls", _ROWS,
                         ids=[f"{row[0]}-{row[1]}-{row[2]}-{row[3]}" for row in _ROWS])
def test_an_outside_container_changes_as_in_mindspore(holder, op, ret, level, calls):
    global _held
    if op.startswith("nested_d"):
        items = _held = {"a": {"a": 1, "b": 2}, "z": [7]}
    else:
        items = _held = {"a": 1, "b": 2} if op.startswith("d") else [[1, 2], [7]] if op.startswith("nested") else [1, 2]
    if holder == "global_jit":
        function = ms.jit(globals()[f"_global_{op}"])
        call = lambda x: function(x, ret)  # noqa: E731
    else:
        function = ms.jit(globals()[f"_argument_{op}"])
        call = lambda x: function(items, x, ret)  # noqa: E731
    ms.set_context(mode=ms.PYNATIVE_MODE, jit_syntax_level=getattr(ms, level))
    try:
        check_calls(call, lambda: items, calls)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE, jit_syntax_level=ms.LAX)


class _PopsHeld(nn.Cell):
    def construct(self, x):
        _held.pop("a")
        return x


class _PopsArgument(nn.Cell):
    def construct(self, items, x):
        items.pop("a")
        return x + len(items)


@pytest.mark.parametrize("level", ["COMPATIBLE", "STRICT"])
@pytest.mark.parametrize("holder", ["global_cell", "arg_cell"])
def test_a_graph_mode_dict_pop_below_lax_raises_attribute_error(holder, level):
    # recorded (GRAPH_MODE Cells): AttributeError "In JIT strict mode, cannot get attributes pop or the
    # Dictionary[...] object has no attribute: 'pop'" at both calls, the dict unchanged; LAX pops the graph's copy
    global _held
    items = _held = {"a": 1, "b": 2}
    if holder == "global_cell":
        call = _PopsHeld()
    else:
        net = _PopsArgument()
        call = lambda x: net(items, x)  # noqa: E731
    ms.set_context(mode=ms.GRAPH_MODE, jit_syntax_level=getattr(ms, level))
    try:
        check_calls(call, lambda: items, [("raise", "AttributeError", {"a": 1, "b": 2})] * 2)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE, jit_syntax_level=ms.LAX)


def _first_after_reverse(x):
    _held.reverse()
    return x + _held[0]


@pytest.mark.filterwarnings("ignore::sporax.state.EagerFallbackWarning")
def test_an_item_read_after_reverse_sees_the_module_list_as_it_is_now():
    # recorded: x + _held[0] is 3.0, 2.0, 3.0 over three calls while _held flips, whereas x + len(_held) after
    # extend keeps the first call's length (the rows above): MindSpore's graph folds len, not item reads
    global _held
    _held = [1, 2]
    function = ms.jit(_first_after_reverse)
    x = ms.Tensor(np.array(1.0, np.float32))
    assert [(float(function(x)), list(_held)) for _ in range(3)] == [(3.0, [2, 1]), (2.0, [1, 2]), (3.0, [2, 1])]
