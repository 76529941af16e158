"""Point-to-point message plans on JAX's multi-process runtime: the engine under ``ops.NeighborExchange``.

Contract:
    * ``exchange_messages(values, sends, receives, group)`` sends ``values[k]`` to group rank
      ``sends[k].peer`` and returns one array per entry of ``receives``, received from group rank
      ``receives[j].peer``. A message is identified by ``(source, destination, tag)``: a send and a
      receive on the two processes match when both name the same triple. Each process only names
      its own messages; the processes need not know each other's plans.
    * The shape and dtype of a received array are the ones its receive entry declares; the sender
      must send exactly that (MindSpore's rule for NeighborExchange too).
    * A message to oneself is a local copy.
    * Differentiable: the cotangent of a received array travels back to its sender (the reverse
      plan), which adds it to the cotangent of the value it sent.
    * Works eagerly and inside traces (GRAPH mode, ``jit``, ``grad``), like the collectives.

Algorithm: every process runs its messages in the order of their ``(source, destination, tag)``
keys. Each message is a 2-member ``ppermute`` program on the pair's devices
(``collectives._eager("permute", ...)``), which both processes must enter. Because every process
follows the restriction of one global order, the first unfinished message of the whole job always
has both of its processes waiting on it, so the plan cannot deadlock. Inside a trace the whole plan
runs as one host callback, so that XLA cannot reorder the messages of one exchange differently on
different processes.

Example:
    >>> import jax.numpy as jnp
    >>> from sporax.parallel.point_to_point import Receive, Send, exchange_messages
    >>> exchange_messages((jnp.ones(2),), (Send(0, 0),), (Receive(0, 0, (2,), jnp.float32),),
    ...                   "hccl_world_group")[0].tolist()  # a world of one: a message to oneself
    [1.0, 1.0]
"""
import collections
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import io_callback

from sporax.core import jax_private
from sporax.parallel import collectives, communication

Send = collections.namedtuple("Send", ["peer", "tag"])
Receive = collections.namedtuple("Receive", ["peer", "tag", "shape", "dtype"])


def _run_plan_now(values, sends, receives, members):
    """Run the plan on concrete ``values``: the received arrays, in ``receives`` order."""
    me = members.index(communication._World.rank)
    messages = [((me, send.peer, send.tag), "send", index) for index, send in enumerate(sends)]
    messages += [((receive.peer, me, receive.tag), "receive", index) for index, receive in enumerate(receives)]
    messages.sort(key=lambda message: (message[0], message[1] != "send"))
    received = [None] * len(receives)
    to_myself = {}
    for (source, target, tag), kind, index in messages:
        if source == target:  # a local copy: the send comes first in the order above
            if kind == "send":
                to_myself[tag] = values[index]
            elif tag not in to_myself:
                raise ValueError(f"A receive from this process itself (tag {tag}) has no matching send.")
            else:
                received[index] = jnp.asarray(to_myself.pop(tag), receives[index].dtype)
            continue
        pair = (members[source], members[target])
        if kind == "send" and values[index].size == 0:
            continue  # an empty message carries nothing: both sides skip it (the receiver makes the empty array)
        if kind == "receive" and 0 in receives[index].shape:
            received[index] = jnp.zeros(receives[index].shape, receives[index].dtype)
            continue
        if kind == "send":
            # Wait for each message: two programs of one pair in flight at once confuse gloo's pair channel.
            collectives._eager("permute", values[index], pair, ((0, 1),)).block_until_ready()
        else:
            spec = receives[index]
            buffer = jnp.zeros(spec.shape, spec.dtype)
            received[index] = collectives._eager("permute", buffer, pair, ((0, 1),)).block_until_ready()
    if to_myself:
        raise ValueError(f"A message sent to this process itself (tags {sorted(to_myself)}) has no matching "
                         f"receive.")
    return tuple(received)


def _tracing(values):
    """Whether the plan is being staged into a program (a receive-only plan has no traced input to tell)."""
    if any(isinstance(value, jax.core.Tracer) for value in values):
        return True
    return jax_private.is_transforming()


def _run_plan(values, sends, receives, members):
    if _tracing(values):
        out_specs = tuple(jax.ShapeDtypeStruct(receive.shape, receive.dtype) for receive in receives)

        def on_host(*concrete):
            return tuple(np.asarray(array) for array in _run_plan_now(concrete, sends, receives, members))
        return tuple(io_callback(on_host, out_specs, *values, ordered=False))
    return _run_plan_now(values, sends, receives, members)


@functools.lru_cache(maxsize=None)
def _differentiable(sends, receives, members, sent_specs):
    @jax.custom_vjp
    def plan(*values):
        return _run_plan(values, sends, receives, members)

    def forward(*values):
        return plan(*values), None

    def backward(_, cotangents):
        # The reverse plan: each receive becomes a send of its cotangent back to its sender.
        reverse_sends = tuple(Send(receive.peer, receive.tag) for receive in receives)
        reverse_receives = tuple(Receive(send.peer, send.tag, shape, dtype)
                                 for send, (shape, dtype) in zip(sends, sent_specs))
        return _differentiable(reverse_sends, reverse_receives, members, tuple(
            (receive.shape, receive.dtype) for receive in receives))(*cotangents)

    plan.defvjp(forward, backward)
    return plan


def exchange_messages(values, sends, receives, group, function="NeighborExchange"):
    """Send ``values[k]`` as ``sends[k]`` and return the arrays of ``receives`` (see the module contract)."""
    members = collectives.members_of(function, group)
    for kind, entries in (("send", sends), ("receive", receives)):
        for entry in entries:
            if not 0 <= entry.peer < len(members):
                raise ValueError(f"For '{function}', every {kind} rank must be in [0, {len(members)}) (the size of "
                                 f"group '{group}'), but got {entry.peer}.")
    sends = tuple(Send(int(send.peer), send.tag) for send in sends)
    receives = tuple(Receive(int(r.peer), r.tag, tuple(int(d) for d in r.shape), jnp.dtype(r.dtype))
                     for r in receives)
    values = tuple(values)
    sent_specs = tuple((tuple(value.shape), jnp.dtype(value.dtype)) for value in values)
    return _differentiable(sends, receives, tuple(members), sent_specs)(*values)
