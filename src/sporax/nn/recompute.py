"""``Cell.recompute()``: the Cell runs under ``jax.checkpoint`` (``mindspore.recompute`` per call).

``set_recompute`` marks the Cell in its hook table (``sporax.nn.cell_hooks``), so every later
call goes through ``call_recomputed``, which hands the Cell's body to
``sporax.autodiff.recompute.recompute``: the block's activations are recomputed in the backward
pass instead of being stored, its Parameters are lifted as explicit inputs, and the gradients
and outputs are those of the plain call.
"""
from sporax.autodiff.recompute import recompute
from sporax.nn.cell_hooks import hooks_of

_PARALLEL_OPTIONS = ("mp_comm_recompute", "parallel_optimizer_comm_recompute", "recompute_slice_activation")


def set_recompute(cell, *, use_reentrant=True, output_recompute=False, early_stop=True, context_fn=None, **kwargs):
    """Mark ``cell`` recomputed (``Cell.recompute``); MindSpore's keyword checks."""
    for key, value in kwargs.items():
        if key not in _PARALLEL_OPTIONS:
            raise ValueError(f"For 'recompute', keyword '{key}' is not recognized! the key kwargs must be "
                             "'mp_comm_recompute', 'parallel_optimizer_comm_recompute', "
                             "'recompute_slice_activation'")
        if not isinstance(value, bool):
            raise TypeError(f"For 'recompute', the value of '{key}' must be bool, but got {type(value).__name__}.")
    hooks = hooks_of(cell)
    hooks.recompute = True
    hooks.changed()


class _UnhookedBody:
    """The Cell's body without its hooks, as the block ``recompute`` runs (one per Cell).

    ``_sporax_reachable`` lets state discovery walk the Cell's tree through this wrapper.
    """

    __slots__ = ("cell",)

    def __init__(self, cell):
        self.cell = cell

    def __call__(self, *args, **kwargs):
        return self.cell._call_unhooked(args, kwargs)

    def _sporax_reachable(self):
        return [self.cell]


def call_recomputed(cell, args, kwargs):
    """Run the body of ``cell`` under ``jax.checkpoint`` (called by ``cell_hooks``)."""
    body = cell.__dict__.get("_sporax_recompute_body")
    if body is None:
        body = cell.__dict__["_sporax_recompute_body"] = _UnhookedBody(cell)
    return recompute(body, *args, **kwargs)
