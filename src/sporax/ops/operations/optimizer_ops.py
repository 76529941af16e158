"""Optimizer-update Primitives: ``ApplyAdagrad``, ``ApplyAdaMax``, ``ApplyFtrl``, ``ApplyRMSProp``,
``AdamWeightDecay`` ... (the sparse ``FusedSparse*`` forms are in ``fused_sparse_optimizer_ops``).

Contract: each class names its inputs as MindSpore does; the state inputs (``var``, ``accum``, ``m`` ...)
must be Parameters (or Tensors) and are updated in place through ``sporax.state.assign.write``, so
inside a compiled step they are lifted like any Parameter; scalars (``lr``, ``beta1`` ...) may be
Tensors or numbers. The call returns what MindSpore's returns: the updated values, as new Tensors.

Algorithm: one ``_rule`` per class, on arrays, with the update formulas of MindSpore's documentation
(the TensorFlow ``ApplyXxx`` kernels); where the ``nn`` optimizer of the same name does the same math,
both call one ``*_rule`` of ``sporax.ops.functional.update``.

Example:
    >>> import numpy as np
    >>> import sporax as ms
    >>> var = ms.Parameter(ms.Tensor(np.ones(2, np.float32)), name="var")
    >>> accum = ms.Parameter(ms.Tensor(np.zeros(2, np.float32)), name="accum")
    >>> _ = ms.ops.ApplyAdagrad()(var, accum, 0.1, ms.Tensor(np.ones(2, np.float32)))
    >>> [round(v, 4) for v in var.asnumpy().tolist()]
    [0.9, 0.9]
"""

import jax.numpy as jnp

from sporax.core.tensor import Tensor, unwrap
from sporax.ops._dispatch import describe
from sporax.ops.functional.update import (adagrad_dual_averaging_rule, adagrad_rule, adam_amsgrad_rule, adam_rule,
                                          adam_weight_decay_rule, adamax_rule, ftrl_rule, proximal_adagrad_rule,
                                          rmsprop_rule, sign_rule, soft_threshold)
from sporax.ops.primitive import Primitive, prim_attr_register
from sporax.state.assign import write


def _bool(op_name, **flags):
    for name, value in flags.items():
        if not isinstance(value, bool):
            raise TypeError(f"For '{op_name}', '{name}' must be a bool, but got {type(value).__name__}.")


class _Update(Primitive):
    """Base: ``_inputs`` names the call's arguments, ``_states`` those updated in place, ``_returns`` the
    outputs; ``_rule(values)`` maps the input arrays to the new state arrays."""

    _inputs = ()
    _states = ()
    _returns = ()

    def __call__(self, *args):
        if len(args) != len(self._inputs):
            raise TypeError(f"{self.name}() takes {len(self._inputs)} inputs ({', '.join(self._inputs)}), but got "
                            f"{len(args)}.")
        named = dict(zip(self._inputs, args))
        for name in self._states:
            if not isinstance(named[name], Tensor):
                raise TypeError(f"For '{self.name}', '{name}' must be a Parameter (it is updated in place), but got "
                                f"{describe(named[name])}.")
        values = {name: unwrap(value) for name, value in named.items()}
        updated = self._rule(values)
        for name in self._states:
            updated[name] = updated[name].astype(values[name].dtype)
            write(named[name], updated[name], self.name)
        # MindSpore returns the updated values as new Tensors, not the Parameters (its docstrings print them)
        outputs = tuple(Tensor._wrap(updated[name]) if name in updated else named[name] for name in self._returns)
        return outputs[0] if len(outputs) == 1 else outputs

    def _rule(self, v):
        raise NotImplementedError


class _LockingUpdate(_Update):
    """An update whose only attribute is MindSpore's ``use_locking`` (a bool, no effect here: updates
    are functional)."""

    @prim_attr_register
    def __init__(self, use_locking=False):
        _bool(type(self).__name__, use_locking=use_locking)


