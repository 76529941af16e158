"""Cell containers (CellList, SequentialCell) and child Cells, jit on methods and nested jit functions,
capture_mode, constexpr, jit_class attributes and grad through loops and Cells with Parameters in compiled code.

One program per name (``nn.Cell`` classes, ``j_`` functions under ``ms.jit``, ``p_`` functions calling
compiled code); test_graph_syntax_modes runs each in GRAPH_MODE and under ``ms.jit`` in PyNative
against MindSpore 2.10's recorded result."""
# flake8: noqa
import numpy as np

import sporax as ms
from sporax import Parameter, Tensor, nn, ops


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


class NestedCellListIndex(nn.Cell):
    def __init__(self):
        super().__init__()
        self.stages = nn.CellList([nn.CellList([nn.ReLU(), nn.Tanh()]), nn.CellList([nn.Sigmoid()])])

    def construct(self, x):
        return self.stages[0][1](x - 3), self.stages[1][0](x * 0), len(self.stages[0])


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


@ms.jit(capture_mode="bytecode")
def j_bytecode_if_tensor(x):
    if x.sum() > 3:
        return x - 1
    return x + 1
