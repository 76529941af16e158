"""List and dict attributes of a Cell changed inside ``construct`` (sporax.graph.attribute_views), against
MindSpore 2.10 (recorded with /tmp/ms, GRAPH_MODE Cells at each jit_syntax_level, ``@jit`` on ``construct``
in PyNative mode, plain PyNative).

Each row: the holder ('attr': GRAPH_MODE Cell; 'attrmix': the same with a Tensor in the list; 'attr_jit':
``@ms.jit`` construct in PyNative; 'pynative'), the method, what construct returns ('len': ``x +
len(self.items)``, 'obj': ``self.items``, 'none': ``x``), the syntax level, and for the first and the
second call: (the returned value, the attribute afterwards, whether the returned object is the attribute)
or ('raise', the exception's type, the attribute afterwards). Values as ``helper_cases.summary`` writes them.
"""
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn
from tests.graph.helper_cases import summary


def _construct(self, x):
    op = self.op
    if op == "append_num":
        self.items.append(3)
    elif op == "append_tensor":
        self.items.append(x)
    elif op == "extend":
        self.items.extend([3, 4])
    elif op == "insert":
        self.items.insert(0, 5)
    elif op == "pop":
        self.items.pop()
    elif op == "setitem":
        self.items[0] = 9
    elif op == "iadd":
        self.items += [3]
    elif op == "clear":
        self.items.clear()
    elif op == "reverse":
        self.items.reverse()
    elif op == "dset":
        self.items["c"] = 3
    elif op == "dupdate":
        self.items.update({"c": 3})
    elif op == "dpop":
        self.items.pop("a")
    elif op == "dior":
        self.items |= {"c": 3}
    if self.ret == "len":
        return x + len(self.items)
    if self.ret == "obj":
        return self.items
    return x


class _Graph(nn.Cell):
    def __init__(self, items, op, ret):
        super().__init__()
        self.items, self.op, self.ret = items, op, ret

    construct = _construct


class _Jitted(_Graph):
    construct = ms.jit(_construct)


_ERRORS = {"TypeError": TypeError, "AttributeError": AttributeError, "KeyError": KeyError,
           "RuntimeError": RuntimeError}


def check_calls(call, container, calls):
    """Call ``call(x)`` once per row of ``calls`` (see the module doc); ``container()`` is the list or dict."""
    x = Tensor(np.array([10.0], np.float32))
    for expected in calls:
        if expected[0] == "raise":
            with pytest.raises(_ERRORS[expected[1]]):
                call(x)
            assert summary(container()) == expected[2]
            continue
        output = call(x)
        assert (summary(output), summary(container()), output is container()) == expected


