"""Parameter updates in loops, ops under Tensor conditions, stop_gradient/depend, type checks, mixed built-ins,
raised errors and Tensor constants in compiled code.

One program per name (``nn.Cell`` classes, ``j_`` functions under ``ms.jit``, ``p_`` functions calling
compiled code); test_graph_syntax_modes runs each in GRAPH_MODE and under ``ms.jit`` in PyNative
against MindSpore 2.10's recorded result."""
# flake8: noqa
import numpy as np

import sporax as ms
from sporax import Parameter, Tensor, nn, ops


class WhileParamAssignAdd(nn.Cell):
    def __init__(self):
        super().__init__()
        self.acc = Parameter(Tensor(np.zeros((3,), np.float32)), name="acc")

    def construct(self, x):
        i = 0
        while i < 2:
            ops.assign_add(self.acc, x[i])
            i += 1
        return self.acc * 1


class WhileTensorCondParam(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.ones((3,), np.float32)), name="w")

    def construct(self, x):
        n = Tensor(0, ms.int32)
        while self.w.sum() < 20:
            self.w = self.w * 2
            n = n + 1
        return n


class ForParamAssignDependent(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.ones((2, 3), np.float32)), name="w")

    def construct(self, x):
        for _ in range(3):
            ops.assign(self.w, self.w + x)
        return self.w.sum()


class ParamReadAfterAssign(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.zeros((2, 3), np.float32)), name="w")

    def construct(self, x):
        before = self.w * 1
        ops.assign(self.w, x)
        after = self.w * 1
        return before, after


class ParamAssignInTensorBranches(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.zeros((3,), np.float32)), name="w")

    def construct(self, x):
        if x[0, 0] > 0:
            ops.assign(self.w, x[1])
        else:
            ops.assign(self.w, x[0])
        return self.w + 0


class ParamCounterWhileTensor(nn.Cell):
    def __init__(self):
        super().__init__()
        self.count = Parameter(Tensor(0, ms.int32), name="count")

    def construct(self, x):
        s = x.sum()
        while s > 1:
            s = s / 2
            ops.assign_add(self.count, 1)
        return s


class ParamAssignSub(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.full((3,), 10, np.float32)), name="w")

    def construct(self, x):
        ops.assign_sub(self.w, x[0])
        ops.assign_sub(self.w, x[1])
        return self.w * 1


class TwoParamsSwap(nn.Cell):
    def __init__(self):
        super().__init__()
        self.a = Parameter(Tensor(np.ones((3,), np.float32)), name="a")
        self.b = Parameter(Tensor(np.full((3,), 2, np.float32)), name="b")

    def construct(self, x):
        tmp = self.a * 1
        ops.assign(self.a, self.b)
        ops.assign(self.b, tmp)
        return self.a + x[0]


class OpsInIfDynamic(nn.Cell):
    def construct(self, x):
        if ops.reduce_max(x) > 5:
            y = ops.exp(x - 6)
        else:
            y = ops.sigmoid(x)
        return y


class OpsInForDynamicCond(nn.Cell):
    def construct(self, x):
        y = x
        for i in range(3):
            if y.mean() > 4:
                y = ops.sqrt(y)
            else:
                y = y + i
        return y


class OpsPrimitiveInLoop(nn.Cell):
    def __init__(self):
        super().__init__()
        self.add = ops.Add()
        self.mul = ops.Mul()

    def construct(self, x):
        y = x
        for _ in range(2):
            y = self.mul(self.add(y, 1.0), 0.5)
        return y


class WhileBothBranchesReturn(nn.Cell):
    def construct(self, x):
        i = Tensor(0, ms.int32)
        while i < 5:
            if x.sum() > 100:
                return x
            i = i + 2
        return x * i


class IfReturnsDifferentShapesConst(nn.Cell):
    def construct(self, x):
        if x.shape[0] == 2:
            return x.sum(axis=0)
        return x


class StopGradientInConstruct(nn.Cell):
    def construct(self, x):
        y = ops.stop_gradient(x * 2)
        return y + x


class DependChain(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.zeros((2, 3), np.float32)), name="w")

    def construct(self, x):
        a = ops.assign(self.w, x * 3)
        y = ops.depend(x, a)
        return y + self.w


