"""Parameter updates in loops, ops under Tensor conditions, nested jit, Cell containers, constexpr,
stop_gradient/depend, jit_class, type checks, mixed built-ins, raised errors and grad through loops.

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


class CellListIndexInt(nn.Cell):
    def __init__(self):
        super().__init__()
        self.layers = nn.CellList([nn.ReLU(), nn.Tanh(), nn.Sigmoid()])

    def construct(self, x):
        return self.layers[0](x - 3), self.layers[-1](x * 0), len(self.layers)


class CellListAppendedInInit(nn.Cell):
    def __init__(self):
        super().__init__()
        self.blocks = nn.CellList()
        for _ in range(2):
            self.blocks.append(nn.ReLU())

    def construct(self, x):
        for b in self.blocks:
            x = b(x - 2)
        return x


class SequentialIterate(nn.Cell):
    def __init__(self):
        super().__init__()
        self.seq = nn.SequentialCell([nn.ReLU(), nn.Tanh()])

    def construct(self, x):
        out = []
        for layer in self.seq:
            out.append(layer(x - 4))
        return out


class SequentialSliceCall(nn.Cell):
    def __init__(self):
        super().__init__()
        self.seq = nn.SequentialCell(nn.ReLU(), nn.Tanh(), nn.Sigmoid())

    def construct(self, x):
        return self.seq[:2](x - 3), len(self.seq)


class CellListZipEnumerate(nn.Cell):
    def __init__(self):
        super().__init__()
        self.layers = nn.CellList([nn.ReLU(), nn.ReLU()])
        self.scales = (2.0, 3.0)

    def construct(self, x):
        out = x * 0
        for i, (layer, s) in enumerate(zip(self.layers, self.scales)):
            out = out + layer(x - i) * s
        return out


class CellListWithParams(nn.Cell):
    def __init__(self):
        super().__init__()
        self.layers = nn.CellList([nn.Dense(3, 3, weight_init="ones", bias_init="zeros"),
                                   nn.Dense(3, 2, weight_init="ones", bias_init="ones")])

    def construct(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


class CellCallsCellMethodJit(nn.Cell):
    def __init__(self):
        super().__init__()
        self.inner = _Inner()

    @ms.jit
    def helper(self, x):
        return self.inner(x) + 1

    def construct(self, x):
        return self.helper(x) * 2


class _Inner(nn.Cell):
    def construct(self, x):
        return x - 1


class SubCellWithAttrBranch(nn.Cell):
    def __init__(self):
        super().__init__()
        self.a = _Flagged(True)
        self.b = _Flagged(False)

    def construct(self, x):
        return self.a(x), self.b(x)


class _Flagged(nn.Cell):
    def __init__(self, flag):
        super().__init__()
        self.flag = flag

    def construct(self, x):
        if self.flag:
            return x * 2
        return -x


class ConstexprShapeProduct(nn.Cell):
    def construct(self, x):
        return x.reshape((_product(x.shape),))


@ops.constexpr
def _product(shape):
    n = 1
    for s in shape:
        n *= s
    return n


class ConstexprReturnsTuple(nn.Cell):
    def construct(self, x):
        perm = _reverse_perm(x.ndim)
        return ops.transpose(x, perm)


@ops.constexpr
def _reverse_perm(n):
    return tuple(range(n - 1, -1, -1))


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


class JitClassAttributes(nn.Cell):
    def __init__(self):
        super().__init__()
        self.cfg = _Config()

    def construct(self, x):
        return x * self.cfg.scale + self.cfg.shift, self.cfg.name


@ms.jit_class
class _Config:
    def __init__(self):
        self.scale = 2
        self.shift = 0.5
        self.name = "cfg"


class JitClassMethodCall(nn.Cell):
    def __init__(self):
        super().__init__()
        self.op = _AddOp(3)

    def construct(self, x):
        return self.op.apply(x), self.op.k


@ms.jit_class
class _AddOp:
    def __init__(self, k):
        self.k = k

    def apply(self, x):
        return x + self.k


class GradWhileInConstruct(nn.Cell):
    def construct(self, x):
        return ms.grad(_loss_while_square)(x)


def _loss_while_square(x):
    i = 0
    y = x
    while i < 2:
        y = y * x
        i += 1
    return y.sum()


class _ParamBranchNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([1.0, 2.0, 3.0], np.float32)), name="w")

    def construct(self, x):
        if x.sum() > 0:
            y = x * self.w
        else:
            y = x - self.w
        return (y * y).sum()


def p_grad_cell_params_branch(x):
    net = _ParamBranchNet()
    grad_fn = ms.grad(net, grad_position=0, weights=net.trainable_params())
    return grad_fn(x)


class _ParamLoopNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([0.5, 1.0, 1.5], np.float32)), name="w")

    def construct(self, x):
        y = x
        for _ in range(3):
            y = y * self.w
        return y.sum()


@ms.jit
def j_grad_cell_params_loop(x):
    net = _PARAM_LOOP_NET
    return ms.grad(net, grad_position=None, weights=net.trainable_params())(x)


_PARAM_LOOP_NET = _ParamLoopNet()


def _loss_while_tensor(x):
    y = x
    while y.sum() < 100:
        y = y * 2
    return y.sum()


@ms.jit
def j_grad_while_tensor_cond(x):
    return ms.grad(_loss_while_tensor)(x)


@ms.jit
def j_value_and_grad_loop(x):
    return ms.value_and_grad(_loss_while_square)(x)


@ms.jit
def _jit_inner_square(x):
    return x * x


@ms.jit
def _jit_middle(x):
    return _jit_inner_square(x) + 1


@ms.jit
def j_nested_jit_three_levels(x):
    return _jit_middle(x) * 2


@ms.jit(capture_mode="ast")
def j_capture_mode_ast(x):
    if x.sum() > 3:
        return x - 1
    return x


@ms.jit(capture_mode="bytecode")
def j_capture_mode_bytecode(x):
    y = x * 2
    return y.sum()


def p_jit_cell_method_calls_other_cell(x):
    net = CellCallsCellMethodJit()
    return net.helper(x)


@ms.jit
def j_stop_gradient_partial(x):
    def f(a):
        return (a * ops.stop_gradient(a) + a).sum()
    return ms.grad(f)(x)


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
