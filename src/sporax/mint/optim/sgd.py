"""``SGD``: stochastic gradient descent with momentum, dampening, Nesterov and L2 weight decay."""
import jax.numpy as jnp

from sporax.mint.optim.optimizer import Optimizer, check_range


class SGD(Optimizer):
    """Stochastic gradient descent (PyTorch's formulation).

    ``g = grad + weight_decay * param``; with momentum, ``buf = g`` on the first step and
    ``momentum * buf + (1 - dampening) * g`` afterwards; Nesterov uses ``g + momentum * buf``.

    Args:
        params (Union[list[Parameter], list[dict]]): Parameters or parameter groups.
        lr (float): learning rate.
        momentum (float): Default: 0.
        dampening (float): Default: 0.
        weight_decay (float): Default: 0.
        nesterov (bool): Default: False.
        maximize (bool): ascend the objective. Default: False.

    Inputs:
        - **gradients** (tuple[Tensor]): one per parameter.

    Example:
        >>> import sporax as ms
        >>> net = ms.nn.Dense(3, 2)
        >>> optimizer = SGD(net.trainable_params(), lr=0.1, momentum=0.9)
    """

    _state_names = ("momentum_buffer",)

    def __init__(self, params, lr, momentum=0, dampening=0, weight_decay=0.0, nesterov=False, *, maximize=False):
        check_range("SGD", lr=lr, momentum=momentum, weight_decay=weight_decay)
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("For 'SGD', nesterov momentum requires a momentum and zero dampening.")
        super().__init__(params, dict(lr=lr, momentum=momentum, dampening=dampening, weight_decay=weight_decay,
                                      nesterov=nesterov, maximize=maximize))

    def _update(self, group, lr, index, value, gradient, step):
        momentum = group["momentum"]
        if momentum:
            previous = self._state("momentum_buffer", index)
            buffer = jnp.where(step == 1, gradient, momentum * previous + (1 - group["dampening"]) * gradient)
            self._store("momentum_buffer", index, buffer)
            gradient = gradient + momentum * buffer if group["nesterov"] else buffer
        return value - lr * gradient
