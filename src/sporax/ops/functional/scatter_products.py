"""Products scattered into an array (``tensor_scatter_mul``/``div``, ``unsorted_segment_prod``), differentiable
whether or not the indices repeat.

JAX differentiates a scatter-multiply only when its indices are declared unique; MindSpore's bprops accept
repeated indices. ``multiply_at`` carries the gradient itself: an update's cotangent is the product of the
*other* updates landing at its position (a zero among them, or a zero update itself, handled without dividing
by it), the target's is the product of all of them.

Example:
    >>> import jax, jax.numpy as jnp
    >>> from sporax.ops.functional.scatter_products import multiply_at
    >>> index = (jnp.array([0, 0, 2]),)
    >>> loss = lambda updates: multiply_at(jnp.ones(3), index, updates).sum()
    >>> jax.grad(loss)(jnp.array([2.0, 3.0, 5.0])).tolist()
    [3.0, 2.0, 1.0]
"""
import jax
import jax.numpy as jnp


@jax.custom_vjp
def multiply_at(array, index, updates):
    """``array`` with ``updates`` multiplied in at ``index`` (an integer array or a tuple of them, as ``.at[]`` takes;
    out-of-range positions are dropped)."""
    return array.at[index].multiply(updates, mode="drop")


def _forward(array, index, updates):
    return multiply_at(array, index, updates), (array, index, updates)


def _backward(residuals, cotangent):
    array, index, updates = residuals
    zero = updates == 0
    nonzero = jnp.where(zero, jnp.ones_like(updates), updates)
    # per position: the product of its nonzero updates, and how many of its updates are zero
    products = jnp.ones_like(array).at[index].multiply(nonzero, mode="drop")
    zeros = jnp.zeros(array.shape, jnp.int32).at[index].add(zero.astype(jnp.int32), mode="drop")
    array_cotangent = cotangent * jnp.where(zeros > 0, jnp.zeros_like(products), products)
    position_products = products.at[index].get(mode="fill", fill_value=0)
    position_zeros = zeros.at[index].get(mode="fill", fill_value=0)
    others = jnp.where(zero, jnp.where(position_zeros == 1, position_products, 0),
                       jnp.where(position_zeros == 0, position_products / nonzero, 0))
    updates_cotangent = (cotangent * array).at[index].get(mode="fill", fill_value=0) * others
    return array_cotangent, jax.tree_util.tree_map(lambda _: None, index), updates_cotangent.astype(updates.dtype)


multiply_at.defvjp(_forward, _backward)


def segment_product(values, segment_ids, count):
    """``jax.ops.segment_prod`` (empty segments hold 1, out-of-range ids are dropped), differentiable with
    repeated ids."""
    ones = jnp.ones((count,) + values.shape[1:], values.dtype)
    # ``.at[]`` would wrap a negative id to the end; a segment id below 0 is dropped, as one past the end
    segment_ids = jnp.where(segment_ids < 0, count, segment_ids)
    return multiply_at(ones, (segment_ids,), values)
