"""MindSpore's embedding-cache helpers: ``ops.MapUniform`` spreads keys over groups, ``UpdateCache``
writes rows of a cache Parameter.

``MapUniform``: ``value = key % group_num * per_group_size + key // group_num``: consecutive keys go to
consecutive groups, so a key range fills the groups in turn.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> ops.MapUniform()(Tensor(np.arange(8)), 4, 2).asnumpy().tolist()
    [0, 4, 1, 5, 2, 6, 3, 7]
"""
import jax.numpy as jnp

from sporax.ops._dispatch import array_of, wrap
from sporax.ops.operations.optimizer_ops import _Update
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


class UpdateCache(_Update):
    """Write ``update``'s rows into the cache Parameter ``input_x`` at the rows ``indices`` names.

    An index outside ``[0, max_num)`` (or past the cache's first dimension) is skipped, as MindSpore's
    CPU kernel skips the ``-1`` of a cache miss; when an index repeats, the last row written wins.

    Inputs:
        - **input_x** (Parameter) - the cache, updated in place.
        - **indices** (Tensor) - integer row indices, any shape.
        - **update** (Tensor) - rows of shape ``indices.shape + input_x.shape[1:]``.
        - **max_num** (int) - indices ``>= max_num`` are skipped.

    Outputs:
        Tensor ``[0]`` of ``input_x``'s dtype (MindSpore's status output).

    Example:
        >>> import numpy as np
        >>> import sporax as ms
        >>> from sporax.ops.operations import UpdateCache
        >>> cache = ms.Parameter(ms.Tensor(np.zeros((3, 2), np.float32)), name="cache")
        >>> _ = UpdateCache()(cache, ms.Tensor(np.array([-1, 2], np.int32)),
        ...                          ms.Tensor(np.ones((2, 2), np.float32)), 10)
        >>> cache.asnumpy().tolist()
        [[0.0, 0.0], [0.0, 0.0], [1.0, 1.0]]
    """

    _inputs = ("input_x", "indices", "update", "max_num")
    _states = ("input_x",)
    _returns = ("output",)

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(["input_x", "indices", "update", "max_num"], ["out"])

    def _rule(self, v):
        cache, rows = v["input_x"], jnp.asarray(v["indices"]).reshape(-1)
        if rows.dtype.kind not in "iu":
            raise TypeError(f"For 'UpdateCache', 'indices' must be an integer Tensor, but got {rows.dtype}.")
        update = jnp.asarray(v["update"]).reshape((rows.shape[0],) + cache.shape[1:])
        limit = min(int(v["max_num"]), cache.shape[0])
        # skipped rows point past the end (dropped); of repeated rows only the last position is kept
        target = jnp.where((rows >= 0) & (rows < limit), rows, cache.shape[0])
        position = jnp.arange(rows.shape[0])
        last = jnp.full((cache.shape[0],), -1, position.dtype).at[target].max(position, mode="drop")
        keep = last.at[jnp.minimum(target, cache.shape[0] - 1)].get() == position
        target = jnp.where(keep & (target < cache.shape[0]), target, cache.shape[0])
        return {"input_x": cache.at[target].set(update.astype(cache.dtype), mode="drop"),
                "output": wrap(jnp.zeros((1,), cache.dtype))}
