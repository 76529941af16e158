"""``mindspore.recompute``: run a Cell without storing its activations for the backward pass.

The block runs under ``sporax.autodiff.checkpoint`` (``jax.checkpoint``'s contract, kept by XLA on
CPU too): its intermediate values are recomputed during the backward pass instead of being kept.
The block's Parameters enter the checkpointed function as explicit inputs (their new values, e.g.
BatchNorm statistics, come back out and are rebound), so state lifting and differentiation w.r.t.
the weights work as without recompute.
"""
from sporax.autodiff.checkpoint import checkpoint
from sporax.autodiff.transforms import to_arrays, to_tensors
from sporax.core.tensor import Tensor
from sporax.state.discovery import DiscoveryCache
from sporax.state.lifting import Lift

_discoveries = {}


def recompute(block, *args, use_reentrant=True, output_recompute=False, early_stop=True, context_fn=None, **kwargs):
    """Run ``block(*args, **kwargs)``, recomputing its activations in the backward pass.

    Args:
        block (Cell): the block to run.
        args (tuple): its inputs.
        use_reentrant, output_recompute, early_stop, context_fn: accepted for compatibility;
            ``jax.checkpoint`` covers every case.

    Returns:
        The block's outputs.
    """
    if not callable(block):
        raise TypeError(f"For 'recompute', 'block' must be a Cell (or callable), but got {type(block).__name__}.")
    cache = _discoveries.get(id(block))
    if cache is None or cache.roots[0] is not block:
        cache = _discoveries[id(block)] = DiscoveryCache(block)
    states = list(cache.get().states)
    positions = [index for index, value in enumerate(args) if isinstance(value, Tensor)]
    name = f"recompute({type(block).__name__})"

    lifted = Lift(block, states, name)

    def run(state_values, arrays):
        call_args = list(args)
        for position, array in zip(positions, arrays):
            call_args[position] = Tensor._wrap(array)
        outputs, new_values = lifted(list(state_values), *call_args, **kwargs)
        return to_arrays(outputs), lifted.written_values(new_values)

    # Not jax.checkpoint: XLA's CPU compiler merges its recomputation back (see autodiff.checkpoint).
    outputs, written = checkpoint(run)(lifted.values(), [args[position]._value for position in positions])
    lifted.store_written(written)
    return to_tensors(outputs)