class ApplyAdagrad(_Update):
    """Adagrad: ``accum += grad**2``; ``var -= lr * grad / sqrt(accum)``. Returns ``(var, accum)``.

    Args:
        update_slots (bool): update ``accum``. Default: True.
    """

    _inputs = ("var", "accum", "lr", "grad")
    _states = ("var", "accum")
    _returns = ("var", "accum")

    @prim_attr_register
    def __init__(self, update_slots=True):
        _bool("ApplyAdagrad", update_slots=update_slots)
        self.update_slots = update_slots

    def _rule(self, v):
        var, accum = adagrad_rule(v["var"], v["accum"], v["lr"], v["grad"], self.update_slots,
                                  getattr(self, "epsilon", None))
        return {"var": var, "accum": accum}


class ApplyAdagradV2(ApplyAdagrad):
    """Adagrad with ``epsilon``: ``var -= lr * grad / (sqrt(accum) + epsilon)``. Returns ``(var, accum)``.

    Args:
        epsilon (float): added to the denominator. update_slots (bool): Default: True.
    """

    @prim_attr_register
    def __init__(self, epsilon, update_slots=True):
        if not isinstance(epsilon, float):
            raise TypeError(f"For 'ApplyAdagradV2', 'epsilon' must be a float, but got {epsilon!r}.")
        _bool("ApplyAdagradV2", update_slots=update_slots)
        self.epsilon, self.update_slots = epsilon, update_slots

    def _rule(self, v):
        if v["var"].dtype == jnp.float64:
            # MindSpore 2.10 has no float64 kernel for it: it computes in float32 and casts the result back,
            # so float64 inputs give float32-rounded values (its recorded outputs match only this way).
            v = {name: jnp.asarray(value, jnp.float32) for name, value in v.items()}
        return super()._rule(v)


class ApplyAdagradDA(_LockingUpdate):
    """Adagrad dual averaging; updates ``var`` and both accumulators, returns ``var``.

    Args:
        use_locking (bool): Default: False.
    """

    _inputs = ("var", "gradient_accumulator", "gradient_squared_accumulator", "grad", "lr", "l1", "l2",
               "global_step")
    _states = ("var", "gradient_accumulator", "gradient_squared_accumulator")
    _returns = ("var",)

    def _rule(self, v):
        var, total, squares = adagrad_dual_averaging_rule(
            v["gradient_accumulator"], v["gradient_squared_accumulator"], v["grad"], v["lr"], v["l1"], v["l2"],
            v["global_step"])
        return {"var": var, "gradient_accumulator": total, "gradient_squared_accumulator": squares}


class ApplyAdaMax(_Update):
    """AdaMax: ``m = beta1 m + (1 - beta1) g``; ``v = max(beta2 v, |g|)``;
    ``var -= lr / (1 - beta1_power) * m / (v + epsilon)``. Returns ``(var, m, v)``."""

    _inputs = ("var", "m", "v", "beta1_power", "lr", "beta1", "beta2", "epsilon", "grad")
    _states = ("var", "m", "v")
    _returns = _states

    def _rule(self, v):
        var, m, second = adamax_rule(v["var"], v["m"], v["v"], v["beta1_power"], v["lr"], v["beta1"], v["beta2"],
                                     v["epsilon"], v["grad"])
        return {"var": var, "m": m, "v": second}


def _amsgrad(v, beta1, beta2, epsilon):
    var, m, second, vhat = adam_amsgrad_rule(v["var"], v["m"], v["v"], v["vhat"], v["beta1_power"],
                                             v["beta2_power"], v["lr"], beta1, beta2, epsilon, v["grad"])
    return {"var": var, "m": m, "v": second, "vhat": vhat}


class ApplyAdamWithAmsgrad(_Update):
    """Adam with AMSGrad (``vhat = max(vhat, v)`` in the denominator). Returns ``(var, m, v, vhat)``.

    Args:
        beta1 (float): Default: 0.9. beta2 (float): Default: 0.999. epsilon (float): Default: 1e-8.
        use_locking (bool): Default: False.
    """

    _inputs = ("var", "m", "v", "vhat", "beta1_power", "beta2_power", "lr", "grad")
    _states = ("var", "m", "v", "vhat")
    _returns = _states

    @prim_attr_register
    def __init__(self, beta1=0.9, beta2=0.999, epsilon=1e-8, use_locking=False):
        self.beta1, self.beta2, self.epsilon = beta1, beta2, epsilon

    def _rule(self, v):
        return _amsgrad(v, self.beta1, self.beta2, self.epsilon)


