"""``ops.all_gather_matmul`` and ``ops.matmul_reduce_scatter``: a matrix product fused with the tensor-parallel
collective around it (MindSpore 2.10's Ascend fusions; sporax runs the collective and the product as XLA
ops, which XLA may overlap).

- ``all_gather_matmul(input, x2, group, world_size)``: ``allgather(input) @ x2`` (and the gathered input);
- ``matmul_reduce_scatter(input, x2, group, world_size)``: ``reducescatter(input @ x2)`` (rows split by rank).

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> from sporax.parallel.communication import GlobalComm
    >>> a, b = Tensor(np.ones((2, 3), np.float32)), Tensor(np.ones((3, 4), np.float32))
    >>> output, gathered = ops.all_gather_matmul(a, b, GlobalComm.WORLD_COMM_GROUP, 1)  # a world of one
    >>> output.shape, gathered.shape
    ((2, 4), (2, 3))
"""
import jax.numpy as jnp

from sporax.core.tensor import Tensor
from sporax.ops._dispatch import wrap
from sporax.parallel import collectives


def _check(function, input, x2, group, world_size, bias, comm_turn, trans_input):  # noqa: A002 - MindSpore's name
    for name, value in (("input", input), ("x2", x2)):
        if not isinstance(value, Tensor) or value.ndim != 2:
            raise TypeError(f"For '{function}', '{name}' must be a 2-D Tensor, but got "
                            f"{getattr(value, 'shape', type(value).__name__)}.")
    if input.dtype != x2.dtype:
        raise TypeError(f"For '{function}', 'input' and 'x2' must have one dtype, but got {input.dtype} and "
                        f"{x2.dtype}.")
    if not isinstance(group, str):
        raise TypeError(f"For '{function}', 'group' must be a str, but got {type(group)}.")
    members = collectives.members_of(function, group)
    if world_size != len(members):
        raise ValueError(f"For '{function}', world_size ({world_size}) must be the size of group '{group}' "
                         f"({len(members)}).")
    unsupported = [name for name, value, default in (("bias", bias, None), ("comm_turn", comm_turn, 0),
                                                      ("trans_input", trans_input, False)) if value != default]
    if unsupported:
        raise NotImplementedError(f"For '{function}', {unsupported[0]} must keep its default (MindSpore 2.10 "
                                  f"supports only that too).")


def all_gather_matmul(input, x2, group, world_size, *, bias=None, gather_index=0, gather_output=True,  # noqa: A002
                      comm_turn=0, trans_input=False, trans_x2=False):
    """``(allgather(input) @ x2, allgather(input))``: the (m, k) inputs of the ``world_size`` ranks of ``group``
    gathered along rows, times (k, n) ``x2`` (``x2.T`` when ``trans_x2``).

    Returns:
        ``(output, gather_out)``: (m * world_size, n) and (m * world_size, k); ``gather_out`` is an empty tensor
        when ``gather_output`` is False.
    """
    _check("all_gather_matmul", input, x2, group, world_size, bias, comm_turn, trans_input)
    if gather_index != 0:
        raise NotImplementedError("For 'all_gather_matmul', gather_index must be 0 (gather 'input'), as in "
                                  "MindSpore 2.10.")
    right = x2._value.T if trans_x2 else x2._value
    gathered = collectives.all_gather(input._value, group)
    output = jnp.matmul(gathered, right)
    return wrap(output), wrap(gathered if gather_output else jnp.zeros((0,), gathered.dtype))


def matmul_reduce_scatter(input, x2, group, world_size, *, reduce_op="sum", bias=None, comm_turn=0,  # noqa: A002
                          trans_input=False, trans_x2=False):
    """``reducescatter(input @ x2)``: the (m, n) products of the ranks of ``group`` summed, each rank keeping its
    m / world_size rows."""
    _check("matmul_reduce_scatter", input, x2, group, world_size, bias, comm_turn, trans_input)
    if reduce_op != "sum":
        raise NotImplementedError(f"For 'matmul_reduce_scatter', reduce_op must be 'sum' (as in MindSpore 2.10), "
                                  f"but got {reduce_op!r}.")
    if input.shape[0] % world_size:
        raise ValueError(f"For 'matmul_reduce_scatter', the rows of 'input' ({input.shape[0]}) must divide by "
                         f"world_size {world_size}.")
    right = x2._value.T if trans_x2 else x2._value
    return wrap(collectives.reduce_scatter(jnp.matmul(input._value, right), "sum", group))
