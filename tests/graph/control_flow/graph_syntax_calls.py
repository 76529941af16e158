"""Calls, globals, ms.jit on methods and functions, mutable, jit_class, Parameter updates, grad and vmap.

One program per name (``nn.Cell`` classes, ``j_`` functions under ``ms.jit``, ``p_`` functions calling
compiled code); test_graph_syntax_calls runs each in GRAPH_MODE and under ``ms.jit`` in PyNative
against MindSpore 2.10's recorded result."""
# flake8: noqa
import numpy as np

import sporax as ms
from sporax import Parameter, Tensor, nn, ops

SCALE = 3
OFFSETS = (1, 2)
TABLE = {"k": 5}
GLOBAL_TENSOR = Tensor(np.array([1.0, 0.0, -1.0], np.float32))


def helper_kw(a, b=2, *, c=1):
    return a * b + c


def helper_star(*args):
    return len(args), args[-1]


def helper_kwargs(a, **kwargs):
    return a + kwargs["shift"], len(kwargs)


def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


class DefaultArgConstruct(nn.Cell):
    def construct(self, x, y=2, z=None):
        if z is None:
            return x * y
        return x * y + z


class KeywordCall(nn.Cell):
    def construct(self, x):
        return helper_kw(x), helper_kw(x, 3), helper_kw(x, c=5), helper_kw(a=x, b=0, c=-1)


class StarArgsCall(nn.Cell):
    def construct(self, x):
        args = (x, x + 1, 7)
        return helper_star(*args), helper_star(x)


class StarKwargsCall(nn.Cell):
    def construct(self, x):
        kw = {"shift": 10, "other": 1}
        return helper_kwargs(x, **kw)


class VarArgsConstruct(nn.Cell):
    def construct(self, *inputs):
        out = inputs[0]
        for t in inputs[1:]:
            out = out + t
        return out, len(inputs)


class KwargsConstructCall(nn.Cell):
    def __init__(self):
        super().__init__()
        self.inner = DefaultArgConstruct()
    def construct(self, x):
        return self.inner(x, z=x), self.inner(x, 5)


class RecursionFib(nn.Cell):
    def construct(self, x):
        return x + fib(6)


class GlobalReads(nn.Cell):
    def construct(self, x):
        return x * SCALE + OFFSETS[1] + TABLE["k"], GLOBAL_TENSOR * 2


class ModuleFunctionObject(nn.Cell):
    def construct(self, x):
        return np.pi * 2 + 0, ops.relu(x - 3)


class JitMethod(nn.Cell):
    @ms.jit
    def construct(self, x):
        if x.sum() > 5:
            return x * 2
        return x


class JitHelperMethod(nn.Cell):
    @ms.jit
    def helper(self, x):
        return x * 3
    def construct(self, x):
        return self.helper(x) + 1


class _Doubler(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([2.0], np.float32)), name="w")
    def construct(self, x):
        return x * self.w


_DOUBLER = _Doubler()


@ms.jit
def cell_argument(net, x):
    return net(x) + 1


def p_jit_function_taking_cell(x):
    return cell_argument(_DOUBLER, x), cell_argument(nn.ReLU(), x - 3)


@ms.jit
def jit_inner(a):
    return a * 2


@ms.jit
def j_jit_calls_jit(x):
    return jit_inner(x) + jit_inner(x + 1)


@ms.jit
def jit_static_int(x, n):
    return x * n, n


def p_jit_static_int(x):
    return jit_static_int(x, 2), jit_static_int(x, 3)


@ms.jit
def jit_mutable_tuple(t):
    return t[0] + t[1]


def p_mutable_tuple(x):
    return jit_mutable_tuple(ms.mutable((x, x * 2)))


@ms.jit
def jit_mutable_scalar(x, n):
    return x * n, n


def p_mutable_scalar(x):
    return jit_mutable_scalar(x, ms.mutable(2))


@ms.jit
def jit_mutable_list(items):
    return len(items), items[0]


def p_mutable_list_dynamic(x):
    return jit_mutable_list(ms.mutable([x, x + 1], True))


@ms.jit
def j_returns_dict(x):
    return {"double": x * 2, "n": x.ndim}


@ms.jit
def j_kwargs_default(x, scale=4):
    return x * scale


@ms.jit_class
class _Scaler:
    def __init__(self, k):
        self.k = k
    def apply(self, a):
        return a * self.k


class JitClassMethod(nn.Cell):
    def __init__(self):
        super().__init__()
        self.scaler = _Scaler(3)
    def construct(self, x):
        return self.scaler.apply(x), self.scaler.k


class JitClassCreated(nn.Cell):
    def construct(self, x):
        s = _Scaler(2)
        return s.apply(x)


class ParamAssign(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.zeros((2, 3), np.float32)), name="w")
    def construct(self, x):
        ops.assign(self.w, x * 2)
        return self.w + 1


