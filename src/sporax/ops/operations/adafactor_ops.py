"""``ops.FusedAdaFactor`` and ``ops.FusedAdaFactorWithGlobalNorm``: one Adafactor step (Shazeer & Stern, 2018) on
a Parameter and its states, updated in place.

With ``epsilon = (eps1, eps2)``, ``G2 = grad**2 + eps1``:

- a parameter of 2 or more dimensions keeps factored second moments: ``row = beta2 * row + (1 - beta2) *
  mean(G2, -1)``, ``col = beta2 * col + (1 - beta2) * mean(G2, -2)``, and ``update = grad /
  sqrt((row / mean(row, -1))[..., None] * col[..., None, :])``; a vector keeps ``exp_avg_sq = beta2 *
  exp_avg_sq + (1 - beta2) * G2`` and ``update = grad / sqrt(exp_avg_sq)``;
- ``update /= max(1, RMS(update) / clip_threshold)``; the step size is ``lr``, times ``max(eps2, RMS(param))``
  with ``enable_scale_parameter``; ``update *= step size``;
- ``enable_first_moment``: ``exp_avg = beta1 * exp_avg + (1 - beta1) * update`` becomes the update;
- ``enable_weight_decay``: ``param -= weight_decay * step size * param``; then ``param -= update``.

``FusedAdaFactorWithGlobalNorm`` divides the gradient by ``global_norm`` first. Checked against MindSpore
2.10's CPU kernel (tests/fixtures/surface_ops/fused_ada_factor.json).

Example:
    >>> import numpy as np
    >>> import sporax as ms
    >>> param = ms.Parameter(ms.Tensor(np.ones(3, np.float32)), name="param")
    >>> states = [ms.Parameter(ms.Tensor(np.zeros(shape, np.float32)), name=name)
    ...           for name, shape in (("m", 3), ("row", 1), ("col", 1), ("v", 3))]
    >>> _ = ms.ops.FusedAdaFactor()((1e-30, 1e-3), 1.0, 0.9, 0.8, 0.0, 0.1, ms.Tensor(np.ones(3, np.float32)),
    ...                             param, *states)
    >>> [round(v, 4) for v in param.asnumpy().tolist()]
    [0.9, 0.9, 0.9]
"""
import numpy as np

from sporax.ops.functional.update import adafactor_rule
from sporax.ops.operations.optimizer_ops import _bool, _Update
from sporax.ops.primitive import prim_attr_register


class FusedAdaFactor(_Update):
    """One Adafactor step (see the module doc for the formulas).

    Args:
        enable_scale_parameter (bool): scale the step by ``max(eps2, RMS(param))``. Default: False.
        enable_first_moment (bool): keep a first moment ``exp_avg``. Default: False.
        enable_weight_decay (bool): decay ``param`` by ``weight_decay``. Default: False.

    Inputs:
        - **epsilon** (tuple[float]) - ``(eps1, eps2)``. **clip_threshold**, **beta1**, **beta2**, **weight_decay**,
          **learning_rate** (float).
        - **gradient** (Tensor). **param**, **exp_avg**, **exp_avg_sq_row**, **exp_avg_sq_col**, **exp_avg_sq**
          (Parameter) - updated in place; ``exp_avg_sq_row`` has ``param.shape[:-1]``, ``exp_avg_sq_col``
          ``param.shape[:-2] + param.shape[-1:]`` (a vector uses ``exp_avg_sq``).

    Outputs:
        Tensor, ``param`` after the step.
    """

    _inputs = ("epsilon", "clip_threshold", "beta1", "beta2", "weight_decay", "learning_rate", "gradient", "param",
               "exp_avg", "exp_avg_sq_row", "exp_avg_sq_col", "exp_avg_sq")
    _states = ("param", "exp_avg", "exp_avg_sq_row", "exp_avg_sq_col", "exp_avg_sq")
    _returns = ("param",)

    @prim_attr_register
    def __init__(self, enable_scale_parameter=False, enable_first_moment=False, enable_weight_decay=False):
        _bool(type(self).__name__, enable_scale_parameter=enable_scale_parameter,
              enable_first_moment=enable_first_moment, enable_weight_decay=enable_weight_decay)
        self.enable_scale_parameter = enable_scale_parameter
        self.enable_first_moment = enable_first_moment
        self.enable_weight_decay = enable_weight_decay

    def _rule(self, v):
        epsilon = v["epsilon"]
        if len(epsilon) != 2:
            # MindSpore 2.10's CPU kernel checks the byte size when it runs: RuntimeError, not ValueError.
            size = len(epsilon) * np.dtype(getattr(epsilon, "dtype", np.float32)).itemsize
            raise RuntimeError(f"For '{self.name}', the address size of 'epsilon' must be 8, but got {size}: "
                               f"epsilon must be a pair (eps1, eps2), got {len(epsilon)} values.")
        states = adafactor_rule(
            v["param"], v["gradient"], v["exp_avg"], v["exp_avg_sq_row"], v["exp_avg_sq_col"], v["exp_avg_sq"],
            v["epsilon"], v["clip_threshold"], v["beta1"], v["beta2"], v["weight_decay"], v["learning_rate"],
            self.enable_scale_parameter, self.enable_first_moment, self.enable_weight_decay, v.get("global_norm"))
        return dict(zip(("param", "exp_avg", "exp_avg_sq_row", "exp_avg_sq_col", "exp_avg_sq"), states))


class FusedAdaFactorWithGlobalNorm(FusedAdaFactor):
    """``FusedAdaFactor`` on the gradient divided by ``global_norm`` (its last input, a scalar)."""

    _inputs = FusedAdaFactor._inputs + ("global_norm",)
