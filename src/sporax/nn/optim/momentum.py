"""SGD and Momentum."""
import jax.numpy as jnp
import numpy as np

from sporax.core.parameter import Parameter
from sporax.core.tensor import Tensor
from sporax.nn.optim.optimizer import Optimizer, documented
from sporax.ops.functional.update import momentum_step, sgd_momentum_rule, sgd_step  # noqa: F401 (mint.optim.SGD)
from sporax.state.assign import write


def _scalar(value, name, cell):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
        raise ValueError(f"For '{cell}', {name} must be a float >= 0, got {value!r}.")
    return Parameter(Tensor(np.float32(value)), name=name)


@documented
class Momentum(Optimizer):
    """Momentum SGD: ``moment = momentum * moment + grad``; ``param -= lr * moment`` (or Nesterov).

    Args:
        momentum (float): the momentum factor, >= 0.
        use_nesterov (bool): use Nesterov momentum where the device target's kernel applies it (GPU, Ascend;
            MindSpore 2.10's CPU kernel steps as plain momentum).

    Example:
        >>> import sporax as ms
        >>> net = ms.nn.Dense(3, 1)
        >>> opt = ms.nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)
    """

    def __init__(self, params, learning_rate, momentum, weight_decay=0.0, loss_scale=1.0, use_nesterov=False):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.momentum = _scalar(momentum, "momentum", "Momentum")
        self.moments = self.parameters.clone(prefix="moments", init="zeros")
        self.use_nesterov = use_nesterov

    def construct(self, gradients):
        gradients, rates = self._advance(gradients)
        momentum = self.momentum._value
        for parameter, moment, gradient, rate in zip(self.parameters, self.moments, gradients, rates):
            weight, new_moment = momentum_step(parameter._value, moment._value, rate._value,
                                               gradient._value, momentum, self.use_nesterov)
            write(moment, new_moment, "Momentum")
            write(parameter, weight, "Momentum")
        return True


@documented
class SGD(Optimizer):
    """Stochastic gradient descent with optional momentum, dampening and Nesterov.

    Args:
        momentum (float): the momentum factor, >= 0 (0: plain SGD).
        dampening (float): damps the gradient's share of the momentum buffer.
        nesterov (bool): use Nesterov momentum (needs momentum > 0 and no dampening).
    """

    def __init__(self, params, learning_rate=0.1, momentum=0.0, dampening=0.0, weight_decay=0.0,
                 nesterov=False, loss_scale=1.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        if self.dynamic_weight_decay:
            raise TypeError("For 'SGD', dynamic weight decay is currently not supported, the argument 'weight_decay' "
                            "or 'weight_decay' set in grouped 'params' must be float or int type.")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("For 'SGD', nesterov needs momentum > 0 and dampening == 0.")
        self.momentum = _scalar(momentum, "momentum", "SGD")
        self.dampening = float(dampening)
        self.nesterov = nesterov
        self.accum = self.parameters.clone(prefix="accum", init="zeros")
        self.stat = self.parameters.clone(prefix="stat", init="ones")

    def construct(self, gradients):
        gradients, rates = self._advance(gradients)
        weights, accums, stats = sgd_step(
            [parameter._value for parameter in self.parameters], [accum._value for accum in self.accum],
            [stat._value for stat in self.stat], [gradient._value for gradient in gradients],
            [rate._value for rate in rates], self.momentum._value, self.dampening, self.nesterov)
        for parameter, accum, stat, weight, new_accum, new_stat in zip(
                self.parameters, self.accum, self.stat, weights, accums, stats):
            write(accum, new_accum, "SGD")
            write(stat, new_stat, "SGD")
            write(parameter, weight, "SGD")
        return True
