"""The helper cases of test_outside_helpers: a compiled caller, a helper changing an outside list or dict (see
that module's doc). Plain code that runs on sporax and, for tests/fixtures/graph/record_helper_changes.py, on
MindSpore (imported with ``sporax`` standing for ``mindspore``).
"""
import numpy as np
import sporax as ms
from sporax import Tensor, nn

_held = None


def _global_append_num(x):
    _held.append(3)
    return x


def _global_append_tensor(x):
    _held.append(x)
    return x


def _global_extend(x):
    _held.extend([3, 4])
    return x


def _global_insert(x):
    _held.insert(0, 5)
    return x


def _global_pop(x):
    _held.pop()
    return x


def _global_setitem(x):
    _held[0] = 9
    return x


def _global_iadd(x):
    global _held
    _held += [3]
    return x


def _global_clear(x):
    _held.clear()
    return x


def _global_reverse(x):
    _held.reverse()
    return x


def _global_dset(x):
    _held["c"] = 3
    return x


def _global_dupdate(x):
    _held.update({"c": 3})
    return x


def _global_dpop(x):
    _held.pop("a")
    return x


def _global_dior(x):
    global _held
    _held |= {"c": 3}
    return x


def _argument_append_num(items, x):
    items.append(3)
    return items


def _argument_append_tensor(items, x):
    items.append(x)
    return items


def _argument_extend(items, x):
    items.extend([3, 4])
    return items


def _argument_insert(items, x):
    items.insert(0, 5)
    return items


def _argument_pop(items, x):
    items.pop()
    return items


def _argument_setitem(items, x):
    items[0] = 9
    return items


def _argument_iadd(items, x):
    items += [3]
    return items


def _argument_clear(items, x):
    items.clear()
    return items


def _argument_reverse(items, x):
    items.reverse()
    return items


def _argument_dset(items, x):
    items["c"] = 3
    return items


def _argument_dupdate(items, x):
    items.update({"c": 3})
    return items


def _argument_dpop(items, x):
    items.pop("a")
    return items


def _argument_dior(items, x):
    items |= {"c": 3}
    return items


CHANGES = ("append_num", "append_tensor", "extend", "insert", "pop", "setitem", "iadd", "clear", "reverse", "dset",
            "dupdate", "dpop", "dior")
_GLOBAL = {change: globals()[f"_global_{change}"] for change in CHANGES}
_ARGUMENT = {change: globals()[f"_argument_{change}"] for change in CHANGES}


def result(items, ret, x):
    """What a case returns: 'len' ``x + len(items)``, 'obj' ``items``, else ``x``."""
    if ret == "len":
        return x + len(items)
    if ret == "obj":
        return items
    return x


def _global_caller(x, change, ret):
    x = _GLOBAL[change](x)
    return result(_held, ret, x)


def _argument_caller(items, x, change, ret):
    _ARGUMENT[change](items, x)
    return result(items, ret, x)


class _GlobalCell(nn.Cell):
    def __init__(self, change, ret):
        super().__init__()
        self.change, self.ret = change, ret

    def construct(self, x):
        x = _GLOBAL[self.change](x)
        return result(_held, self.ret, x)


def _attribute_construct(self, x):
    _ARGUMENT[self.change](self.items, x)
    return result(self.items, self.ret, x)


class _AttributeCell(nn.Cell):
    def __init__(self, items, change, ret):
        super().__init__()
        self.items, self.change, self.ret = items, change, ret

    construct = _attribute_construct


class _AttributeJitCell(_AttributeCell):
    construct = ms.jit(_attribute_construct)


def summary(value):
    """A JSON-able summary of ``value``: ["T", values] for a Tensor, [type name, items...] for a sequence."""
    if isinstance(value, Tensor):
        return ["T", value.asnumpy().tolist()]
    if isinstance(value, (tuple, list)):
        return [type(value).__name__] + [summary(item) for item in value]
    if isinstance(value, dict):
        return {str(key): summary(item) for key, item in value.items()}
    return value


def run_case(holder, change, ret, level):
    """Two calls of the case (see the module doc), each as [output, container, identity] or ['raise', type,
    container]."""
    global _held
    items = _held = {"a": 1, "b": 2} if change.startswith("d") else [1, 2]
    graph = holder in ("helper_global_cell", "helper_attr")
    ms.set_context(mode=ms.GRAPH_MODE if graph else ms.PYNATIVE_MODE, jit_syntax_level=getattr(ms, level))
    if holder == "helper_global_jit":
        function = ms.jit(_global_caller)
        call, container = (lambda x: function(x, change, ret)), (lambda: _held)
    elif holder == "helper_global_cell":
        call, container = _GlobalCell(change, ret), (lambda: _held)
    elif holder == "helper_arg_jit":
        function = ms.jit(_argument_caller)
        call, container = (lambda x: function(items, x, change, ret)), (lambda: items)
    else:
        net = (_AttributeCell if holder == "helper_attr" else _AttributeJitCell)(items, change, ret)
        call, container = net, (lambda: net.items)
    rows = []
    try:
        for _ in range(2):
            try:
                output = call(Tensor(np.array([10.0], np.float32)))
            except (TypeError, AttributeError, RuntimeError, KeyError) as error:
                rows.append(["raise", type(error).__name__, summary(container())])
                continue
            rows.append([summary(output), summary(container()), output is container()])
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE, jit_syntax_level=ms.LAX)
    return rows


def recorded_cases():
    """The (holder, change, ret, level) cases the fixture records: every change at LAX returning the length and
    the container, STRICT in GRAPH_MODE, and a few that return neither."""
    holders = ("helper_global_jit", "helper_global_cell", "helper_arg_jit", "helper_attr", "helper_attr_jit")
    cases = [(holder, change, ret, "LAX") for holder in holders for change in CHANGES for ret in ("len", "obj")]
    graph_holders = ("helper_global_cell", "helper_attr")
    cases += [(holder, change, "len", "STRICT") for holder in graph_holders for change in CHANGES]
    cases += [(holder, "dpop", "none", "COMPATIBLE") for holder in graph_holders]
    cases += [(holder, change, "none", "LAX") for holder in holders for change in ("append_num", "extend")]
    return cases + [("helper_arg_jit", "extend", "none", "STRICT")]
