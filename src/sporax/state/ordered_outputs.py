"""Dicts in a compiled program's outputs keep their keys' order and may mix key types.

``jax.tree_util`` sorts a dict's keys when it flattens it (and fails on keys that do not compare,
such as ``"a"`` and ``("d", "e")``), so a dict returned from GRAPH_MODE or ``ms.jit`` would come
back reordered, or not at all. MindSpore returns it as built, of the class it was built as: an
``OrderedDict``, a dict subclass, a dataclass dict such as the model outputs of the HuggingFace-style
libraries (mindone.transformers' ``ModelOutput``, read by index and by attribute). ``keep_order`` turns
every dict into an ``OrderedNode`` (a pytree whose key tuple and class are static data, in insertion
order) before flattening; ``restore`` turns them back into dicts of their class after unflattening. A
``collections.deque`` (no pytree either) travels the same way as a ``DequeNode``, so its Tensors come
back with their values.
"""
import collections
import dataclasses

import jax


class OrderedNode:
    """A dict's keys and class (static) and values (children), in insertion order."""

    __slots__ = ("keys", "kind", "values")

    def __init__(self, keys, values, kind=None):
        self.keys = tuple(keys)
        self.values = list(values)
        self.kind = kind  # the class of a dict subclass (``dict_kind``); None for a plain dict


jax.tree_util.register_pytree_node(OrderedNode, lambda node: (node.values, (node.keys, node.kind)),
                                   lambda static, values: OrderedNode(static[0], values, static[1]))


_pytree_kinds = set()


def dict_kind(value):
    """The class ``same_kind`` rebuilds ``value`` as: None for a plain dict, and for a ``defaultdict``,
    which MindSpore 2.10's graph returns as a plain dict (without its factory: a missing key is a KeyError).

    A dict subclass JAX does not know (a ``ModelOutput``) becomes a pytree of its values here, once, so
    that the transforms (``grad`` with ``has_aux``, ``vmap``) carry it, of its class, as MindSpore does.
    """
    if type(value) is dict or isinstance(value, collections.defaultdict):
        return None
    kind = type(value)
    if kind not in _pytree_kinds:
        _pytree_kinds.add(kind)
        try:
            jax.tree_util.register_pytree_node(kind, lambda node: (list(node.values()), tuple(node.keys())),
                                               lambda keys, values: same_kind(kind, zip(keys, values)))
        except ValueError:  # a pytree already (an OrderedDict)
            pass
    return kind


def same_kind(kind, items):
    """A dict of class ``kind`` (``dict_kind``'s) holding ``items`` (key, value pairs), in their order.

    A dataclass dict (a ``ModelOutput``) is built from its fields, so its attributes hold the values
    too; another subclass from the pairs. One whose constructor takes neither comes back a plain dict.
    """
    if kind is None:
        return dict(items)
    items = list(items)
    try:
        return kind(**dict(items)) if dataclasses.is_dataclass(kind) else kind(items)
    except (TypeError, ValueError):  # a constructor of its own signature: the pairs as a plain dict
        return dict(items)


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
    if isinstance(value, dict):
        return OrderedNode(value.keys(), [keep_order(item)[0] for item in value.values()], dict_kind(value)), True
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
        return same_kind(value.kind, ((key, restore(item)) for key, item in zip(value.keys, value.values)))
    if isinstance(value, DequeNode):
        return collections.deque((restore(item) for item in value.values), value.maxlen)
    if type(value) in (tuple, list):
        return type(value)(restore(item) for item in value)
    return value
