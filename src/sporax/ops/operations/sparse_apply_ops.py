"""Optimizer Primitives that update Parameters: the row-sparse ``SparseApply*`` family, ``SGD`` and
``LARSUpdate``.

A sparse update gathers the rows ``indices`` of the variable and its slots, applies the optimizer
rule to them with the matching rows of ``grad``, and writes the rows back through the state layer
(so the Primitives also work inside compiled training steps that lift the Parameters). Indices are
expected unique, as MindSpore documents.

Example:
    >>> import numpy as np
    >>> from sporax import Parameter, Tensor, ops
    >>> var = Parameter(Tensor(np.ones((2, 2), np.float32)), name="var")
    >>> accum = Parameter(Tensor(np.zeros((2, 2), np.float32)), name="accum")
    >>> ops.SparseApplyAdagrad(lr=0.5)(var, accum, Tensor(np.ones((1, 2), np.float32)), Tensor(np.array([1])))[0].asnumpy().tolist()
    [[1.0, 1.0], [0.5, 0.5]]
"""
from sporax.core.tensor import Tensor
from sporax.ops._dispatch import array_of, describe
from sporax.ops.functional.update import (adadelta_rule, adagrad_dual_averaging_rule, ftrl_rule, kernel_nesterov,
                                          lars_rule, momentum_rule, rmsprop_rule, sgd_rule, soft_threshold,
                                          sparse_adagrad_rule, sparse_proximal_adagrad_rule)
from sporax.ops.primitive import Primitive, prim_attr_register
from sporax.state.assign import write


def _value(op_name, arg_name, value):
    if isinstance(value, Tensor):
        return value._value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    raise TypeError(f"For '{op_name}', '{arg_name}' must be a Tensor or a number, but got {describe(value)}.")


def _rows(op_name, states, grad, indices):
    """The gathered rows of each state Parameter, the grad rows and the index array."""
    for name, state in states:
        if not isinstance(state, Tensor):
            raise TypeError(f"For '{op_name}', '{name}' must be a Parameter, but got {describe(state)}.")
        if state.shape != states[0][1].shape:
            raise ValueError(f"For '{op_name}', '{name}' must have the shape of 'var' {states[0][1].shape}, but got "
                             f"{state.shape}.")
    where = array_of(op_name, "indices", indices)
    gradient = array_of(op_name, "grad", grad)
    var = states[0][1]
    if where.ndim != 1 or where.dtype.kind not in "iu":
        raise TypeError(f"For '{op_name}', 'indices' must be a 1-D integer Tensor, but got {describe(indices)}.")
    if gradient.shape != (where.shape[0],) + tuple(var.shape[1:]):
        raise ValueError(f"For '{op_name}', 'grad' must have shape {(where.shape[0],) + tuple(var.shape[1:])}, but "
                         f"got {tuple(gradient.shape)}.")
    return [state._value[where] for _, state in states], gradient.astype(var._value.dtype), where


def _store(op_name, states, rows, where):
    for state, row in zip(states, rows):
        write(state, state._value.at[where].set(row.astype(state._value.dtype)), op_name)
    # new Tensors of the stored values, as MindSpore 2.10's SparseApply* primitives return (not the Parameters)
    return tuple(Tensor._wrap(state._array) for state in states)


class SparseApplyAdagrad(Primitive):
    """Adagrad on the rows ``indices``: ``accum += grad**2`` (if ``update_slots``), ``var -= lr * grad / sqrt(accum)``.

    Inputs:
        - **var**, **accum** (Parameter). **grad** (Tensor) - (len(indices), ...). **indices** (Tensor[int]).

    Outputs:
        ``(var, accum)``.
    """

    @prim_attr_register
    def __init__(self, lr, update_slots=True, use_locking=False):
        self.lr, self.update_slots, self.epsilon = lr, update_slots, 0.0

    def __call__(self, var, accum, grad, indices):
        (w, a), g, where = _rows(self.name, [("var", var), ("accum", accum)], grad, indices)
        w, a = sparse_adagrad_rule(w, a, self.lr, g, self.update_slots, self.epsilon)
        return _store(self.name, [var, accum], [w, a], where)


class SparseApplyAdagradV2(SparseApplyAdagrad):
    """Adagrad with ``epsilon``: ``var -= lr * grad / sqrt(accum + epsilon)`` on the rows ``indices`` (as
    MindSpore 2.10's kernel computes it).

    Inputs:
        - **var**, **accum** (Parameter). **grad** (Tensor). **indices** (Tensor[int]).
    """

    @prim_attr_register
    def __init__(self, lr, epsilon, use_locking=False, update_slots=True):
        self.lr, self.epsilon, self.update_slots = lr, epsilon, update_slots