_ROWS = [
    ('attr', 'append_num', 'len', 'LAX',
     [(['T', [12.0]], ['list', 1, 2], False),
      (['T', [12.0]], ['list', 1, 2], False)]),
    ('attr', 'append_num', 'obj', 'LAX',
     [(['list', 1, 2], ['list', 1, 2], True),
      (['list', 1, 2], ['list', 1, 2], True)]),
    ('attr', 'append_num', 'len', 'COMPATIBLE',
     [(['T', [12.0]], ['list', 1, 2], False),
      (['T', [12.0]], ['list', 1, 2], False)]),
    ('attr', 'append_num', 'len', 'STRICT',
     [(['T', [12.0]], ['list', 1, 2], False),
      (['T', [12.0]], ['list', 1, 2], False)]),
    ('attr', 'append_num', 'obj', 'STRICT',
     [(['list', 1, 2], ['list', 1, 2], False),
      (['list', 1, 2], ['list', 1, 2], False)]),
    ('attr_jit', 'append_num', 'len', 'LAX',
     [(['T', [12.0]], ['list', 1, 2], False),
      (['T', [12.0]], ['list', 1, 2], False)]),
    ('attr_jit', 'append_num', 'none', 'LAX',
     [(['T', [10.0]], ['list', 1, 2], False),
      (['T', [10.0]], ['list', 1, 2], False)]),
    ('pynative', 'append_num', 'len', 'LAX',
     [(['T', [13.0]], ['list', 1, 2, 3], False),
      (['T', [14.0]], ['list', 1, 2, 3, 3], False)]),
    ('attr', 'append_tensor', 'len', 'LAX',
     [(['T', [12.0]], ['list', 1, 2], False),
      (['T', [12.0]], ['list', 1, 2], False)]),
    ('attr', 'append_tensor', 'obj', 'LAX',
     [(['list', 1, 2], ['list', 1, 2], True),
      (['list', 1, 2], ['list', 1, 2], True)]),
    ('attr', 'append_tensor', 'len', 'COMPATIBLE',
     [(['T', [12.0]], ['list', 1, 2], False),
      (['T', [12.0]], ['list', 1, 2], False)]),
    ('attr', 'append_tensor', 'len', 'STRICT',
     [(['T', [12.0]], ['list', 1, 2], False),
      (['T', [12.0]], ['list', 1, 2], False)]),
    ('attr', 'append_tensor', 'obj', 'STRICT',
     [(['list', 1, 2], ['list', 1, 2], False),
      (['list', 1, 2], ['list', 1, 2], False)]),
    ('attr_jit', 'append_tensor', 'len', 'LAX',
     [(['T', [12.0]], ['list', 1, 2], False),
      (['T', [12.0]], ['list', 1, 2], False)]),
    ('attr_jit', 'append_tensor', 'none', 'LAX',
     [(['T', [10.0]], ['list', 1, 2], False),
      (['T', [10.0]], ['list', 1, 2], False)]),
    ('pynative', 'append_tensor', 'len', 'LAX',
     [(['T', [13.0]], ['list', 1, 2, ['T', [10.0]]], False),
      (['T', [14.0]], ['list', 1, 2, ['T', [10.0]], ['T', [10.0]]], False)]),
    ('attr', 'extend', 'len', 'LAX',
     [(['T', [14.0]], ['list', 1, 2, 3, 4], False),
      (['T', [16.0]], ['list', 1, 2, 3, 4, 3, 4], False)]),
    ('attr', 'extend', 'obj', 'LAX',
     [(['list', 1, 2, 3, 4], ['list', 1, 2, 3, 4], True),
      (['list', 1, 2, 3, 4, 3, 4], ['list', 1, 2, 3, 4, 3, 4], True)]),
    ('attr', 'extend', 'len', 'COMPATIBLE',
     [(['T', [12.0]], ['list', 1, 2, 3, 4], False),
      (['T', [12.0]], ['list', 1, 2, 3, 4, 3, 4], False)]),
    ('attr', 'extend', 'len', 'STRICT',
     [(['T', [12.0]], ['list', 1, 2], False),
      (['T', [12.0]], ['list', 1, 2], False)]),
    ('attr', 'extend', 'obj', 'STRICT',
     [(['list', 1, 2], ['list', 1, 2], False),
      (['list', 1, 2], ['list', 1, 2], False)]),
    ('attr_jit', 'extend', 'len', 'LAX',
     [(['T', [14.0]], ['list', 1, 2, 3, 4], False),
      (['T', [16.0]], ['list', 1, 2, 3, 4, 3, 4], False)]),
    ('attr_jit', 'extend', 'none', 'LAX',
     [(['T', [10.0]], ['list', 1, 2, 3, 4], False),
      (['T', [10.0]], ['list', 1, 2, 3, 4, 3, 4], False)]),
    ('pynative', 'extend', 'len', 'LAX',
     [(['T', [14.0]], ['list', 1, 2, 3, 4], False),
      (['T', [16.0]], ['list', 1, 2, 3, 4, 3, 4], False)]),
    ('attr', 'insert', 'len', 'LAX',
     [(['T', [13.0]], ['list', 5, 1, 2], False),
      (['T', [14.0]], ['list', 5, 5, 1, 2], False)]),
    ('attr', 'insert', 'obj', 'LAX',
     [(['list', 5, 1, 2], ['list', 5, 1, 2], True),
      (['list', 5, 5, 1, 2], ['list', 5, 5, 1, 2], True)]),
    ('attr', 'insert', 'len', 'COMPATIBLE',
     [(['T', [12.0]], ['list', 5, 1, 2], False),
      (['T', [12.0]], ['list', 5, 5, 1, 2], False)]),
    ('attr', 'insert', 'len', 'STRICT',
     [(['T', [12.0]], ['list', 1, 2], False),
      (['T', [12.0]], ['list', 1, 2], False)]),
    ('attr', 'insert', 'obj', 'STRICT',
     [(['list', 1, 2], ['list', 1, 2], False),
      (['list', 1, 2], ['list', 1, 2], False)]),
    ('attr_jit', 'insert', 'len', 'LAX',
     [(['T', [13.0]], ['list', 5, 1, 2], False),
      (['T', [14.0]], ['list', 5, 5, 1, 2], False)]),
    ('attr_jit', 'insert', 'none', 'LAX',
     [(['T', [10.0]], ['list', 5, 1, 2], False),
      (['T', [10.0]], ['list', 5, 5, 1, 2], False)]),
    ('pynative', 'insert', 'len', 'LAX',
     [(['T', [13.0]], ['list', 5, 1, 2], False),
      (['T', [14.0]], ['list', 5, 5, 1, 2], False)]),
    ('attr', 'pop', 'len', 'LAX',
     [(['T', [12.0]], ['list', 1], False),
      (['T', [12.0]], ['list'], False)]),
    ('attr', 'pop', 'obj', 'LAX',
     [(['list', 1], ['list', 1], True),
      (['list'], ['list'], True)]),
    ('attr', 'pop', 'len', 'COMPATIBLE',
     [(['T', [12.0]], ['list', 1], False),
      (['T', [12.0]], ['list'], False)]),
    ('attr', 'pop', 'len', 'STRICT',
     [(['T', [12.0]], ['list', 1, 2], False),
      (['T', [12.0]], ['list', 1, 2], False)]),
    ('attr', 'pop', 'obj', 'STRICT',
     [(['list', 1, 2], ['list', 1, 2], False),
      (['list', 1, 2], ['list', 1, 2], False)]),
    ('attr_jit', 'pop', 'len', 'LAX',
     [(['T', [12.0]], ['list', 1], False),
      (['T', [12.0]], ['list'], False)]),
    ('attr_jit', 'pop', 'none', 'LAX',
     [(['T', [10.0]], ['list', 1], False),
      (['T', [10.0]], ['list'], False)]),
    ('pynative', 'pop', 'len', 'LAX',
     [(['T', [11.0]], ['list', 1], False),
      (['T', [10.0]], ['list'], False)]),
    ('attr', 'setitem', 'len', 'LAX',
     [(['T', [12.0]], ['list', 1, 2], False),
      (['T', [12.0]], ['list', 1, 2], False)]),
    ('attr', 'setitem', 'obj', 'LAX',
     [(['list', 9, 2], ['list', 1, 2], False),
      (['list', 9, 2], ['list', 1, 2], False)]),
    ('attr', 'setitem', 'len', 'COMPATIBLE',
     [('raise', 'TypeError', ['list', 1, 2]),
      ('raise', 'TypeError', ['list', 1, 2])]),
    ('attr', 'setitem', 'len', 'STRICT',
     [('raise', 'TypeError', ['list', 1, 2]),
      ('raise', 'TypeError', ['list', 1, 2])]),
    ('attr', 'setitem', 'obj', 'STRICT',
     [('raise', 'TypeError', ['list', 1, 2]),
      ('raise', 'TypeError', ['list', 1, 2])]),
    ('attr_jit', 'setitem', 'len', 'LAX',
     [(['T', [12.0]], ['list', 1, 2], False),
      (['T', [12.0]], ['list', 1, 2], False)]),
    ('attr_jit', 'setitem', 'none', 'LAX',
     [(['T', [10.0]], ['list', 1, 2], False),
      (['T', [10.0]], ['list', 1, 2], False)]),
    ('pynative', 'setitem', 'len', 'LAX',
     [(['T', [12.0]], ['list', 9, 2], False),
      (['T', [12.0]], ['list', 9, 2], False)]),
    ('attr', 'iadd', 'len', 'LAX',
     [(['T', [13.0]], ['list', 1, 2, 3], False),
      (['T', [14.0]], ['list', 1, 2, 3, 3], False)]),
    ('attr', 'iadd', 'obj', 'LAX',
     [(['list', 1, 2, 3], ['list', 1, 2, 3], True),
      (['list', 1, 2, 3, 3], ['list', 1, 2, 3, 3], True)]),
    ('attr', 'iadd', 'len', 'COMPATIBLE',
     [('raise', 'TypeError', ['list', 1, 2]),
      ('raise', 'TypeError', ['list', 1, 2])]),
    ('attr', 'iadd', 'len', 'STRICT',
     [('raise', 'TypeError', ['list', 1, 2]),
      ('raise', 'TypeError', ['list', 1, 2])]),
    ('attr', 'iadd', 'obj', 'STRICT',
     [('raise', 'TypeError', ['list', 1, 2]),
      ('raise', 'TypeError', ['list', 1, 2])]),
    ('attr_jit', 'iadd', 'len', 'LAX',
     [(['T', [13.0]], ['list', 1, 2, 3], False),
      (['T', [14.0]], ['list', 1, 2, 3, 3], False)]),
    ('attr_jit', 'iadd', 'none', 'LAX',
     [(['T', [10.0]], ['list', 1, 2, 3], False),
      (['T', [10.0]], ['list', 1, 2, 3, 3], False)]),
    ('pynative', 'iadd', 'len', 'LAX',
     [(['T', [13.0]], ['list', 1, 2, 3], False),
      (['T', [14.0]], ['list', 1, 2, 3, 3], False)]),
    ('attr', 'clear', 'len', 'LAX',
     [(['T', [12.0]], ['list', 1, 2], False),
      (['T', [12.0]], ['list', 1, 2], False)]),
    ('attr', 'clear', 'obj', 'LAX',
     [(['list', 1, 2], ['list', 1, 2], True),
      (['list', 1, 2], ['list', 1, 2], True)]),
    ('attr', 'clear', 'len', 'COMPATIBLE',
     [(['T', [12.0]], ['list', 1, 2], False),
      (['T', [12.0]], ['list', 1, 2], False)]),
    ('attr', 'clear', 'len', 'STRICT',
     [(['T', [12.0]], ['list', 1, 2], False),
      (['T', [12.0]], ['list', 1, 2], False)]),
    ('attr', 'clear', 'obj', 'STRICT',
     [(['list', 1, 2], ['list', 1, 2], False),
      (['list', 1, 2], ['list', 1, 2], False)]),
    ('attr_jit', 'clear', 'len', 'LAX',
     [(['T', [12.0]], ['list', 1, 2], False),
      (['T', [12.0]], ['list', 1, 2], False)]),
    ('attr_jit', 'clear', 'none', 'LAX',
     [(['T', [10.0]], ['list', 1, 2], False),
      (['T', [10.0]], ['list', 1, 2], False)]),
    ('pynative', 'clear', 'len', 'LAX',
     [(['T', [10.0]], ['list'], False),
      (['T', [10.0]], ['list'], False)]),
    ('attr', 'reverse', 'len', 'LAX',
     [(['T', [12.0]], ['list', 2, 1], False),
      (['T', [12.0]], ['list', 1, 2], False)]),
    ('attr', 'reverse', 'obj', 'LAX',
     [(['list', 2, 1], ['list', 2, 1], True),
      (['list', 1, 2], ['list', 1, 2], True)]),
    ('attr', 'reverse', 'len', 'COMPATIBLE',
     [(['T', [12.0]], ['list', 2, 1], False),
      (['T', [12.0]], ['list', 1, 2], False)]),
    ('attr', 'reverse', 'len', 'STRICT',
     [(['T', [12.0]], ['list', 1, 2], False),
      (['T', [12.0]], ['list', 1, 2], False)]),
    ('attr', 'reverse', 'obj', 'STRICT',
     [(['list', 1, 2], ['list', 1, 2], False),
      (['list', 1, 2], ['list', 1, 2], False)]),
    ('attr_jit', 'reverse', 'len', 'LAX',
     [(['T', [12.0]], ['list', 2, 1], False),
      (['T', [12.0]], ['list', 1, 2], False)]),
    ('attr_jit', 'reverse', 'none', 'LAX',
     [(['T', [10.0]], ['list', 2, 1], False),
      (['T', [10.0]], ['list', 1, 2], False)]),
    ('pynative', 'reverse', 'len', 'LAX',
     [(['T', [12.0]], ['list', 2, 1], False),
      (['T', [12.0]], ['list', 1, 2], False)]),
    ('attr', 'dset', 'len', 'LAX',
     [(['T', [13.0]], {'a': 1, 'b': 2, 'c': 3}, False),
      (['T', [13.0]], {'a': 1, 'b': 2, 'c': 3}, False)]),
    ('attr', 'dset', 'obj', 'LAX',
     [({'a': 1, 'b': 2, 'c': 3}, {'a': 1, 'b': 2, 'c': 3}, True),
      ({'a': 1, 'b': 2, 'c': 3}, {'a': 1, 'b': 2, 'c': 3}, True)]),
    ('attr', 'dset', 'len', 'COMPATIBLE',
     [('raise', 'TypeError', {'a': 1, 'b': 2}),
      ('raise', 'TypeError', {'a': 1, 'b': 2})]),
    ('attr', 'dset', 'len', 'STRICT',
     [('raise', 'TypeError', {'a': 1, 'b': 2}),
      ('raise', 'TypeError', {'a': 1, 'b': 2})]),
    ('attr', 'dset', 'obj', 'STRICT',
     [('raise', 'TypeError', {'a': 1, 'b': 2}),
      ('raise', 'TypeError', {'a': 1, 'b': 2})]),
    ('attr_jit', 'dset', 'len', 'LAX',
     [(['T', [13.0]], {'a': 1, 'b': 2, 'c': 3}, False),
      (['T', [13.0]], {'a': 1, 'b': 2, 'c': 3}, False)]),
    ('attr_jit', 'dset', 'none', 'LAX',
     [(['T', [10.0]], {'a': 1, 'b': 2, 'c': 3}, False),
      (['T', [10.0]], {'a': 1, 'b': 2, 'c': 3}, False)]),
    ('pynative', 'dset', 'len', 'LAX',
     [(['T', [13.0]], {'a': 1, 'b': 2, 'c': 3}, False),
      (['T', [13.0]], {'a': 1, 'b': 2, 'c': 3}, False)]),
    ('attr', 'dupdate', 'len', 'LAX',
     [(['T', [12.0]], {'a': 1, 'b': 2}, False),
      (['T', [12.0]], {'a': 1, 'b': 2}, False)]),
    ('attr', 'dupdate', 'obj', 'LAX',
     [({'a': 1, 'b': 2}, {'a': 1, 'b': 2}, True),
      ({'a': 1, 'b': 2}, {'a': 1, 'b': 2}, True)]),
    ('attr', 'dupdate', 'len', 'COMPATIBLE',
     [(['T', [12.0]], {'a': 1, 'b': 2}, False),
      (['T', [12.0]], {'a': 1, 'b': 2}, False)]),
    ('attr', 'dupdate', 'len', 'STRICT',
     [(['T', [12.0]], {'a': 1, 'b': 2}, False),
      (['T', [12.0]], {'a': 1, 'b': 2}, False)]),
    ('attr', 'dupdate', 'obj', 'STRICT',
     [(['tuple', 1, 2], {'a': 1, 'b': 2}, False),
      (['tuple', 1, 2], {'a': 1, 'b': 2}, False)]),
    ('attr_jit', 'dupdate', 'len', 'LAX',
     [(['T', [12.0]], {'a': 1, 'b': 2}, False),
      (['T', [12.0]], {'a': 1, 'b': 2}, False)]),
    ('attr_jit', 'dupdate', 'none', 'LAX',
     [(['T', [10.0]], {'a': 1, 'b': 2}, False),
      (['T', [10.0]], {'a': 1, 'b': 2}, False)]),
    ('pynative', 'dupdate', 'len', 'LAX',
     [(['T', [13.0]], {'a': 1, 'b': 2, 'c': 3}, False),
      (['T', [13.0]], {'a': 1, 'b': 2, 'c': 3}, False)]),
    ('attr', 'dpop', 'len', 'LAX',
     [(['T', [12.0]], {'a': 1, 'b': 2}, False),
      (['T', [12.0]], {'a': 1, 'b': 2}, False)]),
    ('attr', 'dpop', 'obj', 'LAX',
     [({'a': 1, 'b': 2}, {'a': 1, 'b': 2}, True),
      ({'a': 1, 'b': 2}, {'a': 1, 'b': 2}, True)]),
    ('attr', 'dpop', 'len', 'COMPATIBLE',
     [('raise', 'AttributeError', {'a': 1, 'b': 2}),
      ('raise', 'AttributeError', {'a': 1, 'b': 2})]),
    ('attr', 'dpop', 'len', 'STRICT',
     [('raise', 'AttributeError', {'a': 1, 'b': 2}),
      ('raise', 'AttributeError', {'a': 1, 'b': 2})]),
    ('attr', 'dpop', 'obj', 'STRICT',
     [('raise', 'AttributeError', {'a': 1, 'b': 2}),
      ('raise', 'AttributeError', {'a': 1, 'b': 2})]),
    ('attr_jit', 'dpop', 'len', 'LAX',
     [(['T', [12.0]], {'a': 1, 'b': 2}, False),
      (['T', [12.0]], {'a': 1, 'b': 2}, False)]),
    ('attr_jit', 'dpop', 'none', 'LAX',
     [(['T', [10.0]], {'a': 1, 'b': 2}, False),
      (['T', [10.0]], {'a': 1, 'b': 2}, False)]),
    ('pynative', 'dpop', 'len', 'LAX',
     [(['T', [11.0]], {'b': 2}, False),
      ('raise', 'KeyError', {'b': 2})]),
    ('attrmix', 'extend', 'obj', 'LAX',
     [(['list', 1, ['T', [2.0]], 3, 4], ['list', 1, ['T', [2.0]], 3, 4], True),
      (['list', 1, ['T', [2.0]], 3, 4, 3, 4], ['list', 1, ['T', [2.0]], 3, 4, 3, 4], True)]),
    ('attrmix', 'pop', 'obj', 'LAX',
     [(['list', 1], ['list', 1], True),
      (['list'], ['list'], True)]),
    ('attrmix', 'append_num', 'obj', 'LAX',
     [(['list', 1, ['T', [2.0]]], ['list', 1, ['T', [2.0]]], True),
      (['list', 1, ['T', [2.0]]], ['list', 1, ['T', [2.0]]], True)]),
    ('attr', 'dior', 'len', 'LAX',
     [('raise', 'RuntimeError', {'a': 1, 'b': 2}),
      ('raise', 'RuntimeError', {'a': 1, 'b': 2})]),
    ('attr', 'dior', 'obj', 'COMPATIBLE',
     [('raise', 'TypeError', {'a': 1, 'b': 2}),
      ('raise', 'TypeError', {'a': 1, 'b': 2})]),
    ('attr', 'dior', 'none', 'STRICT',
     [('raise', 'TypeError', {'a': 1, 'b': 2}),
      ('raise', 'TypeError', {'a': 1, 'b': 2})]),
]


