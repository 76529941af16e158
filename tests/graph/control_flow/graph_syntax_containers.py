"""Lists, tuples, dicts and strings built, changed and returned in compiled code.

One program per name (``nn.Cell`` classes, ``j_`` functions under ``ms.jit``, ``p_`` functions calling
compiled code); test_graph_syntax_modes runs each in GRAPH_MODE and under ``ms.jit`` in PyNative
against MindSpore 2.10's recorded result."""
# flake8: noqa
import numpy as np

import sporax as ms
from sporax import Tensor, nn, ops


class DictUpdate(nn.Cell):
    def construct(self, x):
        d = {"a": x, "b": 1}
        d.update({"b": 2, "c": x * 3})
        return d


class DictPop(nn.Cell):
    def construct(self, x):
        d = {"a": x, "b": x + 1, "c": 3}
        v = d.pop("b")
        return v, len(d), d


class DictPopDefault(nn.Cell):
    def construct(self, x):
        d = {"a": x}
        return d.pop("z", 7)


class DictGetDefault(nn.Cell):
    def construct(self, x):
        d = {"a": x, "n": 4}
        return d.get("a") * d.get("n", 0), d.get("missing", 5), d.get("missing")


class DictFromKeys(nn.Cell):
    def construct(self, x):
        d = dict.fromkeys(("p", "q"), 0)
        d["p"] = x
        return d


class DictHasKey(nn.Cell):
    def construct(self, x):
        d = {"a": 1, "b": 2}
        return "a" in d, "z" in d, "a" not in d


class DictKeyMissing(nn.Cell):
    def construct(self, x):
        d = {"a": x}
        return d["b"]


class DictIntKeys(nn.Cell):
    def construct(self, x):
        d = {0: x, 1: x * 2}
        return d[1] - d[0]


class DictTupleValue(nn.Cell):
    def construct(self, x):
        d = {"pair": (x, x.sum())}
        a, s = d["pair"]
        return a / s


class DictInLoopAccumulate(nn.Cell):
    def construct(self, x):
        d = {"s": x * 0}
        for i in range(3):
            d["s"] = d["s"] + x * i
        return d["s"]


class DictValuesSum(nn.Cell):
    def construct(self, x):
        d = {"a": x, "b": x * 2, "c": x * 3}
        total = 0
        for v in d.values():
            total = total + v
        return total


class DictLenKeysList(nn.Cell):
    def construct(self, x):
        d = {"x": 1, "y": 2}
        return len(d), list(d.keys())


class ListInsert(nn.Cell):
    def construct(self, x):
        a = [1, 2, 3]
        a.insert(1, 9)
        a.insert(-1, 8)
        return a


class ListPop(nn.Cell):
    def construct(self, x):
        a = [x, x + 1, x + 2]
        last = a.pop()
        first = a.pop(0)
        return last - first, len(a)


class ListExtend(nn.Cell):
    def construct(self, x):
        a = [1]
        a.extend((2, 3))
        a.extend([x])
        return len(a), a[-1]


class ListRemoveIndexCount(nn.Cell):
    def construct(self, x):
        a = [3, 1, 4, 1, 5]
        a.remove(1)
        return a, a.index(4), a.count(1)


class ListReverseMethod(nn.Cell):
    def construct(self, x):
        a = [1, 2, 3]
        a.reverse()
        return a


class ListClear(nn.Cell):
    def construct(self, x):
        a = [1, 2]
        a.clear()
        return a, len(a)


class ListSetItemTensor(nn.Cell):
    def construct(self, x):
        a = [x, x, x]
        a[1] = x * 10
        a[-1] = x - 1
        return a


class ListSliceNegativeStep(nn.Cell):
    def construct(self, x):
        a = [0, 1, 2, 3, 4, 5]
        return a[::-1], a[4:1:-1], a[::-2], a[-3:]


class TupleSliceSteps(nn.Cell):
    def construct(self, x):
        t = (10, 20, 30, 40, 50)
        return t[1::2], t[-1:-4:-1], t[:100], t[5:]


