"""Returned values, Cell attributes, recursion, dicts and loops over tensors in compiled code: the corpus of programs MindSpore 2.10's graph compiler refuses or runs,
one per name (``Net`` classes and ``ms.jit`` functions). test_graph_syntax_corpus calls each at every
jit_syntax_level against the recorded result."""
# flake8: noqa
import math
import random

import numpy as np

import sporax as ms
from sporax import Parameter, Tensor, nn, ops

MISSING_FILE = "/nonexistent/sporax-graph-syntax.txt"


class ReturnNone(nn.Cell):
    def construct(self, x):
        return None


class ReturnString(nn.Cell):
    def construct(self, x):
        return "abc"


def helper_return_function(v):
    return v
class ReturnFunction(nn.Cell):
    def construct(self, x):
        return helper_return_function


class ReturnSlice(nn.Cell):
    def construct(self, x):
        return slice(1, 2)


class ReturnType(nn.Cell):
    def construct(self, x):
        return int


class ListAttrAppend(nn.Cell):
    def __init__(self):
        super().__init__()
        self.items = [1, 2]
    def construct(self, x):
        self.items.append(3)
        return x + len(self.items)


class SelfSetattrInt(nn.Cell):
    def __init__(self):
        super().__init__()
        self.count = 0
    def construct(self, x):
        self.count = self.count + 1
        return x + self.count


class SelfSetattrBuiltin(nn.Cell):
    def construct(self, x):
        setattr(self, "flag", 1)
        return x


class SelfNewAttrTensor(nn.Cell):
    def construct(self, x):
        self.cache = x * 2
        return self.cache


def fact_recursion_const(n):
    if n <= 1:
        return 1
    return n * fact_recursion_const(n - 1)
class RecursionConst(nn.Cell):
    def construct(self, x):
        return x * fact_recursion_const(4)


class RecursionTensor(nn.Cell):
    def f(self, x):
        if x.sum() > 20:
            return x
        return self.f(x * 2)
    def construct(self, x):
        return self.f(x)


class DictTensorKey(nn.Cell):
    def construct(self, x):
        d = {x: 1}
        return x


class DictTensorValue(nn.Cell):
    def construct(self, x):
        d = {"a": x, "b": x + 1}
        return d["b"]


class ForDynamicShape(nn.Cell):
    def construct(self, x):
        y = ops.unique(ops.flatten(x, start_dim=0))[0]
        s = 0
        for v in y:
            s = s + v
        return s


class ForTensorRows(nn.Cell):
    def construct(self, x):
        s = x[0] * 0
        for row in x:
            s = s + row
        return s


class RangeTensor(nn.Cell):
    def construct(self, x):
        s = 0
        for i in range(x.sum()):
            s = s + i
        return x + s


class LenScalarTensor(nn.Cell):
    def construct(self, x):
        return x + len(x.sum())


class TensorNoAttr(nn.Cell):
    def construct(self, x):
        return x.no_such_method()


class SelfNoAttr(nn.Cell):
    def construct(self, x):
        return x + self.missing


class UndefinedName(nn.Cell):
    def construct(self, x):
        return x + undefined_thing


class TolistTensor(nn.Cell):
    def construct(self, x):
        return x + x.tolist()[0][0]


class FstringReturn(nn.Cell):
    def construct(self, x):
        return f"value {x}"


class StrTensor(nn.Cell):
    def construct(self, x):
        return str(x)


class WithOpen(nn.Cell):
    def construct(self, x):
        with open(MISSING_FILE) as f:
            pass
        return x


class MatchStmt(nn.Cell):
    def construct(self, x):
        match 1:
            case 1:
                y = x
            case _:
                y = x + 1
        return y


class LambdaDefault(nn.Cell):
    def construct(self, x):
        f = lambda v, k=2: v * k
        return f(x)


class KwargsConstruct(nn.Cell):
    def construct(self, x, **kwargs):
        return x


class ShapeAssign(nn.Cell):
    def construct(self, x):
        x.shape = (3, 2)
        return x


class DivZeroConst(nn.Cell):
    def construct(self, x):
        return x + 1 // 0


class IndexOutOfRangeList(nn.Cell):
    def construct(self, x):
        a = [1, 2]
        return x + a[5]


