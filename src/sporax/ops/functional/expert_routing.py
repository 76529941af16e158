"""Routing tokens to experts (Mixture of Experts): ``GroupTopk``'s op, written from its documented semantics
(MindSpore 2.10 runs it on Ascend only; its CPU kernel is not registered).

Contract: each token's expert scores split into ``group_num`` equal groups; a group's score is the sum of its
``k_inner`` largest values (its maximum when ``k_inner`` is 1); the ``k`` best groups keep their scores and the
others become 0, in place in ``token``. Equal group scores prefer the lower group.

Example:
    >>> import numpy as np
    >>> from sporax import Tensor, ops
    >>> token = Tensor(np.array([[1.0, 5.0, 2.0, 3.0, 0.0, 4.0, 7.0, 6.0]], np.float32))
    >>> ops.GroupTopk()(token, Tensor(np.arange(1024, dtype=np.int32)), 4, 2).asnumpy().tolist()
    [[1.0, 5.0, 0.0, 0.0, 0.0, 0.0, 7.0, 6.0]]
"""
import numbers

import jax
import jax.numpy as jnp
import numpy as np

from sporax.ops.op_table import FLOAT, Sample, op
from sporax.ops.samples import values


def _check_groups(token, group_num, k, k_inner):
    for name, value in (("group_num", group_num), ("k", k), ("k_inner", k_inner)):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            raise TypeError(f"For 'GroupTopk', '{name}' must be an int, but got {type(value).__name__}.")
    if token.ndim != 2:
        raise ValueError(f"For 'GroupTopk', 'token' must be 2-D (tokens, experts), but got shape {tuple(token.shape)}.")
    experts = token.shape[1]
    if not 1 <= group_num <= experts or experts % group_num:
        raise ValueError(f"For 'GroupTopk', 'group_num' must divide the {experts} experts (1 <= group_num <= "
                         f"{experts}), but got {group_num}.")
    if not 1 <= k <= group_num:
        raise ValueError(f"For 'GroupTopk', 'k' must be in [1, group_num={group_num}], but got {k}.")
    if not 1 <= k_inner <= experts // group_num:
        raise ValueError(f"For 'GroupTopk', 'k_inner' must be in [1, {experts // group_num}] (the group size), but "
                         f"got {k_inner}.")


def _numpy_group_topk(token, idx_arr, group_num, k, k_inner=1):
    result = np.array(token, copy=True)
    for row in result:
        groups = row.reshape(group_num, -1)
        scores = np.sort(groups, axis=1)[:, ::-1][:, :k_inner].sum(axis=1)
        kept = sorted(range(group_num), key=lambda group: (-scores[group], group))[:k]
        for group in range(group_num):
            if group not in kept:
                groups[group] = 0
    return result


def _group_topk_samples(dtype):
    # scores spread apart so that rounding to float16/bfloat16 cannot reorder the groups
    scores = np.random.default_rng(5).permutation(16).reshape(2, 8).astype(np.float32) / 4
    return [Sample((scores.astype(values((1,), dtype).dtype), np.arange(1024, dtype=np.int32)),
                   {"group_num": 4, "k": 2}),
            Sample((scores[:, ::-1].astype(values((1,), dtype).dtype), np.arange(1024, dtype=np.int32)),
                   {"group_num": 2, "k": 1, "k_inner": 3})]


@op(inputs=("token", "idx_arr"), indices="idx_arr", dtypes=FLOAT, writes="token", primitive="GroupTopk",
    grad_check=False, samples=_group_topk_samples, reference=_numpy_group_topk)
def group_topk(token, idx_arr, group_num, k, k_inner=1):
    """Keep each token's ``k`` best expert groups (a group's score: the sum of its ``k_inner`` largest values),
    zeroing the other groups, in place in ``token``; returns ``token``. ``idx_arr`` is the kernel's
    auxiliary ramp ``[0, 1, ..., 1023]`` (Int32), read by Ascend's kernel only."""
    _check_groups(token, group_num, k, k_inner)
    groups = token.reshape(token.shape[0], group_num, -1)
    inner = jax.lax.top_k(groups.astype(jnp.float32), k_inner)[0].sum(axis=-1)
    # lax.top_k keeps the lower index first among equal scores
    _, best = jax.lax.top_k(inner, k)
    kept = jnp.zeros(inner.shape, bool).at[jnp.arange(inner.shape[0])[:, None], best].set(True)
    return jnp.where(kept[..., None], groups, jnp.zeros_like(groups)).reshape(token.shape)