class ListSliceAssign(nn.Cell):
    def construct(self, x):
        a = [0, 1, 2, 3]
        a[1:3] = [7, 8, 9]
        return a


class ListConcatRepeat(nn.Cell):
    def construct(self, x):
        a = [1, 2] + [3]
        b = [0] * 3
        return a, b, a + b


class TupleConcatTensors(nn.Cell):
    def construct(self, x):
        t = (x,) + (x * 2, x * 3)
        return t[2] - t[0], len(t)


class TupleIndexCount(nn.Cell):
    def construct(self, x):
        t = (1, 2, 2, 3)
        return t.index(3), t.count(2)


class TupleCompare(nn.Cell):
    def construct(self, x):
        return (1, 2) == (1, 2), (1, 2) < (1, 3), [1, 2] != [1, 2], x.shape == (2, 3)


class TupleOfTensorsIndexByTensor(nn.Cell):
    def construct(self, x):
        t = (x, x * 2, x * 3)
        i = Tensor(2, ms.int32)
        return t[i]


class ListOfTensorsIndexByTensor(nn.Cell):
    def construct(self, x):
        a = [x, x + 1, x + 2]
        return a[Tensor(1, ms.int32)]


class NestedListOutput(nn.Cell):
    def construct(self, x):
        return [[x, (x.sum(), 1)], {"k": [x * 2]}]


class NestedTupleUnpack(nn.Cell):
    def construct(self, x):
        (a, (b, c)), d = (x, (x + 1, x + 2)), 3
        return a + b + c + d


class TupleInDictInList(nn.Cell):
    def construct(self, x):
        items = [{"w": (x, 2)}, {"w": (x * 2, 3)}]
        out = 0
        for item in items:
            t, k = item["w"]
            out = out + t * k
        return out


class ListToTupleConvert(nn.Cell):
    def construct(self, x):
        a = [x.shape[0], x.shape[1]]
        return tuple(a), list((1, 2)), tuple(range(3))


class ListOfShapesReshape(nn.Cell):
    def construct(self, x):
        shape = list(x.shape)
        shape.reverse()
        return x.reshape(tuple(shape))


class ListInTensorCondition(nn.Cell):
    def construct(self, x):
        a = [1, 2]
        if x.sum() > 10:
            a.append(3)
        return len(a)


class EmptyListAppendLoop(nn.Cell):
    def construct(self, x):
        out = []
        for row in x:
            out.append(row * 2)
        return ops.stack(out)


class ListComprehensionOverDict(nn.Cell):
    def construct(self, x):
        d = {"a": 1, "b": 2}
        return [x * v for v in d.values()]


class ZipDictItems(nn.Cell):
    def construct(self, x):
        d = {"a": 2, "b": 3}
        keys = []
        prod = 1
        for k, v in d.items():
            keys.append(k)
            prod = prod * v
        return keys, prod


class StrJoinSplit(nn.Cell):
    def construct(self, x):
        parts = "a,b,c".split(",")
        return "-".join(parts), "".join(("x", "y"))


class StrMethodsMore(nn.Cell):
    def construct(self, x):
        s = "  Hello World  "
        return s.strip(), s.lower().strip(), "abc".startswith("ab"), "abc".endswith("bc"), "a-b".replace("-", "+")


class StrFindCount(nn.Cell):
    def construct(self, x):
        s = "banana"
        return s.find("an"), s.count("a"), s.upper(), len(s)


class StrMultiplyCompare(nn.Cell):
    def construct(self, x):
        return "ab" * 2, "a" < "b", "abc" == "abc", "b" in "abc"


class FstringInts(nn.Cell):
    def construct(self, x):
        n = x.shape[0]
        return f"n={n}, m={x.shape[1]}, t={n * 2}"


class FstringFormatSpec(nn.Cell):
    def construct(self, x):
        v = 3.14159
        return f"{v:.2f}", f"{7:03d}", f"{'s'!r}"