class SparseApplyAdadelta(Primitive):
    """Adadelta on the rows ``indices`` of ``var``, ``accum`` and ``accum_update``.

    Inputs:
        - **var**, **accum**, **accum_update** (Parameter). **lr**, **rho** (Tensor or number). **grad** (Tensor).
          **indices** (Tensor[int]).

    Outputs:
        ``(var, accum, accum_update)``.
    """

    @prim_attr_register
    def __init__(self, epsilon, use_locking=False):
        self.epsilon = epsilon

    def __call__(self, var, accum, accum_update, lr, rho, grad, indices):
        (w, a, u), g, where = _rows(self.name, [("var", var), ("accum", accum), ("accum_update", accum_update)],
                                    grad, indices)
        rate, decay = _value(self.name, "lr", lr), _value(self.name, "rho", rho)
        rows = adadelta_rule(w, a, u, rate, decay, self.epsilon, g)
        return _store(self.name, [var, accum, accum_update], rows, where)


class SparseApplyFtrl(Primitive):
    """FTRL-proximal on the rows ``indices`` of ``var``, ``accum`` and ``linear``.

    Inputs:
        - **var**, **accum**, **linear** (Parameter). **grad** (Tensor). **indices** (Tensor[int]).

    Outputs:
        ``(var, accum, linear)``.
    """

    @prim_attr_register
    def __init__(self, lr, l1, l2, lr_power, use_locking=False):
        if lr <= 0 or l1 < 0 or l2 < 0 or lr_power > 0:
            raise ValueError(f"For '{self.name}', 'lr' must be positive, 'l1' and 'l2' non-negative and 'lr_power' "
                             f"at most 0, but got {lr}, {l1}, {l2}, {lr_power}.")
        self.lr, self.l1, self.l2, self.lr_power, self.l2_shrinkage = lr, l1, l2, lr_power, 0.0

    def __call__(self, var, accum, linear, grad, indices):
        (w, a, lin), g, where = _rows(self.name, [("var", var), ("accum", accum), ("linear", linear)], grad, indices)
        shrunk = g + 2 * self.l2_shrinkage * w
        rows = ftrl_rule(w, a, lin, g, self.lr, self.l1, self.l2, self.lr_power, shrunk)
        return _store(self.name, [var, accum, linear], rows, where)


class SparseApplyFtrlV2(SparseApplyFtrl):
    """FTRL-proximal with L2 shrinkage (``grad + 2 * l2_shrinkage * var`` enters ``linear``).

    Inputs:
        - **var**, **accum**, **linear** (Parameter). **grad** (Tensor). **indices** (Tensor[int]).
    """

    @prim_attr_register
    def __init__(self, lr, l1, l2, l2_shrinkage, lr_power, use_locking=False):
        SparseApplyFtrl.__init__.__wrapped__(self, lr, l1, l2, lr_power)
        self.l2_shrinkage = l2_shrinkage


class SparseApplyProximalAdagrad(Primitive):
    """Proximal Adagrad on the rows ``indices``: ``accum += grad**2``, then the soft-thresholded step.

    Inputs:
        - **var**, **accum** (Parameter). **lr**, **l1**, **l2** (Tensor or number). **grad** (Tensor).
          **indices** (Tensor[int]).

    Outputs:
        ``(var, accum)``.
    """

    @prim_attr_register
    def __init__(self, use_locking=False):
        self.use_locking = use_locking

    def __call__(self, var, accum, lr, l1, l2, grad, indices):
        (w, a), g, where = _rows(self.name, [("var", var), ("accum", accum)], grad, indices)
        rate, l1, l2 = (_value(self.name, n, v) for n, v in (("lr", lr), ("l1", l1), ("l2", l2)))
        w, a = sparse_proximal_adagrad_rule(w, a, rate, l1, l2, g)
        return _store(self.name, [var, accum], [w, a], where)



