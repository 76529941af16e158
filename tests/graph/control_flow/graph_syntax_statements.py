"""Statements, builtins and third-party calls in compiled code: the corpus of programs MindSpore 2.10's graph compiler refuses or runs,
one per name (``Net`` classes and ``ms.jit`` functions). test_graph_syntax_corpus calls each at every
jit_syntax_level against the recorded result."""
# flake8: noqa
import math
import random

import numpy as np

import sporax as ms
from sporax import Parameter, Tensor, nn, ops

MISSING_FILE = "/nonexistent/sporax-graph-syntax.txt"


class YieldGen(nn.Cell):
    def construct(self, x):
        yield x


COUNTERGlobalWrite = 0
class GlobalWrite(nn.Cell):
    def construct(self, x):
        global COUNTERGlobalWrite
        COUNTERGlobalWrite = COUNTERGlobalWrite + 1
        return x + COUNTERGlobalWrite


SCALEGlobalReadDecl = 3
class GlobalReadDecl(nn.Cell):
    def construct(self, x):
        global SCALEGlobalReadDecl
        return x * SCALEGlobalReadDecl


class StarAssignTuple(nn.Cell):
    def construct(self, x):
        a, *b = (1, 2, 3)
        return x + a + len(b)


class StarAssignTensor(nn.Cell):
    def construct(self, x):
        a, *b = x
        return a


class StarAssignListTensors(nn.Cell):
    def construct(self, x):
        *a, b = [x, x + 1, x + 2]
        return b + len(a)


class StarCallArgs(nn.Cell):
    def construct(self, x):
        args = (x, x)
        return ops.add(*args)


class BuiltinOpen(nn.Cell):
    def construct(self, x):
        f = open(MISSING_FILE)
        return x


class BuiltinEval(nn.Cell):
    def construct(self, x):
        return x + eval("1 + 1")


class BuiltinId(nn.Cell):
    def construct(self, x):
        return x + (id(x) > 0)


class BuiltinHash(nn.Cell):
    def construct(self, x):
        return x + hash(3)


class BuiltinIterNext(nn.Cell):
    def construct(self, x):
        it = iter([1, 2])
        return x + next(it)


class BuiltinCallable(nn.Cell):
    def construct(self, x):
        return x + callable(x)


class BuiltinSortedList(nn.Cell):
    def construct(self, x):
        return x + sorted([3, 1, 2])[0]


class BuiltinChrOrd(nn.Cell):
    def construct(self, x):
        return x + ord("a")


class ThirdPartyNpTensor(nn.Cell):
    def construct(self, x):
        return Tensor(np.sum(x.asnumpy()))


class ThirdPartyNpConst(nn.Cell):
    def construct(self, x):
        return x + np.sqrt(4.0)


class ThirdPartyMathTensor(nn.Cell):
    def construct(self, x):
        return math.sqrt(x)


class ThirdPartyRandom(nn.Cell):
    def construct(self, x):
        return x + random.randint(1, 1)


class IsinstanceNdarray(nn.Cell):
    def construct(self, x):
        if isinstance(x, np.ndarray):
            return x + 1
        return x


class MineIsinstanceUserClass:
    pass
class IsinstanceUserClass(nn.Cell):
    def construct(self, x):
        if isinstance(x, MineIsinstanceUserClass):
            return x + 1
        return x


class IsinstanceTensorTuple(nn.Cell):
    def construct(self, x):
        if isinstance(x, (Tensor, list)):
            return x + 1
        return x


class RaiseFstringTensor(nn.Cell):
    def construct(self, x):
        if x.sum() > 100:
            raise ValueError(f"too large: {x}")
        return x


class RaiseFstringTensorTaken(nn.Cell):
    def construct(self, x):
        if x.sum() > 0:
            raise ValueError(f"too large: {x}")
        return x


class RaiseConstant(nn.Cell):
    def construct(self, x):
        raise ValueError("always")


class RaiseTensorArg(nn.Cell):
    def construct(self, x):
        if x.sum() > 0:
            raise ValueError("bad", x)
        return x


class BoolTensorMulti(nn.Cell):
    def construct(self, x):
        if x:
            return x
        return x + 1


class BoolCallTensor(nn.Cell):
    def construct(self, x):
        return x + bool(x.sum() > 0)


class IntOfTensor(nn.Cell):
    def construct(self, x):
        return x + int(x.sum())


class AssertTensor(nn.Cell):
    def construct(self, x):
        assert x.sum() > 0
        return x


class AssertTensorFails(nn.Cell):
    def construct(self, x):
        assert x.sum() < 0, "negative expected"
        return x


class ReturnSet(nn.Cell):
    def construct(self, x):
        return set([1, 2])


class ReturnGenerator(nn.Cell):
    def construct(self, x):
        return (i for i in range(3))


class MineReturnClassInstance:
    def __init__(self, v):
        self.v = v
class ReturnClassInstance(nn.Cell):
    def construct(self, x):
        return MineReturnClassInstance(x)