class IsinstanceChecksMixed(nn.Cell):
    def construct(self, x):
        return (isinstance(x, Tensor), isinstance(3, int), isinstance(3.0, int), isinstance((1,), tuple),
                isinstance([1], (tuple, list)), isinstance(True, int), isinstance("s", str))


class IsinstanceBranch(nn.Cell):
    def construct(self, x):
        y = (x, 2)
        if isinstance(y, tuple):
            return y[0] * y[1]
        return x


class TypeOfValues(nn.Cell):
    def construct(self, x):
        return type(1) == int, type(x.shape) == tuple, type(1.5) == float


class BuiltinsMixedMinMax(nn.Cell):
    def construct(self, x):
        return max(1, 2.5, 2), min((3, 1, 2)), max([4, 9]), min(x.shape), max(x.shape[0], 1)


class BuiltinsSumAbsRound(nn.Cell):
    def construct(self, x):
        return sum([1, 2, 3]), sum((0.5, 1.5)), abs(-2.5), round(2.675, 2), round(3.5), round(-2.5)


class BuiltinsMaxTensorInt(nn.Cell):
    def construct(self, x):
        return max(x[0, 2], 1), min(x[1, 0], 10)


class BuiltinsDivmodPow(nn.Cell):
    def construct(self, x):
        return divmod(7, 3), pow(2, 5), 7 // -2, -7 % 3, 2 ** -1


class BuiltinsIntFloatOps(nn.Cell):
    def construct(self, x):
        return int(3.9), int(-3.9), float(2), bool(0), bool([]), bool((1,))


class RaiseValueErrorFstring(nn.Cell):
    def construct(self, x):
        if x.shape[0] != 3:
            raise ValueError(f"expected 3 rows, got {x.shape[0]}")
        return x


class RaiseTypeErrorFormat(nn.Cell):
    def construct(self, x):
        if x.ndim == 2:
            raise TypeError("bad ndim {}".format(x.ndim))
        return x


class RaiseInLoopNotTaken(nn.Cell):
    def construct(self, x):
        for i in range(3):
            if i > 5:
                raise ValueError("never")
            x = x + i
        return x


class RaiseRuntimeError(nn.Cell):
    def construct(self, x):
        raise RuntimeError("stop here")


class RaiseIndexErrorMsg(nn.Cell):
    def construct(self, x):
        if len(x.shape) < 3:
            raise IndexError("need 3 dims")
        return x


class MutableInConstruct(nn.Cell):
    def construct(self, x):
        n = ms.mutable(2)
        return x * n


class TensorConstantCreated(nn.Cell):
    def construct(self, x):
        c = Tensor(np.array([1, 2, 3], np.float32))
        return x + c, Tensor(2, ms.int32) * 3


class TensorConstantFromList(nn.Cell):
    def construct(self, x):
        c = Tensor([1.0, 0.0, -1.0])
        return (x * c).sum(axis=1)


class TensorConstantDtype(nn.Cell):
    def construct(self, x):
        return Tensor(3, ms.float32) + x[0], Tensor(True).dtype == ms.bool_, Tensor(1.5).dtype


class WhileParamBreak(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.zeros((3,), np.float32)), name="w")

    def construct(self, x):
        i = 0
        while True:
            ops.assign_add(self.w, x[0])
            i += 1
            if i >= 3:
                break
        return self.w * 1


class DependInLoop(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.zeros((2, 3), np.float32)), name="w")

    def construct(self, x):
        y = x
        for i in range(2):
            a = ops.assign_add(self.w, y)
            y = ops.depend(y * 2, a)
        return y


class IsinstanceNumberTuple(nn.Cell):
    def construct(self, x):
        n = x.shape[0]
        if isinstance(n, (int, float)):
            return x * n
        return x


class RoundOfTensorItem(nn.Cell):
    def construct(self, x):
        return round(x.mean().item(), 1), abs(x.min().item() - 10)


@ms.jit
def j_depend_order_values(x):
    a = x + 1
    b = ops.depend(a * 2, a)
    return b


def _mutable_len_fn(seq):
    return len(seq)


def p_mutable_dynamic_length(x):
    return ms.jit(_mutable_len_fn)(ms.mutable([x, x], True))


@ms.jit
def j_tensor_constants_inside(x):
    c = ms.Tensor(np.ones((2, 3), np.float32))
    return x * c + ms.Tensor(1, ms.float32)
