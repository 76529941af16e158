"""A stateful step repeated over a block of batches with ``lax.scan`` (the sink loop's core).

Called inside a trace whose scope binds ``states``: the step is lifted (``sporax.state.lifting``)
and each scan iteration runs it on the carried values; afterwards the written states hold their
final values, so the enclosing program writes them back.
"""
import jax
from jax import lax

from sporax.core.tensor import Tensor
from sporax.state.lifting import Lift


def _arrays(value):
    return jax.tree_util.tree_map(lambda leaf: leaf._value if isinstance(leaf, Tensor) else leaf, value,
                                  is_leaf=lambda leaf: isinstance(leaf, Tensor))


def scan_states(states, step, stacked, name):
    """Run ``step(*batch)`` for each row of the ``stacked`` arrays; returns the stacked outputs."""
    lifted = Lift(lambda batch: step(*[Tensor._wrap(column) for column in batch]), states, name)

    def body(carry, batch):
        outputs, new_values = lifted(carry, batch)
        return new_values, _arrays(outputs)

    final, outputs = lax.scan(body, lifted.values(), tuple(stacked))
    lifted.write_back(final)
    return outputs
