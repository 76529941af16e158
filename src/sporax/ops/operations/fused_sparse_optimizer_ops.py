"""Sparse optimizer-update Primitives: ``FusedSparseFtrl``, ``FusedSparseProximalAdagrad``,
``FusedSparseLazyAdam`` and ``FusedSparseAdam``; the last input ``indices`` names the rows ``grad`` holds.

Algorithm: gather the rows ``indices`` of every state, apply the dense rule of ``optimizer_ops`` to them
and scatter them back; ``FusedSparseAdam`` instead sums the sparse gradient into a dense one (duplicate
rows add), so every row's moments decay as in dense Adam.

Example:
    >>> import numpy as np
    >>> import sporax as ms
    >>> var = ms.Parameter(ms.Tensor(np.ones((3, 2), np.float32)), name="var")
    >>> accum = ms.Parameter(ms.Tensor(np.full((3, 2), 0.1, np.float32)), name="accum")
    >>> _ = ms.ops.FusedSparseProximalAdagrad()(var, accum, 0.1, 0.0, 0.0, ms.Tensor(np.ones((1, 2), np.float32)),
    ...                                         ms.Tensor(np.array([2], np.int32)))
    >>> var.asnumpy()[0].tolist()
    [1.0, 1.0]
"""
from sporax.core.tensor import Tensor
from sporax.ops._dispatch import describe
from sporax.ops.functional.update import adam_rule, dense_row_gradient
from sporax.ops.operations.optimizer_ops import _bool, _ftrl, _proximal_adagrad, _Update
from sporax.ops.primitive import prim_attr_register


class _SparseUpdate(_Update):
    """Base of the ``FusedSparse*`` ops: the rule runs on the rows ``indices`` (the last input)."""

    def __call__(self, *args):
        if len(args) == len(self._inputs):
            self._check_shapes(dict(zip(self._inputs, args)))
        return super().__call__(*args)

    def _check_shapes(self, named):
        """MindSpore's checks: TypeError for non-Tensor or non-integer inputs, ValueError for shapes."""
        for name in (*self._states, "grad", "indices"):
            if not isinstance(named[name], Tensor):
                raise TypeError(f"For '{self.name}', the input argument[{name}] must be a Tensor, but got "
                                f"{describe(named[name])}.")
        grad, indices, var = named["grad"], named["indices"], named["var"]
        if indices.dtype.kind not in ("int", "uint"):
            raise TypeError(f"For '{self.name}', the input argument[indices] must be an int32 Tensor, but got "
                            f"{indices.dtype}.")
        for name in self._states:
            if named[name].shape != var.shape:
                raise ValueError(f"For '{self.name}', the shape of '{name}' must be equal to the shape of 'var' "
                                 f"{var.shape}, but got {named[name].shape}.")
        if indices.ndim != 1:
            raise ValueError(f"For '{self.name}', 'indices' must be 1-D, but got rank {indices.ndim}.")
        if grad.ndim < 1 or grad.shape[0] != indices.shape[0] or grad.shape[1:] != var.shape[1:]:
            raise ValueError(f"For '{self.name}', 'grad' must have shape (len(indices), *var.shape[1:]) = "
                             f"{(indices.shape[0], *var.shape[1:])}, but got {grad.shape}.")

    def _rule(self, v):
        rows = v["indices"].reshape(-1)
        gathered = {name: value[rows] for name, value in v.items() if name in self._states}
        scalars = {name: value for name, value in v.items() if name not in self._states}
        updated = self._row_rule({**scalars, **gathered})
        return {name: v[name].at[rows].set(updated[name].astype(v[name].dtype)) for name in self._states}


class FusedSparseFtrl(_SparseUpdate):
    """FTRL on the rows ``indices`` of ``var``, ``accum`` and ``linear``. Returns ``(var, accum, linear)``.

    Args:
        lr (float), l1 (float), l2 (float), lr_power (float): the FTRL hyper-parameters.
        use_locking (bool): Default: False.
    """

    _inputs = ("var", "accum", "linear", "grad", "indices")
    _states = ("var", "accum", "linear")
    _returns = _states

    @prim_attr_register
    def __init__(self, lr, l1, l2, lr_power, use_locking=False):
        if lr <= 0 or l1 < 0 or l2 < 0 or lr_power > 0:
            raise ValueError(f"For 'FusedSparseFtrl', need lr > 0, l1 >= 0, l2 >= 0 and lr_power <= 0, but got "
                             f"lr={lr}, l1={l1}, l2={l2}, lr_power={lr_power}.")
        self.lr, self.l1, self.l2, self.lr_power = lr, l1, l2, lr_power

    def _row_rule(self, v):
        return _ftrl(v["var"], v["accum"], v["linear"], v["grad"], self.lr, self.l1, self.l2, self.lr_power)


class FusedSparseProximalAdagrad(_SparseUpdate):
    """Proximal Adagrad on the rows ``indices``. Returns ``(var, accum)``."""

    _inputs = ("var", "accum", "lr", "l1", "l2", "grad", "indices")
    _states = ("var", "accum")
    _returns = _states

    @prim_attr_register
    def __init__(self, use_locking=False):
        _bool("FusedSparseProximalAdagrad", use_locking=use_locking)

    def _row_rule(self, v):
        return _proximal_adagrad(v["var"], v["accum"], v["lr"], v["l1"], v["l2"], v["grad"])


def _adam_rows(v, use_nesterov):
    var, m, second = adam_rule(v["var"], v["m"], v["v"], v["beta1_power"], v["beta2_power"], v["lr"], v["beta1"],
                               v["beta2"], v["epsilon"], v["grad"], use_nesterov)
    return {"var": var, "m": m, "v": second}


class FusedSparseLazyAdam(_SparseUpdate):
    """Adam on the rows ``indices`` only (the other rows' moments do not decay). Returns ``(var, m, v)``.

    Args:
        use_locking (bool), use_nesterov (bool): Default: False.
    """

    _inputs = ("var", "m", "v", "beta1_power", "beta2_power", "lr", "beta1", "beta2", "epsilon", "grad", "indices")
    _states = ("var", "m", "v")
    _returns = _states

    @prim_attr_register
    def __init__(self, use_locking=False, use_nesterov=False):
        _bool(type(self).__name__, use_locking=use_locking, use_nesterov=use_nesterov)
        self.use_nesterov = use_nesterov

    def _row_rule(self, v):
        return _adam_rows(v, self.use_nesterov)


class FusedSparseAdam(FusedSparseLazyAdam):
    """Adam with a sparse gradient (rows ``indices``, duplicates summed): every row's moments decay.
    Returns ``(var, m, v)``."""

    def _rule(self, v):
        dense = dense_row_gradient(v["var"], v["indices"], v["grad"])
        return _adam_rows({**v, "grad": dense}, self.use_nesterov)
