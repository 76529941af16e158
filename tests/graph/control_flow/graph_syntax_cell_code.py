"""Loops, Cell attributes, Tensor attributes, strings, raise/assert and returned values in compiled code.

One program per name (``nn.Cell`` classes, ``j_`` functions under ``ms.jit``, ``p_`` functions calling
compiled code); test_graph_syntax_cell_code runs each in GRAPH_MODE and under ``ms.jit`` in PyNative
against MindSpore 2.10's recorded result."""
# flake8: noqa
import numpy as np

import sporax as ms
from sporax import Parameter, Tensor, nn, ops


class WhileBreakTensor(nn.Cell):
    def construct(self, x):
        i = 0
        while i < 10:
            if (x * i).sum() > 30:
                break
            i = i + 1
        return x * i


class WhileContinueConst(nn.Cell):
    def construct(self, x):
        i = 0
        s = 0
        while i < 6:
            i = i + 1
            if i % 2 == 0:
                continue
            s = s + i
        return x + s


class WhileTensorCondition(nn.Cell):
    def construct(self, x):
        while x.sum() < 100:
            x = x * 2
        return x


class WhileTensorCounter(nn.Cell):
    def construct(self, x):
        n = Tensor(0, ms.int32)
        while x.max() < 50:
            x = x + 7
            n = n + 1
        return x, n


class WhileTrueBreakConst(nn.Cell):
    def construct(self, x):
        i = 0
        while True:
            i += 1
            if i >= 4:
                break
        return x * i


class ForBreakTensor(nn.Cell):
    def construct(self, x):
        for i in range(5):
            x = x + 1
            if x.sum() > 40:
                break
        return x


class ForContinueTensor(nn.Cell):
    def construct(self, x):
        out = x * 0
        for i in range(4):
            if (x * i).sum() > 30:
                continue
            out = out + i
        return out


class ForElse(nn.Cell):
    def construct(self, x):
        for i in range(3):
            if i == 5:
                break
        else:
            return x + 100
        return x


class NestedLoopsBreak(nn.Cell):
    def construct(self, x):
        s = 0
        for i in range(3):
            for j in range(3):
                if j > i:
                    break
                s = s + 1
        return x + s


class ForTensorRows(nn.Cell):
    def construct(self, x):
        out = []
        for row in x:
            out.append(row.max())
        return out


class ForDictValues(nn.Cell):
    def construct(self, x):
        out = x
        for v in {"a": 2, "b": 3}.values():
            out = out * v
        return out


class ForCellList(nn.Cell):
    def __init__(self):
        super().__init__()
        self.layers = nn.CellList([nn.ReLU(), nn.Tanh(), nn.Sigmoid()])
    def construct(self, x):
        for layer in self.layers:
            x = layer(x - 3)
        return x


class ForCellListEnumerate(nn.Cell):
    def __init__(self):
        super().__init__()
        self.layers = nn.CellList([nn.ReLU(), nn.ReLU()])
    def construct(self, x):
        out = x * 0
        for i, layer in enumerate(self.layers):
            out = out + layer(x - 3) * i
        return out


class CellListIndexLen(nn.Cell):
    def __init__(self):
        super().__init__()
        self.layers = nn.CellList([nn.ReLU(), nn.Tanh()])
    def construct(self, x):
        return self.layers[-1](x - 3), len(self.layers)


class SequentialIndex(nn.Cell):
    def __init__(self):
        super().__init__()
        self.seq = nn.SequentialCell([nn.ReLU(), nn.Tanh()])
    def construct(self, x):
        return self.seq[0](x - 3) + self.seq(x - 5)


class CellDictLoop(nn.Cell):
    def __init__(self):
        super().__init__()
        self.cells = nn.CellDict({"relu": nn.ReLU(), "tanh": nn.Tanh()})
    def construct(self, x):
        return self.cells["relu"](x - 3)


class TupleOfCellsAttr(nn.Cell):
    def __init__(self):
        super().__init__()
        self.acts = (nn.ReLU(), nn.Tanh())
    def construct(self, x):
        out = x
        for act in self.acts:
            out = act(out - 2)
        return out


class IfElifElse(nn.Cell):
    def construct(self, x):
        s = x.sum()
        if s > 100:
            y = x * 3
        elif s > 10:
            y = x * 2
        else:
            y = x
        return y


class IfReturnEarlyTensor(nn.Cell):
    def construct(self, x):
        if x.min() > 0:
            return x - 1
        x = x + 10
        return x


class IsinstanceSelfAttr(nn.Cell):
    def __init__(self):
        super().__init__()
        self.act = nn.ReLU()
        self.num = 3
    def construct(self, x):
        return isinstance(self.act, nn.ReLU), isinstance(self.num, int), isinstance(self.num, (float, str))


class IsinstanceTensorArgs(nn.Cell):
    def construct(self, x):
        return isinstance(x, Tensor), isinstance((x,), tuple), isinstance(x.shape, tuple), isinstance(x, (list, dict))


class TypeChecks(nn.Cell):
    def construct(self, x):
        return type(3) == int, type("a") is str, type(x) == Tensor


class GetattrSelf(nn.Cell):
    def __init__(self):
        super().__init__()
        self.scale = 4
    def construct(self, x):
        return x * getattr(self, "scale"), getattr(self, "missing", 7)


class HasattrSelf(nn.Cell):
    def __init__(self):
        super().__init__()
        self.scale = 4
    def construct(self, x):
        return hasattr(self, "scale"), hasattr(self, "missing"), hasattr(x, "shape")