class ParamAugAssign(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.ones((3,), np.float32)), name="w")
    def construct(self, x):
        self.w += x[0]
        self.w *= 2
        return self.w


class ParamAssignAdd(nn.Cell):
    def __init__(self):
        super().__init__()
        self.step = Parameter(Tensor(0, ms.int32), name="step")
    def construct(self, x):
        ops.assign_add(self.step, Tensor(1, ms.int32))
        ops.assign_add(self.step, Tensor(1, ms.int32))
        return self.step


class ParamSetAttr(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.ones((2, 3), np.float32)), name="w")
    def construct(self, x):
        self.w = x + self.w
        return self.w * 1


class ParamUpdateInLoop(nn.Cell):
    def __init__(self):
        super().__init__()
        self.acc = Parameter(Tensor(np.zeros((3,), np.float32)), name="acc")
    def construct(self, x):
        for row in x:
            ops.assign_add(self.acc, row)
        return self.acc * 1


class ParamUpdateInTensorIf(nn.Cell):
    def __init__(self):
        super().__init__()
        self.flag = Parameter(Tensor(np.zeros((1,), np.float32)), name="flag")
    def construct(self, x):
        if x.sum() > 5:
            ops.assign(self.flag, Tensor(np.ones((1,), np.float32)))
        else:
            ops.assign(self.flag, Tensor(np.full((1,), -1, np.float32)))
        return x + self.flag


class DependOrder(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.zeros((2, 3), np.float32)), name="w")
    def construct(self, x):
        before = self.w * 1
        update = ops.assign(self.w, x)
        after = ops.depend(self.w * 1, update)
        return before, after


class DependValue(nn.Cell):
    def construct(self, x):
        y = x * 2
        return ops.depend(x + 1, y)


def _loss_if(a):
    if a.sum() > 5:
        return (a * a).sum()
    return a.sum()


@ms.jit
def j_grad_control_flow(x):
    return ms.grad(_loss_if)(x)


def p_grad_control_flow_pynative(x):
    return ms.grad(ms.jit(_loss_if))(x)


def _loss_while(a):
    n = 0
    while a.sum() < 50:
        a = a * 2
        n = n + 1
    return a.sum()


@ms.jit
def j_grad_while(x):
    return ms.grad(_loss_while)(x)


def _loss_for(a):
    out = a
    for i in range(3):
        out = out * a + i
    return out.sum()


@ms.jit
def j_grad_for(x):
    return ms.grad(_loss_for)(x)


def _loss_two(a, b):
    return (a * b * b).sum()


@ms.jit
def j_grad_positions(x):
    return ms.grad(_loss_two, grad_position=(0, 1))(x, x + 1), ms.grad(_loss_two, grad_position=1)(x, x)


def _loss_aux(a):
    return (a * a).sum(), a * 3


@ms.jit
def j_value_and_grad_aux(x):
    return ms.value_and_grad(_loss_aux, has_aux=True)(x)


@ms.jit
def j_grad_aux(x):
    return ms.grad(_loss_aux, has_aux=True)(x)


class _Weighted(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([1.0, 2.0, 3.0], np.float32)), name="w")
    def construct(self, x):
        if x.sum() > 5:
            return (x * self.w).sum()
        return (x - self.w).sum()


def p_grad_weights(x):
    net = _Weighted()
    return ms.grad(net, grad_position=None, weights=net.trainable_params())(x)


def p_value_and_grad_weights_and_inputs(x):
    net = _Weighted()
    return ms.value_and_grad(net, grad_position=0, weights=net.trainable_params())(x)


class GradInsideConstruct(nn.Cell):
    def __init__(self):
        super().__init__()
        self.inner = _Weighted()
    def construct(self, x):
        return ms.grad(self.inner)(x)


def _loss_stop(a):
    b = ops.stop_gradient(a * a)
    return (a * b).sum()


@ms.jit
def j_stop_gradient(x):
    return ms.grad(_loss_stop)(x)


def p_stop_gradient_pynative(x):
    return ms.grad(_loss_stop)(x)


def _row_fn(a, b):
    return a * b + 1


@ms.jit
def j_vmap_basic(x):
    return ms.vmap(_row_fn)(x, x)


@ms.jit
def j_vmap_none_axis(x):
    return ms.vmap(_row_fn, in_axes=(0, None))(x, x[0])


@ms.jit
def j_vmap_out_axes(x):
    return ms.vmap(_row_fn, in_axes=1, out_axes=1)(x, x)


def _row_sum_tuple(a):
    return a.sum(), a * 2


def p_vmap_tuple_out(x):
    return ms.vmap(_row_sum_tuple)(x)


@ms.jit
def j_vmap_of_grad(x):
    return ms.vmap(ms.grad(lambda a: (a * a * a).sum()))(x)