class SparseApplyAdagradDA(Primitive):
    """Adagrad dual averaging (``ApplyAdagradDA``'s rule) on the rows ``indices``: both accumulators gather the
    gradient and the weight rows are recomputed from them.

    Inputs:
        - **var**, **grad_accum**, **grad_square_accum** (Parameter). **grad** (Tensor) - (len(indices), ...).
          **indices** (Tensor[int]). **lr**, **l1**, **l2** (Tensor or number). **global_step** (Tensor[int64]).

    Outputs:
        ``var`` (a new Tensor of its stored value).
    """

    @prim_attr_register
    def __init__(self, use_locking=False):
        self.use_locking = use_locking

    def __call__(self, var, grad_accum, grad_square_accum, grad, indices, lr, l1, l2, global_step):
        states = [("var", var), ("grad_accum", grad_accum), ("grad_square_accum", grad_square_accum)]
        (_, total, squares), g, where = _rows(self.name, states, grad, indices)
        rate, l1, l2, step = (_value(self.name, n, v)
                              for n, v in (("lr", lr), ("l1", l1), ("l2", l2), ("global_step", global_step)))
        rows = adagrad_dual_averaging_rule(total, squares, g, rate, l1, l2, step)
        return _store(self.name, [var, grad_accum, grad_square_accum], rows, where)[0]

class SparseApplyRMSProp(Primitive):
    """RMSProp with momentum on the rows ``indices`` of ``var``, ``ms`` and ``mom``.

    Inputs:
        - **var**, **ms**, **mom** (Parameter). **lr** (Tensor or number). **grad** (Tensor). **indices** (Tensor[int]).

    Outputs:
        ``(var, ms, mom)``.
    """

    @prim_attr_register
    def __init__(self, rho, momentum, epsilon, use_locking=False):
        if not 0 <= rho <= 1 or momentum < 0 or epsilon <= 0:
            raise ValueError(f"For 'SparseApplyRMSProp', 'rho' must lie in [0, 1], 'momentum' be non-negative and "
                             f"'epsilon' positive, but got {rho}, {momentum}, {epsilon}.")
        self.rho, self.momentum, self.epsilon = rho, momentum, epsilon

    def __call__(self, var, ms, mom, lr, grad, indices):
        (w, mean_square, moment), g, where = _rows(self.name, [("var", var), ("ms", ms), ("mom", mom)], grad, indices)
        rate = _value(self.name, "lr", lr)
        w, mean_square, moment, _ = rmsprop_rule(w, mean_square, moment, rate, g, self.rho, self.momentum,
                                                 self.epsilon)
        return _store(self.name, [var, ms, mom], [w, mean_square, moment], where)


class SparseApplyMomentum(Primitive):
    """Momentum on the rows ``indices``: ``accum = accum * momentum + grad``, ``var -= lr * accum`` (Nesterov's
    form with ``use_nesterov`` where the device target's kernel applies it: not MindSpore 2.10's CPU kernel).

    Inputs:
        - **var**, **accum** (Parameter). **lr** (Tensor or number). **grad** (Tensor). **indices** (Tensor[int]).
          **momentum** (Tensor or number).

    Outputs:
        ``var`` (MindSpore 2.10 returns the variable only).
    """

    @prim_attr_register
    def __init__(self, use_locking=False, use_nesterov=False):
        self.use_nesterov = use_nesterov

    def __call__(self, var, accum, lr, grad, indices, momentum):
        (w, a), g, where = _rows(self.name, [("var", var), ("accum", accum)], grad, indices)
        w, a = momentum_rule(w, a, _value(self.name, "lr", lr), g, _value(self.name, "momentum", momentum),
                             kernel_nesterov(self.use_nesterov))
        return _store(self.name, [var, accum], [w, a], where)[0]


class SparseApplyProximalGradientDescent(Primitive):
    """Proximal gradient descent on the rows ``indices``: ``var = shrink(var - alpha grad, alpha l1) /
    (1 + alpha l2)``.

    Inputs:
        - **var** (Parameter). **alpha**, **l1**, **l2** (Tensor or number). **grad** (Tensor). **indices**
          (Tensor[int]).

    Outputs:
        ``var``.
    """

    @prim_attr_register
    def __init__(self, use_locking=False):
        """Takes ``use_locking`` only (updates are applied in order)."""

    def __call__(self, var, alpha, l1, l2, grad, indices):
        (w,), g, where = _rows(self.name, [("var", var)], grad, indices)
        rate, shrink, decay = (_value(self.name, name, value) for name, value in (("alpha", alpha), ("l1", l1),
                                                                                  ("l2", l2)))
        return _store(self.name, [var], [soft_threshold(w - rate * g, rate * shrink) / (1 + rate * decay)], where)[0]