class ApplyAdamWithAmsgradV2(_LockingUpdate):
    """``ApplyAdamWithAmsgrad`` with ``beta1``, ``beta2`` and ``epsilon`` as inputs."""

    _inputs = ("var", "m", "v", "vhat", "beta1_power", "beta2_power", "lr", "beta1", "beta2", "epsilon", "grad")
    _states = ("var", "m", "v", "vhat")
    _returns = _states

    def _rule(self, v):
        return _amsgrad(v, v["beta1"], v["beta2"], v["epsilon"])


class ApplyAddSign(_Update):
    """AddSign: ``m = beta m + (1 - beta) g``; ``var -= lr (alpha + sign_decay sign(g) sign(m)) g``.
    Returns ``(var, m)``."""

    _inputs = ("var", "m", "lr", "alpha", "sign_decay", "beta", "grad")
    _states = ("var", "m")
    _returns = _states

    def _rule(self, v):
        var, m = sign_rule(v["var"], v["m"], v["lr"], v["sign_decay"], v["beta"], v["grad"], alpha=v["alpha"])
        return {"var": var, "m": m}


class ApplyPowerSign(_Update):
    """PowerSign: ``var -= lr exp(logbase sign_decay sign(g) sign(m)) g``. Returns ``(var, m)``."""

    _inputs = ("var", "m", "lr", "logbase", "sign_decay", "beta", "grad")
    _states = ("var", "m")
    _returns = _states

    def _rule(self, v):
        var, m = sign_rule(v["var"], v["m"], v["lr"], v["sign_decay"], v["beta"], v["grad"], logbase=v["logbase"])
        return {"var": var, "m": m}


class ApplyCenteredRMSProp(_LockingUpdate):
    """Centered RMSProp (the variance ``mean_square - mean_gradient**2`` scales the step); returns ``var``.

    Args:
        use_locking (bool): Default: False.
    """

    _inputs = ("var", "mean_gradient", "mean_square", "moment", "grad", "learning_rate", "decay", "momentum",
               "epsilon")
    _states = ("var", "mean_gradient", "mean_square", "moment")
    _returns = ("var",)

    def _rule(self, v):
        var, mean_square, moment, mean_gradient = rmsprop_rule(
            v["var"], v["mean_square"], v["moment"], v["learning_rate"], v["grad"], v["decay"], v["momentum"],
            v["epsilon"], v["mean_gradient"])
        return {"var": var, "mean_gradient": mean_gradient, "mean_square": mean_square, "moment": moment}


class ApplyRMSProp(_LockingUpdate):
    """RMSProp: ``mean_square = decay ms + (1 - decay) g**2``; ``moment = momentum moment + lr g /
    sqrt(ms + epsilon)``; ``var -= moment``. Returns ``var``. (Blocks of 8 elements divide by ``sqrt(ms) +
    epsilon``, as MindSpore's CPU kernel: see ``rmsprop_rule``.)

    Args:
        use_locking (bool): Default: False.
    """

    _inputs = ("var", "mean_square", "moment", "learning_rate", "grad", "decay", "momentum", "epsilon")
    _states = ("var", "mean_square", "moment")
    _returns = ("var",)

    def _rule(self, v):
        var, mean_square, moment, _ = rmsprop_rule(v["var"], v["mean_square"], v["moment"], v["learning_rate"],
                                                   v["grad"], v["decay"], v["momentum"], v["epsilon"])
        return {"var": var, "mean_square": mean_square, "moment": moment}


def _ftrl(var, accum, linear, grad, lr, l1, l2, lr_power):
    var, accum, linear = ftrl_rule(var, accum, linear, grad, lr, l1, l2, lr_power)
    return {"var": var, "accum": accum, "linear": linear}


class ApplyFtrl(_LockingUpdate):
    """FTRL-proximal; returns ``var`` (``accum`` and ``linear`` are updated too).

    Args:
        use_locking (bool): Default: False.
    """

    _inputs = ("var", "accum", "linear", "grad", "lr", "l1", "l2", "lr_power")
    _states = ("var", "accum", "linear")
    _returns = ("var",)

    def _rule(self, v):
        return _ftrl(v["var"], v["accum"], v["linear"], v["grad"], v["lr"], v["l1"], v["l2"], v["lr_power"])


