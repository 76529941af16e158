"""Op errors, members and list methods in compiled code: programs MindSpore 2.10's graph compiler refuses or runs,
one per name (``Net`` classes and ``ms.jit`` functions, each called with a (2, 3) Tensor of ones).
test_graph_syntax_corpus calls each at the levels its table names against the recorded result."""
# flake8: noqa
import numpy as np

import sporax as ms
from sporax import Parameter, Tensor, nn, ops


class BroadcastAdd(nn.Cell):
    def construct(self, x):
        return x + Tensor(np.ones((3, 4), np.float32))


@ms.jit
def BroadcastWhere(x):
    return ops.where(x > 0, x, Tensor(np.ones((3, 2, 4), np.float32)))


class TensorPlusString(nn.Cell):
    def construct(self, x):
        return x + "a"


class TensorTimesString(nn.Cell):
    def construct(self, x):
        return x * "a"


class TensorPlusNone(nn.Cell):
    def construct(self, x):
        return x + None


class TensorLessNone(nn.Cell):
    def construct(self, x):
        return x < None


class OpsAddString(nn.Cell):
    def construct(self, x):
        return ops.add(x, "a")


class OpsSubList(nn.Cell):
    def construct(self, x):
        return ops.sub(x, [1, 2])


class ParameterName(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.ones(3, np.float32)), name="weight")
    def construct(self, x):
        return x * self.w, self.w.name


class TrainableParamsInGraph(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.ones(3, np.float32)), name="weight")
    def construct(self, x):
        return x + len(self.trainable_params())


class Scaled(nn.Cell):
    def __init__(self, k):
        super().__init__()
        self.w = Parameter(Tensor(np.full(3, k, np.float32)), name="w")
    def construct(self, x):
        return x * self.w


class CellListSlice(nn.Cell):
    def __init__(self):
        super().__init__()
        self.layers = nn.CellList([Scaled(1.), Scaled(2.), Scaled(3.)])
    def construct(self, x):
        for layer in self.layers[1:]:
            x = layer(x)
        return x


@ms.jit
def TupleAppend(x):
    t = (1, 2)
    t.append(3)
    return x


@ms.jit
def IntAttribute(x):
    n = 3
    return n.no_attr


@ms.jit
def ListPopEmpty(x):
    items = []
    return x + items.pop()


@ms.jit
def ListInsertString(x):
    items = [1, 2]
    items.insert("a", 3)
    return x


@ms.jit
def ListExtendNumber(x):
    items = [1, 2]
    items.extend(3)
    return x


@ms.jit
def ListAppendNothing(x):
    items = [1, 2]
    items.append()
    return x


class ReshapeTooMany(nn.Cell):
    def construct(self, x):
        return x.reshape(4, 2)


class ReshapeTwoUnknown(nn.Cell):
    def construct(self, x):
        return x.reshape(-1, -1)


class AssignWrongShape(nn.Cell):
    def __init__(self):
        super().__init__()
        self.p = Parameter(Tensor(np.ones(2, np.float32)), name="p")
    def construct(self, x):
        ops.assign(self.p, x)
        return self.p * 1


class CellDictMissing(nn.Cell):
    def __init__(self):
        super().__init__()
        self.d = nn.CellDict({"a": Scaled(2.)})
    def construct(self, x):
        return self.d["zz"](x)


class CellListOutOfRange(nn.Cell):
    def __init__(self):
        super().__init__()
        self.layers = nn.CellList([Scaled(1.)])
    def construct(self, x):
        return self.layers[3](x)


class SumAxisOutOfRange(nn.Cell):
    def construct(self, x):
        return x.sum(axis=3)


class TransposeRepeated(nn.Cell):
    def construct(self, x):
        return ops.transpose(x, (0, 0))


class ExpandDimsOutOfRange(nn.Cell):
    def construct(self, x):
        return ops.expand_dims(x, 5)


class IndexString(nn.Cell):
    def construct(self, x):
        return x["a"]


class IndexFloat(nn.Cell):
    def construct(self, x):
        return x[1.5]


class IndexOutOfRange(nn.Cell):
    def construct(self, x):
        return x[1, 7]


class IndexTooMany(nn.Cell):
    def construct(self, x):
        return x[0, 0, 0]


class SetitemOutOfRange(nn.Cell):
    def construct(self, x):
        x[1, 9] = 0
        return x


@ms.jit
def StringTimesFloat(x):
    return "a" * 2.5


class ConcatRanks(nn.Cell):
    def construct(self, x):
        return ops.concat((x, x[0]))


class StackShapes(nn.Cell):
    def construct(self, x):
        return ops.stack((x, x[:, :2]))


class OnesNegative(nn.Cell):
    def construct(self, x):
        return x + ops.ones((2, -1))


class OneHotFloat(nn.Cell):
    def construct(self, x):
        return ops.one_hot(x, 3, Tensor(1.0), Tensor(0.0))


class Conv2dRank(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 2, 3)
    def construct(self, x):
        return self.conv(x)


class CellListInt64Index(nn.Cell):
    def __init__(self):
        super().__init__()
        self.layers = nn.CellList([Scaled(1.), Scaled(2.)])
    def construct(self, x):
        return self.layers[ops.argmax(x[0])](x)


@ms.jit_class
class Holder:
    def __init__(self):
        self.k = 2.0


class JitClassMissingAttribute(nn.Cell):
    def __init__(self):
        super().__init__()
        self.holder = Holder()
    def construct(self, x):
        return x + self.holder.missing
