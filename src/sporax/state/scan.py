"""A stateful step repeated over a block of batches with ``lax.scan`` (the sink loop's core).

Called inside a trace whose scope binds ``states``: each scan iteration binds the carried values
into the Parameters, runs the step, and carries out what the step left in them; afterwards the
final values stay bound, so the enclosing program writes them back.
"""
import jax
from jax import lax

from sporax.core.tensor import Tensor
from sporax.state.binding import Bound, bind_values, detach_outputs, read_values


def _arrays(value):
    return jax.tree_util.tree_map(lambda leaf: leaf._value if isinstance(leaf, Tensor) else leaf, value,
                                  is_leaf=lambda leaf: isinstance(leaf, Tensor))


def scan_states(states, step, stacked, name):
    """Run ``step(*batch)`` for each row of the ``stacked`` arrays; returns the stacked outputs."""

    def body(carry, batch):
        with Bound(states, carry, name) as binding:
            outputs = detach_outputs(step(*[Tensor._wrap(column) for column in batch]))
        return binding.new_values, _arrays(outputs)

    final, outputs = lax.scan(body, read_values(states), tuple(stacked))
    bind_values(states, final)
    return outputs
