"""Data placement: ``reshard``/``Reshard`` (a tensor laid out by a parallel ``Layout``) and ``MoveTo`` (a copy
on a named device).

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> ops.MoveTo()(Tensor(np.ones(2, np.float32)), "CPU").asnumpy().tolist()
    [1.0, 1.0]
"""
from sporax.core.tensor import Tensor
from sporax.ops._dispatch import describe
from sporax.ops.functional import primitive_aliases
from sporax.ops.primitive import Primitive, prim_attr_register


def reshard(tensor, layout):
    """Place (or, inside a compiled parallel step, constrain) ``tensor`` by ``layout`` in semi-auto/auto parallel
    mode; in the other modes the tensor is returned as it is."""
    from sporax.parallel.layout import Layout
    from sporax.parallel.shard import _place

    if not isinstance(tensor, Tensor):
        raise TypeError(f"For 'reshard', 'tensor' must be a Tensor, but got {describe(tensor)}.")
    if not isinstance(layout, Layout):
        raise TypeError(f"For 'reshard', 'layout' must be a Layout (called with a tensor map), but got "
                        f"{type(layout).__name__}.")
    return _place("reshard", (tensor,), (layout,))[0]


class Reshard(Primitive):
    """``ops.reshard`` as a Primitive: place its input by ``out_layout``.

    Inputs:
        - **tensor** (Tensor).
    """

    @prim_attr_register
    def __init__(self, in_layout, out_layout, in_strategy):
        layouts = out_layout if isinstance(out_layout, (tuple, list)) else (out_layout,)
        self.layout = layouts[0]

    def __call__(self, tensor):
        return reshard(tensor, self.layout)


class MoveTo(Primitive):
    """A copy of ``input`` on device ``to`` ('CPU' or 'Ascend'; sporax keeps one device).

    Inputs:
        - **input** (Tensor). **to** (str). **blocking** (bool).
    """

    def __call__(self, input, to="CPU", blocking=True):
        return primitive_aliases.move_to(input, to, blocking)


