"""Closures, lambdas, comprehensions and Python built-ins over tuples and Tensors in compiled code.

One program per name (``nn.Cell`` classes, ``j_`` functions under ``ms.jit``, ``p_`` functions calling
compiled code); test_graph_syntax_builtins runs each in GRAPH_MODE and under ``ms.jit`` in PyNative
against MindSpore 2.10's recorded result."""
# flake8: noqa
import numpy as np

import sporax as ms
from sporax import Tensor, nn, ops


class ClosureAdd(nn.Cell):
    def construct(self, x):
        k = 3
        def inner(a):
            return a + k
        return inner(x)


class ClosureOverTensor(nn.Cell):
    def construct(self, x):
        y = x * 2
        def inner(a):
            return a + y
        return inner(x)


class ClosureFactory(nn.Cell):
    def construct(self, x):
        def make(n):
            def scale(a):
                return a * n
            return scale
        double = make(2)
        triple = make(3)
        return double(x) + triple(x)


class NestedDefDefault(nn.Cell):
    def construct(self, x):
        def inner(a, b=10):
            return a - b
        return inner(x), inner(x, 1)


class NestedTwoLevels(nn.Cell):
    def construct(self, x):
        def outer(a):
            def inner(b):
                return b * a
            return inner(a) + 1
        return outer(x)


class LambdaSimple(nn.Cell):
    def construct(self, x):
        f = lambda a: a * 2
        return f(x)


class LambdaKeyword(nn.Cell):
    def construct(self, x):
        f = lambda a, b=1: a - b
        return f(x, b=4)


class LambdaTupleIndex(nn.Cell):
    def construct(self, x):
        fs = (lambda a: a + 1, lambda a: a * 10)
        return fs[1](x)


class LambdaCapture(nn.Cell):
    def construct(self, x):
        s = x.sum()
        f = lambda a: a / s
        return f(x)


class ListCompTensors(nn.Cell):
    def construct(self, x):
        return [x * i for i in range(3)]


class ListCompIf(nn.Cell):
    def construct(self, x):
        return [i for i in range(7) if i % 2 == 0]


class ListCompTwoFor(nn.Cell):
    def construct(self, x):
        return [i * j for i in range(1, 3) for j in range(3)]


class ListCompNested(nn.Cell):
    def construct(self, x):
        return [[i + j for j in range(3)] for i in range(2)]


class ListCompOverTensor(nn.Cell):
    def construct(self, x):
        return [row.sum() for row in x]


class DictComp(nn.Cell):
    def construct(self, x):
        return {k: x * v for k, v in zip(("a", "b"), (1, 2))}


class DictCompIf(nn.Cell):
    def construct(self, x):
        return {str(i): i * i for i in range(5) if i > 2}


class GeneratorSum(nn.Cell):
    def construct(self, x):
        return sum(x * i for i in range(3))


class ZipTuples(nn.Cell):
    def construct(self, x):
        s = 0
        for a, b in zip((1, 2, 3), (4, 5, 6)):
            s = s + a * b
        return s


class ZipUneven(nn.Cell):
    def construct(self, x):
        return tuple(zip((1, 2, 3), ("a", "b")))


class ZipTensorRows(nn.Cell):
    def construct(self, x):
        out = x[0] * 0
        for a, b in zip(x, x * 2):
            out = out + a * b
        return out


class EnumerateTuple(nn.Cell):
    def construct(self, x):
        out = x * 0
        for i, v in enumerate((x, x * 2, x * 3)):
            out = out + i * v
        return out


class EnumerateStart(nn.Cell):
    def construct(self, x):
        return tuple(i for i, _ in enumerate(("a", "b", "c"), start=5))


class EnumerateTensor(nn.Cell):
    def construct(self, x):
        out = x[0]
        for i, row in enumerate(x):
            out = out + row * i
        return out


class EnumerateList(nn.Cell):
    def construct(self, x):
        return list(enumerate([x[0, 0], 7]))


class RangeNegativeStep(nn.Cell):
    def construct(self, x):
        return tuple(range(10, 0, -3))


class RangeLen(nn.Cell):
    def construct(self, x):
        return len(range(2, 11, 3)), range(5)[2]


class ReversedTuple(nn.Cell):
    def construct(self, x):
        return tuple(reversed((1, 2, 3)))


class ReversedList(nn.Cell):
    def construct(self, x):
        out = []
        for v in reversed([x, x + 1]):
            out.append(v.sum())
        return out


class ReversedRange(nn.Cell):
    def construct(self, x):
        return list(reversed(range(4)))


class MapLambda(nn.Cell):
    def construct(self, x):
        return tuple(map(lambda a: a + 1, (1, 2, 3)))


class MapTensors(nn.Cell):
    def construct(self, x):
        return tuple(map(lambda t: t * 2, (x, x + 1)))


class MapTwoIterables(nn.Cell):
    def construct(self, x):
        return list(map(lambda a, b: a * b, [1, 2, 3], [4, 5, 6]))


class FilterTuple(nn.Cell):
    def construct(self, x):
        return tuple(filter(lambda a: a > 1, (1, 2, 3)))


