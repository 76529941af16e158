"""``SGD``: stochastic gradient descent with momentum, dampening, Nesterov and L2 weight decay."""
from sporax.mint.optim.optimizer import Optimizer, check_range, documented
from sporax.nn.optim.momentum import sgd_momentum_rule


@documented
class SGD(Optimizer):
    """Stochastic gradient descent (PyTorch's formulation).

    ``g = grad + weight_decay * param``; with momentum, ``buf = g`` on the first step and
    ``momentum * buf + (1 - dampening) * g`` afterwards; Nesterov uses ``g + momentum * buf``.

    Args:
        momentum (float): momentum factor (0: plain SGD).
        dampening (float): damps the gradient's share of the momentum buffer.
        nesterov (bool): use Nesterov momentum.

    Example:
        >>> import sporax as ms
        >>> net = ms.nn.Dense(3, 2)
        >>> optimizer = ms.mint.optim.SGD(net.trainable_params(), lr=0.1, momentum=0.9)
    """

    _state_names = ("momentum_buffer",)

    def __init__(self, params, lr, momentum=0, dampening=0, weight_decay=0.0, nesterov=False, *, maximize=False):
        check_range("SGD", lr=lr, momentum=momentum, weight_decay=weight_decay)
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("For 'SGD', nesterov momentum requires a momentum and zero dampening.")
        super().__init__(params, dict(lr=lr, momentum=momentum, dampening=dampening, weight_decay=weight_decay,
                                      nesterov=nesterov, maximize=maximize))

    def _update(self, group, lr, index, value, gradient, step):
        if group["momentum"]:
            gradient, buffer = sgd_momentum_rule(gradient, self._state("momentum_buffer", index), step == 1,
                                                 group["momentum"], group["dampening"], group["nesterov"])
            self._store("momentum_buffer", index, buffer)
        return value - lr * gradient