class StrFormatMethod(nn.Cell):
    def construct(self, x):
        return "{}+{}={}".format(1, 2, 3), "{a}-{b}".format(a="p", b=x.ndim)


class FstringTensorValue(nn.Cell):
    def construct(self, x):
        return f"sum: {x.sum()}"


class StrOfTuple(nn.Cell):
    def construct(self, x):
        return str((1, 2)), str([3]), str(None), str(True)


class StrAsDictKey(nn.Cell):
    def construct(self, x):
        d = {}
        for i in range(2):
            d["k" + str(i)] = x * i
        return d


class StrCompareInIf(nn.Cell):
    def __init__(self):
        super().__init__()
        self.mode = "sum"

    def construct(self, x):
        if self.mode == "sum":
            return x.sum()
        elif self.mode == "mean":
            return x.mean()
        return x


class StrIterate(nn.Cell):
    def construct(self, x):
        out = []
        for ch in "abc":
            out.append(ch + ch)
        return out


class StrIntConversion(nn.Cell):
    def construct(self, x):
        return int("12") + 1, float("1.5") * 2, str(3.5)


class TupleMulTensorElement(nn.Cell):
    def construct(self, x):
        t = (x, 2) * 2
        return len(t), t[2] * t[3]


class DictReturnOrder(nn.Cell):
    def construct(self, x):
        d = {}
        d["z"] = 1
        d["a"] = x
        d["m"] = (2, 3)
        return d


class DictItemsSorted(nn.Cell):
    def construct(self, x):
        d = {"b": 2, "a": 1, "c": 3}
        return sorted(d.keys()), max(d.values()), min(d.items())


class DictCopy(nn.Cell):
    def construct(self, x):
        d = {"a": 1}
        e = d.copy()
        e["a"] = 5
        return d["a"], e["a"]


class ListCopy(nn.Cell):
    def construct(self, x):
        a = [1, 2]
        b = a.copy()
        b.append(3)
        return a, b


class TupleOfTensorsNegativeSlice(nn.Cell):
    def construct(self, x):
        t = (x, x + 1, x + 2, x + 3)
        s = t[::-2]
        return s[0] - s[1], len(s)


class StrInCondition(nn.Cell):
    def __init__(self):
        super().__init__()
        self.act = "relu6"

    def construct(self, x):
        if "relu" in self.act:
            return ops.relu(x - 3)
        return x


class FstringNestedSpec(nn.Cell):
    def construct(self, x):
        width = 6
        return f"{x.shape[1]:>{width}}|", f"{1.5:{width}.2f}"


class DictSortedIntKeys(nn.Cell):
    def construct(self, x):
        d = {2: x * 2, 0: x, 1: x + 1}
        out = []
        for k in sorted(d.keys()):
            out.append(d[k].sum())
        return out


class ListOfTuplesUnpackLoop(nn.Cell):
    def construct(self, x):
        pairs = [(1, x), (2, x * 2)]
        s = x * 0
        for k, v in pairs:
            s = s + v * k
        return s


@ms.jit
def j_list_ops(x):
    a = [x]
    a.append(x + 1)
    a.insert(0, x - 1)
    return a[0] + a[1] + a[2], len(a)


@ms.jit
def j_dict_update_return(x):
    d = {"x": x}
    d["y"] = x * 2
    d.update(z=x * 3)
    return d


@ms.jit
def j_nested_tuple_return(x):
    return ((x, (x + 1,)), [x.shape, {"n": x.ndim}])


@ms.jit
def j_fstring_shape_dtype(x):
    return f"{x.shape}|{x.dtype}|{x.ndim}"


@ms.jit
def j_tuple_index_negative_step_tensors(x):
    t = (x[0], x[1])
    return t[::-1]


@ms.jit
def j_max_of_list_of_ints_from_shape(x):
    dims = [d for d in x.shape]
    return max(dims), sum(dims), min(dims) * 2
