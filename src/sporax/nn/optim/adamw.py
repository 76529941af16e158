"""``AdamW`` with PyTorch's interface (``mindspore.experimental.optim`` / ``mindspore.mint.optim``)."""
import jax.numpy as jnp
import numpy as np

from sporax.core.parameter import Parameter, ParameterTuple
from sporax.core.tensor import Tensor
from sporax.graph.cell_jit import call_compiled
from sporax.nn.cell import Cell
from sporax.state.assign import write


class AdamW(Cell):
    """Adam with decoupled weight decay: ``param *= 1 - lr * weight_decay`` before the Adam step.

    Args:
        params (Union[list[Parameter], list[dict]]): the Parameters, or groups ``{'params': [...], 'lr': ...}``.
        lr (float): Default: 1e-3.
        betas (tuple[float, float]): Default: (0.9, 0.999).
        eps (float): Default: 1e-8.
        weight_decay (float): Default: 1e-2.
        amsgrad (bool): keep the maximum of the second moments. Default: False.
        maximize (bool): ascend instead of descend. Default: False.

    Inputs:
        - **gradients** (tuple[Tensor]): one per parameter.

    Example:
        >>> import sporax as ms
        >>> net = ms.nn.Dense(2, 1)
        >>> optimizer = AdamW(net.trainable_params(), lr=0.1)
    """

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False, *,
                 maximize=False):
        super().__init__(auto_prefix=False)
        if lr < 0 or eps < 0 or weight_decay < 0 or not all(0.0 <= beta < 1.0 for beta in betas):
            raise ValueError("For 'AdamW', need lr >= 0, eps >= 0, weight_decay >= 0 and betas in [0, 1).")
        defaults = dict(lr=lr, betas=tuple(betas), eps=eps, weight_decay=weight_decay, amsgrad=amsgrad,
                        maximize=maximize)
        params = list(params)
        if not params:
            raise ValueError("For 'AdamW', params must not be empty.")
        groups = params if isinstance(params[0], dict) else [{"params": params}]
        self.param_groups = [dict(defaults, **dict(group, params=list(group["params"]))) for group in groups]
        members = [p for group in self.param_groups for p in group["params"]]
        self.parameters = ParameterTuple(members)
        self.exp_avg = self.parameters.clone("exp_avg", "zeros")
        self.exp_avg_sq = self.parameters.clone("exp_avg_sq", "zeros")
        self.max_exp_avg_sq = self.parameters.clone("max_exp_avg_sq", "zeros")
        self.state_step = Parameter(Tensor(np.zeros(1, np.int32)), name="state_step", requires_grad=False)

    def __call__(self, *args, **kwargs):
        if self._hooks is not None or self._cast_type is not None:
            return super().__call__(*args, **kwargs)
        return call_compiled(self, args, kwargs)

    def construct(self, gradients):
        step = self.state_step._value + 1
        write(self.state_step, step, "AdamW")
        step = step.reshape(()).astype(jnp.float32)
        index = 0
        for group in self.param_groups:
            lr, (beta1, beta2), eps = group["lr"], group["betas"], group["eps"]
            for parameter in group["params"]:
                gradient = gradients[index]._value
                gradient = -gradient if group["maximize"] else gradient
                weight = parameter._value * (1 - lr * group["weight_decay"])
                m = beta1 * self.exp_avg[index]._value + (1 - beta1) * gradient
                v = beta2 * self.exp_avg_sq[index]._value + (1 - beta2) * gradient * gradient
                second = v
                if group["amsgrad"]:
                    second = jnp.maximum(self.max_exp_avg_sq[index]._value, v)
                    write(self.max_exp_avg_sq[index], second, "AdamW")
                denominator = jnp.sqrt(second / (1 - beta2 ** step)) + eps
                write(self.exp_avg[index], m, "AdamW")
                write(self.exp_avg_sq[index], v, "AdamW")
                write(parameter, weight - lr / (1 - beta1 ** step) * m / denominator, "AdamW")
                index += 1
        return True