@pytest.mark.filterwarnings("ignore::sporax.state.EagerFallbackWarning")
@pytest.mark.parametrize("holder, op, ret, level, calls", _ROWS,
                         ids=[f"{row[0]}-{row[1]}-{row[2]}-{row[3]}" for row in _ROWS])
def test_a_container_attribute_changes_as_in_mindspore(holder, op, ret, level, calls):
    if op.startswith("d"):
        items = {"a": 1, "b": 2}
    else:
        items = [1, Tensor(np.array([2.0], np.float32))] if holder == "attrmix" else [1, 2]
    net = (_Jitted if holder == "attr_jit" else _Graph)(items, op, ret)
    mode = ms.GRAPH_MODE if holder in ("attr", "attrmix") else ms.PYNATIVE_MODE
    ms.set_context(mode=mode, jit_syntax_level=getattr(ms, level))
    try:
        check_calls(net, lambda: net.items, calls)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE, jit_syntax_level=ms.LAX)


class _AddsOnly(nn.Cell):
    """``self.items += [3]`` and nothing else: Python 3.11 puts a SWAP between the ``+=`` and the attribute
    store, which the bytecode scan must see through."""

    def __init__(self):
        super().__init__()
        self.items = [1, 2]

    def construct(self, x):
        self.items += [3]
        return x + len(self.items)


@pytest.mark.filterwarnings("ignore::sporax.state.EagerFallbackWarning")
def test_an_attribute_add_alone_is_refused_with_the_attribute_unchanged_below_lax():
    # recorded with /tmp/ms (GRAPH_MODE, COMPATIBLE): TypeError at both calls, self.items stays [1, 2]
    net = _AddsOnly()
    ms.set_context(mode=ms.GRAPH_MODE, jit_syntax_level=ms.COMPATIBLE)
    try:
        check_calls(net, lambda: net.items, [("raise", "TypeError", ["list", 1, 2])] * 2)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE, jit_syntax_level=ms.LAX)