class ApplyKerasMomentum(_Update):
    """Keras momentum: ``accum = accum * momentum - lr * grad``; ``var += accum`` (Nesterov:
    ``var += accum * momentum - lr * grad``). Returns ``(var, accum)``."""

    _inputs = ("var", "accum", "lr", "grad", "momentum")
    _states = ("var", "accum")
    _returns = _states

    @prim_attr_register
    def __init__(self, use_locking=False, use_nesterov=False):
        _bool("ApplyKerasMomentum", use_locking=use_locking, use_nesterov=use_nesterov)
        self.use_nesterov = use_nesterov

    def _rule(self, v):
        accum = v["accum"] * v["momentum"] - v["lr"] * v["grad"]
        step = accum * v["momentum"] - v["lr"] * v["grad"] if self.use_nesterov else accum
        return {"var": v["var"] + step, "accum": accum}


def _proximal_adagrad(var, accum, lr, l1, l2, grad):
    var, accum = proximal_adagrad_rule(var, accum, lr, l1, l2, grad)
    return {"var": var, "accum": accum}


class ApplyProximalAdagrad(_LockingUpdate):
    """Proximal Adagrad: ``accum += g**2``; with ``r = lr / sqrt(accum)``,
    ``var = shrink(var - r g, r l1) / (1 + r l2)``. Returns ``(var, accum)``."""

    _inputs = ("var", "accum", "lr", "l1", "l2", "grad")
    _states = ("var", "accum")
    _returns = _states

    def _rule(self, v):
        return _proximal_adagrad(v["var"], v["accum"], v["lr"], v["l1"], v["l2"], v["grad"])


class ApplyProximalGradientDescent(_Update):
    """Proximal gradient descent: ``var = shrink(var - alpha delta, alpha l1) / (1 + alpha l2)``. Returns ``var``."""

    _inputs = ("var", "alpha", "l1", "l2", "delta")
    _states = ("var",)
    _returns = ("var",)

    def _rule(self, v):
        proximal = v["var"] - v["alpha"] * v["delta"]
        return {"var": soft_threshold(proximal, v["alpha"] * v["l1"]) / (1 + v["alpha"] * v["l2"])}


class AdamWeightDecay(_LockingUpdate):
    """AdamW without bias correction: ``var -= lr * (m / (sqrt(v) + epsilon) + decay * var)``.
    Returns ``(var, m, v)``."""

    _inputs = ("var", "m", "v", "lr", "beta1", "beta2", "epsilon", "decay", "gradient")
    _states = ("var", "m", "v")
    _returns = _states

    def _rule(self, v):
        var, m, second = adam_weight_decay_rule(v["var"], v["m"], v["v"], v["lr"], v["beta1"], v["beta2"],
                                                v["epsilon"], v["gradient"], v["decay"])
        return {"var": var, "m": m, "v": second}


class FusedCastAdamWeightDecay(AdamWeightDecay):
    """``AdamWeightDecay`` whose Float16 gradient is cast to the moments' Float32 first."""


class AdamNoUpdateParam(_Update):
    """Adam's moment update; returns the step to add to the parameter (the parameter is not an input).

    Args:
        use_locking (bool), use_nesterov (bool): Default: False.
    """

    _inputs = ("m", "v", "beta1_power", "beta2_power", "lr", "beta1", "beta2", "epsilon", "gradient")
    _states = ("m", "v")
    _returns = ("step",)

    @prim_attr_register
    def __init__(self, use_locking=False, use_nesterov=False):
        _bool("AdamNoUpdateParam", use_locking=use_locking, use_nesterov=use_nesterov)
        self.use_nesterov = use_nesterov

    def _rule(self, v):
        # Adam's update of a zero weight is the step to add.
        step, m, second = adam_rule(0.0, v["m"], v["v"], v["beta1_power"], v["beta2_power"], v["lr"], v["beta1"],
                                    v["beta2"], v["epsilon"], v["gradient"], self.use_nesterov)
        return {"m": m, "v": second, "step": Tensor._wrap(step)}
