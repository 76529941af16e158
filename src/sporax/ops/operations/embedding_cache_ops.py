"""``ops.MapUniform``: spread embedding keys evenly over groups (MindSpore's embedding-cache helper).

``value = key % group_num * per_group_size + key // group_num``: consecutive keys go to consecutive
groups, so a key range fills the groups in turn.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> ops.MapUniform()(Tensor(np.arange(8)), 4, 2).asnumpy().tolist()
    [0, 4, 1, 5, 2, 6, 3, 7]
"""
from sporax.ops._dispatch import array_of
from sporax.ops.primitive import Primitive, prim_attr_register


class MapUniform(Primitive):
    """Map each key to ``key % group_num * per_group_size + key // group_num``.

    Inputs:
        - **input** (Tensor) - integer keys.
        - **per_group_size** (int) - the size of each group.
        - **group_num** (int) - the number of groups, positive.

    Outputs:
        Tensor of ``input``'s shape and dtype.
    """

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(["input", "per_group_size", "group_num"], ["output"])

    def __call__(self, input, per_group_size, group_num):  # noqa: A002 - MindSpore's name
        keys = array_of("MapUniform", "input", input)
        if keys.dtype.kind not in "iu":
            raise TypeError(f"For 'MapUniform', 'input' must hold integer keys, but got {keys.dtype}.")
        for name, value in (("per_group_size", per_group_size), ("group_num", group_num)):
            if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
                raise ValueError(f"For 'MapUniform', '{name}' must be a positive int, but got {value!r}.")
        # the Tensor operators (the op-table's floor_mod, mul, add, floor_div) keep the keys' integer dtype
        return input % group_num * per_group_size + input // group_num