class FilterNone(nn.Cell):
    def construct(self, x):
        return list(filter(None, [0, 1, 2, 0]))


class SortedReverse(nn.Cell):
    def construct(self, x):
        return sorted((3, 1, 2), reverse=True)


class SortedKey(nn.Cell):
    def construct(self, x):
        return sorted([3, 1, 2], key=lambda a: -a)


class SortedStrings(nn.Cell):
    def construct(self, x):
        return sorted(("b", "c", "a"))


class AnyAllConst(nn.Cell):
    def construct(self, x):
        return any((0, 1)), all((1, 0)), any(()), all([])


class AnyTensorRow(nn.Cell):
    def construct(self, x):
        return any(x[0] > 2), all(x[0] > 0)


class AllTensorCondition(nn.Cell):
    def construct(self, x):
        if all(x[1] > 3):
            return x + 1
        return x - 1


class SumStart(nn.Cell):
    def construct(self, x):
        return sum((1, 2, 3), 10), sum([0.5, 1.5])


class SumTensorRows(nn.Cell):
    def construct(self, x):
        return sum(x)


class SumTensorTuple(nn.Cell):
    def construct(self, x):
        return sum((x, x, x))


class MaxMinScalars(nn.Cell):
    def construct(self, x):
        return max(1, 5, 3), min((4, 2)), max([1.5, 0.5])


class MaxTensorScalars(nn.Cell):
    def construct(self, x):
        return max(x[0][0], x[1][2]), min(x[0][1], x[1][0])


class MaxKey(nn.Cell):
    def construct(self, x):
        return max((1, -5, 3), key=lambda a: a * a)


class AbsRoundPow(nn.Cell):
    def construct(self, x):
        return abs(-3), round(2.567, 2), round(2.5), pow(2, 3), divmod(7, 2)


class AbsTensor(nn.Cell):
    def construct(self, x):
        return abs(x - 3)


class LenVariants(nn.Cell):
    def construct(self, x):
        return len(x), len((1, 2)), len({"a": 1}), len("abcd"), len([x, x, x])


class Conversions(nn.Cell):
    def construct(self, x):
        return int(3.7), float(2), bool(0), str(12), int("5"), bool("")


class TensorToScalar(nn.Cell):
    def construct(self, x):
        return int(x[1, 2]), float(x[0, 0]), bool(x[0, 0])


class TupleOps(nn.Cell):
    def construct(self, x):
        t = (1, 2) + (3,)
        return t, (0,) * 3, t[1:], t[::-1], t.index(2), t.count(3)


class ListMethods(nn.Cell):
    def construct(self, x):
        a = [1, 2]
        a.append(3)
        a.extend([4, 5])
        a.insert(0, 0)
        b = a.pop()
        a.reverse()
        return a, b


class ListOfTensorsAppend(nn.Cell):
    def construct(self, x):
        out = []
        for i in range(3):
            out.append(x[0] * i)
        return ops.stack(out)


class DictMethods(nn.Cell):
    def construct(self, x):
        d = {"a": 1, "b": 2}
        d.update({"c": 3})
        return d.keys(), d.values(), d.items(), d.get("z", 9), d.get("a")


class DictIterate(nn.Cell):
    def construct(self, x):
        d = {"a": x, "b": x * 2}
        out = x * 0
        for k in d:
            out = out + d[k]
        return out


class DictItemsLoop(nn.Cell):
    def construct(self, x):
        d = {"a": 1, "b": 2}
        out = x
        for k, v in d.items():
            out = out * v
        return out


class DictSetItem(nn.Cell):
    def construct(self, x):
        d = {"a": x}
        d["b"] = x + 1
        d["a"] = d["a"] * 3
        return d


class InOperator(nn.Cell):
    def construct(self, x):
        return 2 in (1, 2, 3), "a" in {"a": 1}, 5 not in [1, 2], "bc" in "abcd"


class StarUnpack(nn.Cell):
    def construct(self, x):
        a, *b = (1, 2, 3)
        *c, d = [x, x + 1, x + 2]
        return a, b, len(c), d


class ChainedCompare(nn.Cell):
    def construct(self, x):
        return 1 < 2 < 3, 3 > 2 > 5


class ChainedCompareTensor(nn.Cell):
    def construct(self, x):
        if 0 < x[0, 1] < 3:
            return x * 2
        return x


class TernaryTensor(nn.Cell):
    def construct(self, x):
        return x * 2 if x.sum() > 5 else x


class TernaryConst(nn.Cell):
    def construct(self, x):
        n = 3
        return x + (1 if n > 2 else 0)


class BoolOpsTensor(nn.Cell):
    def construct(self, x):
        a = x.sum() > 0 and x.max() < 10
        b = x.sum() < 0 or x.min() > 0
        return a, b, not x.sum() > 100


class BoolOpsValues(nn.Cell):
    def construct(self, x):
        return 0 or 5, 3 and 4, None or "d", [] or (1,)


class IsNoneChecks(nn.Cell):
    def construct(self, x, y=None):
        if y is None:
            return x + 1, y is not None
        return x, True


class Walrus(nn.Cell):
    def construct(self, x):
        if (n := 3) > 2:
            return x * n
        return x