class SparseApplyCenteredRMSProp(Primitive):
    """Centered RMSProp on the rows ``indices`` of ``var``, ``mg``, ``ms`` and ``mom``: the mean gradient's square is
    taken off the mean square before the step.

    Inputs:
        - **var**, **mg**, **ms**, **mom** (Parameter). **lr**, **rho**, **momentum**, **epsilon** (Tensor or
          number). **grad** (Tensor). **indices** (Tensor[int]).

    Outputs:
        ``var``.
    """

    @prim_attr_register
    def __init__(self, use_locking=False):
        """Takes ``use_locking`` only (updates are applied in order)."""

    def __call__(self, var, mg, ms, mom, lr, rho, momentum, epsilon, grad, indices):
        (w, mean_gradient, mean_square, moment), g, where = _rows(
            self.name, [("var", var), ("mg", mg), ("ms", ms), ("mom", mom)], grad, indices)
        rate, decay, keep, epsilon = (_value(self.name, name, value) for name, value in (
            ("lr", lr), ("rho", rho), ("momentum", momentum), ("epsilon", epsilon)))
        w, mean_square, moment, mean_gradient = rmsprop_rule(w, mean_square, moment, rate, g, decay, keep, epsilon,
                                                             mean_gradient)
        return _store(self.name, [var, mg, ms, mom], [w, mean_gradient, mean_square, moment], where)[0]


class SGD(Primitive):
    """Stochastic gradient descent with momentum, dampening, weight decay and Nesterov (PyTorch's rule).

    ``stat`` > 0 marks the first step (``accum`` starts at the gradient) and is then set to 0.

    Inputs:
        - **parameters** (Parameter). **gradient** (Tensor). **learning_rate** (Tensor). **accum** (Parameter).
          **momentum** (Tensor). **stat** (Parameter).

    Outputs:
        The updated ``parameters``.
    """

    @prim_attr_register
    def __init__(self, dampening=0.0, weight_decay=0.0, nesterov=False):
        if nesterov and dampening != 0:
            raise ValueError(f"For 'SGD', the 'dampening' must be 0 when 'nesterov' is True, but got 'dampening' is "
                             f"{dampening} and 'nesterov' is True.")
        self.dampening, self.weight_decay, self.nesterov = dampening, weight_decay, nesterov

    def __call__(self, parameters, gradient, learning_rate, accum, momentum, stat):
        for name, state in (("parameters", parameters), ("accum", accum), ("stat", stat)):
            if not isinstance(state, Tensor):
                raise TypeError(f"For 'SGD', '{name}' must be a Parameter, but got {describe(state)}.")
        p = parameters._value
        g = array_of("SGD", "gradient", gradient).astype(p.dtype)
        rate, beta = _value("SGD", "learning_rate", learning_rate), _value("SGD", "momentum", momentum)
        weight, moment, cleared = sgd_rule(p, g, accum._value, stat._value, rate, beta, self.dampening,
                                           self.weight_decay, self.nesterov)
        write(accum, moment, "SGD")
        write(stat, cleared, "SGD")
        return write(parameters, weight, "SGD")


class LARSUpdate(Primitive):
    """The layer-wise adaptive rate scaling of a gradient: ``coefficient * (gradient + weight_decay * weight)``
    with ``coefficient = hyperpara * |w| / (|g| + weight_decay * |w| + epsilon)``, 1 where a norm is 0.
    ``use_clip=True`` (an Ascend kernel detail MindSpore does not document) raises NotImplementedError.

    Inputs:
        - **weight**, **gradient** (Tensor). **norm_weight**, **norm_gradient** (Tensor) - squared norms.
          **weight_decay**, **learning_rate** (Tensor) - scalars.

    Outputs:
        Tensor, the scaled gradient.
    """

    @prim_attr_register
    def __init__(self, epsilon=1e-05, hyperpara=0.001, use_clip=False):
        if use_clip:
            raise NotImplementedError("LARSUpdate(use_clip=True): sporax implements the documented unclipped "
                                      "coefficient only; use use_clip=False.")
        self.epsilon, self.hyperpara = epsilon, hyperpara

    def __call__(self, weight, gradient, norm_weight, norm_gradient, weight_decay, learning_rate):
        w = array_of("LARSUpdate", "weight", weight)
        g = array_of("LARSUpdate", "gradient", gradient).astype(w.dtype)
        return Tensor._wrap(lars_rule(w, g, array_of("LARSUpdate", "norm_weight", norm_weight),
                                      array_of("LARSUpdate", "norm_gradient", norm_gradient),
                                      array_of("LARSUpdate", "weight_decay", weight_decay), self.epsilon,
                                      self.hyperpara))
