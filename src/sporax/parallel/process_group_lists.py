"""``mindspore.mint.distributed``'s list forms of the rooted collectives: ``gather`` and ``scatter``.

PyTorch's spelling, as MindSpore 2.10's ``mint.distributed`` has it: ``gather(tensor, gather_list, dst)`` fills
world rank ``dst``'s ``gather_list[i]`` with group rank i's ``tensor`` (the other ranks' lists stay as they are);
``scatter(tensor, scatter_list, src)`` writes world rank ``src``'s ``scatter_list[i]`` into group rank i's
``tensor``. They run on the process-group API's engine (``process_group``): a script that never called ``init``
is a world of one process.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor
    >>> from sporax.mint import distributed
    >>> gathered = [Tensor(np.zeros(2, np.float32))]
    >>> distributed.gather(Tensor(np.array([1.0, 2.0], np.float32)), gathered) is None
    True
    >>> gathered[0].asnumpy().tolist()
    [1.0, 2.0]
"""
import jax.numpy as jnp

from sporax.parallel import collectives
from sporax.parallel.process_group import (_async, _done, _group, _group_rank, _members, _my_index, _store, _tensor,
                                           _tensors)


def _one_per_member(function, name, values, count, group):
    if len(values) != count:
        raise ValueError(f"For '{function}', '{name}' needs one tensor per member of group '{group}' ({count}), "
                         f"but got {len(values)}.")


def gather(tensor, gather_list, dst=0, group=None, async_op=False):
    """World rank ``dst``'s ``gather_list[i]`` receives group rank i's ``tensor``; the other ranks' lists stay."""
    group, async_op = _group("gather", group), _async("gather", async_op)
    value = _tensor("gather", "tensor", tensor)
    target = _group_rank("gather", dst, group)
    members = _members("gather", group)
    gathered = collectives.all_gather(value.reshape((1,) + value.shape), group)
    if _my_index(members) == target:
        _tensors("gather", "gather_list", gather_list)
        _one_per_member("gather", "gather_list", gather_list, len(members), group)
        for output, block in zip(gather_list, gathered):
            _store("gather", output, block)
    return _done(async_op, gathered)


def scatter(tensor, scatter_list, src=0, group=None, async_op=False):
    """Group rank i's ``tensor`` receives world rank ``src``'s ``scatter_list[i]``."""
    group, async_op = _group("scatter", group), _async("scatter", async_op)
    _tensor("scatter", "tensor", tensor)
    root = _group_rank("scatter", src, group)
    members = _members("scatter", group)
    me = _my_index(members)
    if me == root:
        blocks = _tensors("scatter", "scatter_list", scatter_list)
        _one_per_member("scatter", "scatter_list", blocks, len(members), group)
        stacked = jnp.stack(blocks)
    else:  # only the root's list is read: the others send a buffer of the shape they receive
        stacked = jnp.zeros((len(members),) + tuple(tensor.shape), tensor._value.dtype)
    block = collectives.broadcast(stacked, root, group)[me]
    _store("scatter", tensor, block)
    return _done(async_op, block)
