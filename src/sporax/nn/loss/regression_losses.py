"""Regression losses of ``mindspore.nn``: ``MAELoss``, ``RMSELoss``, ``PoissonNLLLoss``."""
import math

import jax.numpy as jnp

from sporax.core.tensor import Tensor, tensor_array
from sporax.nn.loss.base import LossBase


class MAELoss(LossBase):
    """Mean absolute error ``|logits - labels|`` (broadcast), reduced by ``reduction``.

    Inputs:
        - **logits** (Tensor), **labels** (Tensor): broadcastable shapes.

    Outputs:
        Tensor: a scalar, or the per-element losses when ``reduction='none'``.

    Example:
        >>> import sporax as ms
        >>> float(ms.nn.MAELoss()(ms.Tensor([1.0, 2.0]), ms.Tensor([2.0, 4.0])))
        1.5
    """

    def construct(self, logits, labels):
        difference = (tensor_array(logits, "logits", "MAELoss")
                      - tensor_array(labels, "labels", "MAELoss"))
        return self.get_loss(Tensor._wrap(jnp.abs(difference)))


class RMSELoss(LossBase):
    """The root mean squared error ``sqrt(mean((logits - label) ** 2))``.

    Inputs:
        - **logits** (Tensor).
        - **label** (Tensor) -- broadcastable to ``logits``.

    Outputs:
        Tensor, a scalar.
    """

    def __init__(self):
        super().__init__()

    def construct(self, logits, label):
        difference = (tensor_array(logits, "logits", "RMSELoss")
                      - tensor_array(label, "label", "RMSELoss"))
        return Tensor._wrap(jnp.sqrt(jnp.mean(jnp.square(difference))))


class PoissonNLLLoss(LossBase):
    """The negative log likelihood of ``target`` under a Poisson distribution of rate ``input``.

    ``exp(x) - target * x`` for log-rates (``log_input``), else ``x - target * log(x + eps)``; with
    ``full`` the Stirling term ``target * log(target) - target + log(2 * pi * target) / 2`` is added
    where ``target > 1``.

    Args:
        log_input (bool): ``input`` holds log-rates. Default: True.
        full (bool): add the Stirling term. Default: False.
        eps (float): keeps the log finite (rates). Default: 1e-08.
        reduction (str): 'mean', 'sum' or 'none'. Default: 'mean'.

    Inputs:
        - **input** (Tensor) -- rates or log-rates.
        - **target** (Tensor) -- counts.

    Outputs:
        Tensor.
    """

    def __init__(self, log_input=True, full=False, eps=1e-08, reduction="mean"):
        super().__init__(reduction)
        for name, value in (("log_input", log_input), ("full", full)):
            if not isinstance(value, bool):
                raise TypeError(f"For 'PoissonNLLLoss', the '{name}' must be a bool, but got {type(value).__name__}.")
        if isinstance(eps, bool) or not isinstance(eps, float) or eps <= 0:
            raise ValueError(f"For 'PoissonNLLLoss', the 'eps' must be a float > 0, but got {eps!r}.")
        self.log_input, self.full, self.eps = log_input, full, eps

    def construct(self, input, target):
        x = tensor_array(input, "input", "PoissonNLLLoss")
        y = tensor_array(target, "target", "PoissonNLLLoss").astype(x.dtype)
        if self.log_input:
            loss = jnp.exp(x) - y * x
        else:
            loss = x - y * jnp.log(x + self.eps)
        if self.full:
            safe = jnp.where(y > 1, y, 1.0)
            stirling = safe * jnp.log(safe) - safe + 0.5 * jnp.log(2 * math.pi * safe)
            loss = loss + jnp.where(y > 1, stirling, 0.0)
        return self.get_loss(Tensor._wrap(loss))