class TupleSetitem(nn.Cell):
    def construct(self, x):
        t = (1, 2)
        t[0] = 3
        return x


class StringTensorAdd(nn.Cell):
    def construct(self, x):
        return "a" + x


class WhileTrueBreakTensor(nn.Cell):
    def construct(self, x):
        while True:
            x = x * 2
            if x.sum() > 50:
                break
        return x


@ms.jit
def JitFnTry(x):
    try:
        return x + 1
    except Exception:
        return x


GJitFnGlobalWrite = [0]
@ms.jit
def JitFnGlobalWrite(x):
    global GJitFnGlobalWrite
    GJitFnGlobalWrite = 5
    return x


class BoxJitFnListReturnClass:
    pass
@ms.jit
def JitFnListReturnClass(x):
    return BoxJitFnListReturnClass()


class UnboundConstantIf(nn.Cell):
    def construct(self, x):
        if x.shape[0] < 5:
            pass
        else:
            y = 2
        return x + y


class UnboundConstantIfUnused(nn.Cell):
    def construct(self, x):
        if x.shape[0] < 5:
            y = 2
        return x


class AssertConstantText(nn.Cell):
    def construct(self, x):
        assert x.shape[0] > 5, f"{x.shape[0]} rows"
        return x


class AssertConstantNumber(nn.Cell):
    def construct(self, x):
        assert x.shape[0] > 5, 7
        return x


class MaxOfTensors(nn.Cell):
    def construct(self, x):
        return max(x, x + 1)


class MinOfEmpty(nn.Cell):
    def construct(self, x):
        return x + min([])


@ms.jit
def JitFnUndefinedName(x):
    return x * undefined_jit_thing


class TupleIndexNegative(nn.Cell):
    def construct(self, x):
        t = (1, 2, 3)
        return x + t[-4]


class ForOverInt(nn.Cell):
    def construct(self, x):
        for i in 5:
            x = x + i
        return x


class ForOverNone(nn.Cell):
    def construct(self, x):
        for i in None:
            x = x + i
        return x


class IsinstanceNotType(nn.Cell):
    def construct(self, x):
        return isinstance(x, (int, 3))


class NoneOrTensorTaken(nn.Cell):
    def construct(self, x):
        y = None
        if x.sum() > 0:
            y = x * 2
        return y


class NoneOrTensorNotTaken(nn.Cell):
    def construct(self, x):
        mask = None
        if x.sum() < 0:
            mask = x * 2
        if mask is not None:
            x = x + mask
        return mask, x


class OwnError(Exception):
    pass
class RaiseOwnException(nn.Cell):
    def construct(self, x):
        if x.shape[0] > 5:  # not taken: the graph parser refuses the class all the same
            raise OwnError("own")
        return x


class FstringSpec(nn.Cell):
    def construct(self, x):
        n = x.shape[1]
        return f"{n:>4}|{'ab'!r}|{2.5:.3f}"


class IntOfTensorMany(nn.Cell):
    def construct(self, x):
        return int(x)


class FloatOfTensorMany(nn.Cell):
    def construct(self, x):
        return float(x)


class BoolOfTensorMany(nn.Cell):
    def construct(self, x):
        return bool(x)


class StringIndexOutOfRange(nn.Cell):
    def construct(self, x):
        return "abcd"[4]


class RangeFloat(nn.Cell):
    def construct(self, x):
        return x + len(range(2.5))


class RangeZeroStep(nn.Cell):
    def construct(self, x):
        return x + len(range(0, 5, 0))


class EnumerateNumber(nn.Cell):
    def construct(self, x):
        return x + len(enumerate(5))


class ListIndexFloat(nn.Cell):
    def construct(self, x):
        index = 1.0
        return x + [1, 2][index]


class DictListKey(nn.Cell):
    def construct(self, x):
        return {[1]: x}


class ForBodyLocalAfter(nn.Cell):
    def construct(self, x):
        for i in range(3):
            y = x * i
        return y


class ForTargetAfter(nn.Cell):
    def construct(self, x):
        for a, b in ((1, 2), (3, 4)):
            x = x + a
        return x + b


class ForTargetDefinedBefore(nn.Cell):
    def construct(self, x):
        i = 0
        for i in range(3):
            x = x + 1
        return x + i
