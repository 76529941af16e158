"""``nn.LossBase``: the base of loss Cells, with MindSpore's ``get_loss`` reduction."""
import functools

import jax
import jax.numpy as jnp

from sporax import log
from sporax.core.tensor import Tensor, unwrap
from sporax.nn.cell import Cell
from sporax.ops.functional.reduce import divide_exactly, full_sum

REDUCTIONS = ("mean", "sum", "none")


def check_reduction(cell_name, reduction):
    if reduction not in REDUCTIONS:
        raise ValueError(f"For '{cell_name}', the 'reduction' must be in ['mean', 'sum', 'none'], "
                         f"but got {reduction}.")
    return reduction


@functools.partial(jax.jit, static_argnums=(2, 3))
def _weighted_reduction(values, weights, reduce, average):
    """``get_loss``'s arithmetic as one program: in a PyNative gradient, which runs its function op by op, it is
    one differentiated op instead of up to eight (issue 26: the MSE loss was ~40% of a small MLP's step there)."""
    input_dtype = values.dtype
    values = values.astype(jnp.float32)
    if weights is not None:
        values = values * jnp.asarray(weights, jnp.float32)
    if reduce and average:
        # jnp.mean multiplies by a rounded 1/size (an ulp off MindSpore's division, e.g. 0.1 / 3)
        values = divide_exactly(full_sum(values), values.size)
    elif reduce:
        values = full_sum(values)
    return values.astype(input_dtype)


class LossBase(Cell):
    """Base class of losses: subclasses compute per-element losses and call ``get_loss``.

    Args:
        reduction (str): 'mean', 'sum' or 'none'. Default: 'mean'.

    Example:
        >>> import sporax as ms
        >>> class MyL1(ms.nn.LossBase):
        ...     def construct(self, x, y):
        ...         return self.get_loss(ms.ops.abs(x - y))
        >>> float(MyL1()(ms.Tensor([1.0, 2.0]), ms.Tensor([2.0, 4.0])))
        1.5
    """

    def __init__(self, reduction="mean"):
        super().__init__()
        self.reduction = check_reduction(type(self).__name__, reduction)
        self.average = reduction == "mean"
        self.reduce = reduction != "none"

    def get_axis(self, x):
        """All axes of ``x`` as a tuple."""
        return tuple(range(len(x.shape)))

    def get_loss(self, x, weights=1.0):
        """Weight the per-element loss ``x`` and reduce it as ``reduction`` says, in float32.

        Args:
            x (Tensor): per-element losses.
            weights (Union[Tensor, float]): broadcast against ``x``. Default: 1.0.
        """
        # A Python 1.0 (the default) multiplies by one: no operation (x * 1.0 is x).
        weights = None if type(weights) in (float, int) and weights == 1 else unwrap(weights)
        return Tensor._wrap(_weighted_reduction(unwrap(x), weights, self.reduce, self.average))

    def construct(self, logits, labels):
        raise NotImplementedError(f"{type(self).__name__} must define construct(logits, labels).")


class _Loss(LossBase):
    """MindSpore 1.x's name of ``LossBase`` (deprecated there since 1.3, still importable from
    ``mindspore.nn.loss.loss``): the same base class, with MindSpore's deprecation warning.

    Example:
        >>> import sporax as ms
        >>> from sporax.nn.loss.base import _Loss
        >>> class MyL1(_Loss):
        ...     def construct(self, x, y):
        ...         return self.get_loss(ms.ops.abs(x - y))
        >>> float(MyL1()(ms.Tensor([1.0, 2.0]), ms.Tensor([2.0, 4.0])))
        1.5
    """

    def __init__(self, reduction="mean"):
        log.warning("'_Loss' is deprecated from version 1.3 and will be removed after version 2.9.0, "
                    "use 'LossBase' instead.")
        super().__init__(reduction)
