"""Dicts in a compiled program's outputs keep their keys' order and may mix key types.

``jax.tree_util`` sorts a dict's keys when it flattens it (and fails on keys that do not compare,
such as ``"a"`` and ``("d", "e")``), so a dict returned from GRAPH_MODE or ``ms.jit`` would come
back reordered, or not at all. MindSpore returns it as built. ``keep_order`` turns every dict into
an ``OrderedNode`` (a pytree whose key tuple is static data, in insertion order) before
flattening; ``restore`` turns them back into dicts after unflattening. A ``collections.deque`` (no
pytree either) travels the same way as a ``DequeNode``, so its Tensors come back with their values.
"""
import collections

import jax


class OrderedNode:
    """A dict's keys (static) and values (children), in insertion order."""

    __slots__ = ("keys", "values")

    def __init__(self, keys, values):
        self.keys = tuple(keys)
        self.values = list(values)


jax.tree_util.register_pytree_node(OrderedNode, lambda node: (node.values, node.keys),
                                   lambda keys, values: OrderedNode(keys, values))


class DequeNode:
    """A deque's items (children) and its ``maxlen`` (static)."""

    __slots__ = ("maxlen", "values")

    def __init__(self, maxlen, values):
        self.maxlen = maxlen
        self.values = list(values)


jax.tree_util.register_pytree_node(DequeNode, lambda node: (node.values, node.maxlen),
                                   lambda maxlen, values: DequeNode(maxlen, values))


def keep_order(value):
    """``value`` with its dicts (at any depth in tuples, lists and dicts) as OrderedNodes and its deques as
    DequeNodes; and whether it had any."""
    if type(value) is dict:
        return OrderedNode(value.keys(), [keep_order(item)[0] for item in value.values()]), True
    if type(value) is collections.deque:
        return DequeNode(value.maxlen, [keep_order(item)[0] for item in value]), True
    if type(value) in (tuple, list):
        converted = [keep_order(item) for item in value]
        if any(found for _, found in converted):
            return type(value)(item for item, _ in converted), True
    return value, False


def restore(value):
    """The inverse of ``keep_order``."""
    if isinstance(value, OrderedNode):
        return {key: restore(item) for key, item in zip(value.keys, value.values)}
    if isinstance(value, DequeNode):
        return collections.deque((restore(item) for item in value.values), value.maxlen)
    if type(value) in (tuple, list):
        return type(value)(restore(item) for item in value)
    return value