class SetattrExisting(nn.Cell):
    def __init__(self):
        super().__init__()
        self.scale = 4
    def construct(self, x):
        setattr(self, "scale", 5)
        return x * self.scale


class GetattrTensor(nn.Cell):
    def construct(self, x):
        return getattr(x, "shape"), getattr(x, "ndim")


class GetattrMethodName(nn.Cell):
    def construct(self, x):
        f = getattr(x, "sum")
        return f()


class ClassAttribute(nn.Cell):
    FACTOR = 3
    NAMES = ("a", "b")
    def construct(self, x):
        return x * self.FACTOR, self.NAMES[1]


class HelperMethodKwargs(nn.Cell):
    def helper(self, a, scale=2, shift=0):
        return a * scale + shift
    def construct(self, x):
        return self.helper(x), self.helper(x, shift=1), self.helper(x, 3, shift=-1)


class PropertyAttr(nn.Cell):
    def __init__(self):
        super().__init__()
        self._n = 2
    @property
    def doubled(self):
        return self._n * 2
    def construct(self, x):
        return x * self.doubled


class StaticMethodCall(nn.Cell):
    @staticmethod
    def twice(a):
        return a * 2
    def construct(self, x):
        return self.twice(x)


class TensorAttributes(nn.Cell):
    def construct(self, x):
        return x.shape, x.dtype, x.ndim, x.size, x.T


class ShapeArithmetic(nn.Cell):
    def construct(self, x):
        n = x.shape[0] * x.shape[1]
        return x.reshape((n,)), x.shape[-1], x.shape[::-1], len(x.shape)


class DtypeCompare(nn.Cell):
    def construct(self, x):
        if x.dtype == ms.float32:
            return x.astype(ms.int32)
        return x


class TensorMethods(nn.Cell):
    def construct(self, x):
        return x.sum(axis=1), x.mean(), x.max(), x.argmax(axis=1), x.reshape(3, 2), x.transpose(), x.flatten()


class TensorMethodsMore(nn.Cell):
    def construct(self, x):
        return x.expand_dims(0).shape, x.squeeze().shape, x.clip(2, 4), x.abs().min(), x.view(3, 2).shape


class TensorItem(nn.Cell):
    def construct(self, x):
        return x[1, 2].item(), x.sum().asnumpy() if False else x.sum()


class TensorCompareResults(nn.Cell):
    def construct(self, x):
        return x > 2, x == x, (x > 2).any(), (x > 0).all()


class StringConcat(nn.Cell):
    def construct(self, x):
        return "a" + "b", "ab" * 2, "x" + str(3)


class StringFormat(nn.Cell):
    def construct(self, x):
        return "{}-{}".format(1, "a"), "{a}:{b}".format(a=2, b="z")


class StringPercent(nn.Cell):
    def construct(self, x):
        return "%d/%s" % (1, "x")


class StringMethods(nn.Cell):
    def construct(self, x):
        return "abc".upper(), "a,b".split(","), "-".join(("p", "q")), " s ".strip(), "abc".startswith("a")


class StringIndexSlice(nn.Cell):
    def construct(self, x):
        s = "hello"
        return s[1:3], s[-1], s[::-1]


class StringCompareCondition(nn.Cell):
    def __init__(self):
        super().__init__()
        self.mode = "train"
    def construct(self, x):
        if self.mode == "train":
            return x * 2
        return x


class FstringShape(nn.Cell):
    def construct(self, x):
        return f"shape={x.shape}", f"{x.ndim}d"


class RaiseTensorNotTaken(nn.Cell):
    def construct(self, x):
        if x.sum() > 100:
            raise ValueError("too big")
        return x + 1


class RaiseTensorTaken(nn.Cell):
    def construct(self, x):
        if x.sum() > 5:
            raise ValueError("sum too big")
        return x + 1


class RaiseTypeErrorConst(nn.Cell):
    def construct(self, x):
        if x.ndim != 3:
            raise TypeError(f"expected 3 dims, got {x.ndim}")
        return x


class AssertShape(nn.Cell):
    def construct(self, x):
        assert x.shape == (2, 3)
        return x + 1


class AssertShapeFails(nn.Cell):
    def construct(self, x):
        assert x.shape[0] == 3, "rows must be 3"
        return x


class AssertTensorCondition(nn.Cell):
    def construct(self, x):
        assert x.min() > 0
        return x * 2


class ReturnMixedTuple(nn.Cell):
    def construct(self, x):
        return x, 1, "a", None, (2.5, True)


class ReturnDict(nn.Cell):
    def construct(self, x):
        return {"a": x, "b": 2}


class ReturnNestedDict(nn.Cell):
    def construct(self, x):
        return {"outer": {"inner": x + 1}, "n": (1, 2)}


class ReturnList(nn.Cell):
    def construct(self, x):
        return [x, 1, [2, "s"]]


class ReturnEmptyTuple(nn.Cell):
    def construct(self, x):
        return ()


class ReturnBool(nn.Cell):
    def construct(self, x):
        return True


class ReturnFloatScalar(nn.Cell):
    def construct(self, x):
        return 1.5 * 2


class ReturnNoneInTuple(nn.Cell):
    def construct(self, x):
        return (None, x)


class ReturnTupleTensorBranch(nn.Cell):
    def construct(self, x):
        if x.sum() > 5:
            return x, 1
        return x * 2, 2
