"""Primitive classes that update Parameters: Assign, AssignAdd, AssignSub, ApplyMomentum, Adam ...

Example:
    >>> import sporax as ms
    >>> w = ms.Parameter(ms.Tensor([1.0]), name="w")
    >>> ms.ops.AssignAdd()(w, ms.Tensor([2.0])).asnumpy().tolist()
    [3.0]
"""
from sporax.core.tensor import Tensor
from sporax.ops.functional import update
from sporax.ops.primitive import Primitive, prim_attr_register


def _snapshot(stored):
    """The updated Parameter(s) as new Tensors of their values: MindSpore 2.10's ApplyMomentum, Adam ... return
    those (``out is variable`` is False; a later write into ``variable`` leaves ``out`` as it was)."""
    if isinstance(stored, tuple):
        return tuple(_snapshot(item) for item in stored)
    return Tensor._wrap(stored._array)


class Assign(Primitive):
    """Store ``value`` into Parameter ``variable``.

    Inputs:
        - **variable** (Parameter), **value** (Tensor).

    Outputs:
        The variable, holding the new value.
    """

    def __call__(self, variable, value):
        return update.assign(variable, value)


class AssignAdd(Assign):
    """``variable += value`` for a Parameter."""

    def __call__(self, variable, value):
        return update.assign_add(variable, value)


class AssignSub(Assign):
    """``variable -= value`` for a Parameter."""

    def __call__(self, variable, value):
        return update.assign_sub(variable, value)


class ApplyMomentum(Primitive):
    """Momentum update: ``accumulation = accumulation * momentum + gradient``, then the weight step.

    Args:
        use_nesterov (bool): Nesterov momentum where the device target's kernel applies it (GPU, Ascend; MindSpore
            2.10's CPU kernel steps as plain momentum). Default: False.

    Inputs:
        - **variable**, **accumulation** (Parameter), **learning_rate**, **gradient**, **momentum** (Tensor).

    Outputs:
        A new Tensor of the updated variable's value.
    """

    @prim_attr_register
    def __init__(self, use_nesterov=False, use_locking=False, gradient_scale=1.0):
        self.use_nesterov = use_nesterov

    def __call__(self, variable, accumulation, learning_rate, gradient, momentum):
        return _snapshot(update.apply_momentum(variable, accumulation, learning_rate, gradient, momentum,
                                               self.use_nesterov))


class FusedWeightScaleApplyMomentum(Primitive):
    """Momentum with weight decay and a loss-scale factor in one step (MindSpore runs it on GPU only):
    ``gradient * loss_scale + weight_decay * variable`` is the gradient of the ``ApplyMomentum`` step, as
    ``nn.Momentum`` documents (its ``loss_scale`` input is the factor undoing the loss scale, ``1 / loss_scale``).

    Inputs:
        - **weight_decay**, **loss_scale** (Tensor) - scalars. **variable**, **accumulation** (Parameter).
        - **learning_rate** (Union[Number, Tensor]), **gradient** (Tensor), **momentum** (Union[Number, Tensor]).

    Outputs:
        A new Tensor of the updated variable's value (``accumulation`` is updated too).

    Example:
        >>> import numpy as np
        >>> import sporax as ms
        >>> w = ms.Parameter(ms.Tensor(np.ones(2, np.float32)), name="w")
        >>> m = ms.Parameter(ms.Tensor(np.zeros(2, np.float32)), name="m")
        >>> step = ms.ops.FusedWeightScaleApplyMomentum()
        >>> step(ms.Tensor(0.5), ms.Tensor(0.25), w, m, 0.5, ms.Tensor(np.array([4.0, 8.0], np.float32)), 0.9)
        Parameter (name=w, shape=(2,), dtype=Float32, requires_grad=True)
        >>> w.asnumpy().tolist(), m.asnumpy().tolist()
        ([0.25, -0.25], [1.5, 2.5])
    """

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(inputs=["weight_decay", "loss_scale", "variable", "accumulation", "learning_rate",
                                        "gradient", "momentum"], outputs=["output"])

    def __call__(self, weight_decay, loss_scale, variable, accumulation, learning_rate, gradient, momentum):
        return _snapshot(update.apply_weight_scale_momentum(weight_decay, loss_scale, variable, accumulation,
                                                            learning_rate, gradient, momentum))


class ApplyGradientDescent(Primitive):
    """``variable -= alpha * delta``.

    Inputs:
        - **variable** (Parameter), **alpha** (Tensor), **delta** (Tensor).

    Outputs:
        A new Tensor of the updated variable's value.
    """

    def __call__(self, variable, alpha, delta):
        return _snapshot(update.apply_gradient_descent(variable, alpha, delta))


class Adam(Primitive):
    """Adam update of ``variable``, ``m`` and ``v`` with bias correction from the beta powers.

    Args:
        use_locking (bool), use_nesterov (bool): Default: False.

    Inputs:
        - **variable**, **m**, **v** (Parameter), **beta1_power**, **beta2_power**, **lr**, **beta1**,
          **beta2**, **epsilon**, **gradient** (Tensor).

    Outputs:
        New Tensors of the updated ``(variable, m, v)``.
    """

    @prim_attr_register
    def __init__(self, use_locking=False, use_nesterov=False):
        self.use_nesterov = use_nesterov

    def __call__(self, variable, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, gradient):
        return _snapshot(update.apply_adam(variable, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon,
                                           gradient, self.use_nesterov))


class CopyWithSlice(Primitive):
    """Copy ``value`` into tensor ``self`` in place (shapes must match; the dtype is ``self``'s).

    Inputs:
        - **self** (Tensor) - the destination, updated in place.
        - **value** (Tensor) - the source, same shape.

    Outputs:
        The destination tensor.
    """

    def __call__(self, destination, value):
        return update.assign(destination, value)


class ApplyAdadelta(Primitive):
    """Adadelta update of ``var``, ``accum`` and ``accum_update``.

    Args:
        use_locking (bool): Default: False.

    Inputs:
        - **var**, **accum**, **accum_update** (Parameter), **lr**, **rho**, **epsilon** (Tensor or
          number), **grad** (Tensor).

    Outputs:
        New Tensors of the updated ``(var, accum, accum_update)``.
    """

    @prim_attr_register
    def __init__(self, use_locking=False):
        self.use_locking = use_locking

    def __call__(self, var, accum, accum_update, lr, rho, epsilon, grad):
        return _snapshot(update.apply_adadelta(var, accum, accum_update, lr, rho, epsilon, grad))
