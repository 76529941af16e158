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
has both of its processes waiting on it, so the plan cannot deadlock. Inside a sporax trace, when
this process's messages reach every process of the job, the processes tell each other their messages
while tracing (JAX's coordination service) and every process's program holds the same ``ppermute``s,
chained in one order by data dependencies (``_run_plan_in_world``; XLA's CPU pipeline drops
optimization barriers, so a barrier alone does not order them); a plan that reaches fewer processes
may be run by some processes only, and its program runs eagerly (``PartialPlan``). Only in a trace
sporax does not own does the plan run as one host callback.

Example:
    >>> import jax.numpy as jnp
    >>> from sporax.parallel.point_to_point import Receive, Send, exchange_messages
    >>> exchange_messages((jnp.ones(2),), (Send(0, 0),), (Receive(0, 0, (2,), jnp.float32),),
    ...                   "hccl_world_group")[0].tolist()  # a world of one: a message to oneself
    [1.0, 1.0]
"""
import ast
import collections
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.experimental import io_callback

from sporax.autodiff import gradient_sinks
from sporax.core import jax_private
from sporax.parallel import collectives, communication
from sporax.state import world
from sporax.state.fallback import ExplainedFallback
from sporax.state.scope import is_tracing

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


def _message_key(message):
    source, target, tag, _, _ = message
    return source, target, repr(tag)


def _permutations(messages):
    """Group the messages into ``ppermute``s: same shape and dtype, each process at most once a source and
    once a target (greedily, in the global order, so that every process groups them alike)."""
    groups = []
    for message in messages:
        source, target, _, shape, dtype = message
        for group in groups:
            first = group[0]
            if (first[3], first[4]) == (shape, dtype) and all(m[0] != source and m[1] != target for m in group):
                group.append(message)
                break
        else:
            groups.append([message])
    return groups


def _run_plan_in_world(values, sends, receives, members, previous=None):
    """The plan inside the per-rank view of a world program: the processes tell each other their messages
    while tracing, then every process's program holds the same ``ppermute``s (XLA collective-permutes)."""
    me = members.index(communication._World.rank)
    here = members[me]
    mine = [(here, members[send.peer], send.tag, tuple(int(d) for d in value.shape), str(value.dtype))
            for send, value in zip(sends, values)]
    texts = world.exchange("message_plan", repr(sorted(mine, key=_message_key)),
                           "agreeing on the point-to-point messages of a compiled program")
    everyone = sorted({message for text in texts for message in ast.literal_eval(text)}, key=_message_key)
    outgoing_values = {(members[send.peer], repr(send.tag)): value for send, value in zip(sends, values)}
    received = [None] * len(receives)
    for index, receive in enumerate(receives):
        if receive.peer == me:  # a message to oneself is a local copy
            value = outgoing_values.get((here, repr(receive.tag)))
            if value is None:
                raise ValueError(f"A receive from this process itself (tag {receive.tag}) has no matching send.")
            received[index] = jnp.asarray(value, receive.dtype)
    wanted = {(members[receive.peer], repr(receive.tag)): index for index, receive in enumerate(receives)
              if receive.peer != me}
    crossing = [message for message in everyone if message[0] != message[1] and 0 not in message[3]]
    # Chained after the previous collective of the program (sporax.state.world.previous_collective).
    markers = [jnp.zeros((1,), jnp.float32) if previous is None else previous.astype(jnp.float32)]
    for group in _permutations(crossing):
        shape, dtype = group[0][3], jnp.dtype(group[0][4])
        outgoing = next((outgoing_values[(target, repr(tag))] for source, target, tag, _, _ in group
                         if source == here), None)
        if outgoing is None:
            # Nothing of this process's goes out in this ppermute: its operand is a placeholder. Made from
            # the previous marker (times zero; XLA does not fold that for floats), so that the placeholders of
            # two receives are not one common subexpression, which would merge their ppermutes.
            outgoing = jnp.broadcast_to((markers[-1].sum() * 0).astype(dtype), shape)
        else:
            # A data dependency on the previous marker (times zero, not folded for floats): XLA's CPU
            # pipeline drops optimization barriers, so the barrier below alone does not order a send.
            outgoing = jnp.asarray(outgoing, dtype) + (markers[-1].sum() * 0).astype(dtype)
        # The processes' programs differ around the sends (a value here, zeros there), so XLA could
        # schedule independent ppermutes in different orders on different processes and the pairs
        # would wait for each other: chain each one after the previous one.
        outgoing, ordered_after = lax.optimization_barrier((outgoing, markers[-1]))
        markers.append(ordered_after)  # used, so that the barrier's dependency is not pruned
        arrived = lax.ppermute(outgoing, world.AXIS, perm=[(message[0], message[1]) for message in group])
        markers.append(arrived.reshape(-1)[:1].astype(jnp.float32))
        for source, target, tag, _, _ in group:
            if target == here:
                index = wanted.pop((source, repr(tag)), None)
                if index is None:
                    raise ValueError(
                        f"In a compiled program, process {source} sends a message (tag {tag}) where process "
                        f"{here} does not receive it: inside one program across processes each receive must "
                        f"come at the same point as its send (post Send/Receive pairs in the same order on both "
                        f"processes), or run the exchange in PyNative mode, where tags pair in any order.")
                received[index] = arrived.astype(receives[index].dtype)
    for index, receive in enumerate(receives):
        if received[index] is None:
            if 0 not in receive.shape:
                raise ValueError(f"Process {here} waits for a message from group rank {receive.peer} (tag "
                                 f"{receive.tag}) that no process sends.")
            received[index] = jnp.zeros(receive.shape, receive.dtype)
    # The marker depends on every ppermute, so that a rank that only sends keeps them in its program.
    return tuple(received) + (jnp.concatenate(markers).sum(),)


def _run_plan(values, sends, receives, members, ordered, everyone):
    """The received arrays and, last, a marker scalar (see ``_run_plan_in_world``).

    ``ordered``: the last value is not sent but orders the plan after the previous collective.
    ``everyone``: every process of the job runs this plan (a pipeline's hand-over), whatever its
    messages reach, so it compiles into the program across processes.
    """
    previous = None
    if ordered:
        *values, previous = values
    if world.in_world_trace():
        if not everyone and len(_reach(sends, receives, members)) < world.world_size():
            _request_program(sends, receives, members)  # raises: such plans run eagerly (see there)
        return _run_plan_in_world(values, sends, receives, members, previous)
    return _run_plan_outside_world(values, sends, receives, members, everyone) + (jnp.zeros((), jnp.float32),)


class PartialPlan(ExplainedFallback):
    """A compiled plan whose messages do not reach every process: its program runs eagerly."""


def _reach(sends, receives, members):
    """The world ranks this process's messages (and itself) reach."""
    me = members.index(communication._World.rank)
    return {members[me]} | {members[entry.peer] for entry in sends + receives}


def _request_program(sends, receives, members):
    """Inside a sporax trace: ask for the world program when this process's messages reach every process;
    else the program runs eagerly (each message its own pair program), as its peers' programs will too."""
    reached = _reach(sends, receives, members)
    size = world.world_size()
    if size == 1:
        return  # messages to oneself: local copies
    # A plan that reaches every process is taken as run by every process (the program is one across
    # processes). A plan that reaches fewer may be run by some processes only (`if rank == 0: send`),
    # and the others would never join the program: it runs eagerly, each message between its pair.
    if len(reached) == size:
        world.request_world_program()
    elif is_tracing():
        raise PartialPlan(
            f"The point-to-point messages of process {communication._World.rank} reach processes "
            f"{sorted(reached)} of {size}; only a plan whose messages reach every process of the job compiles "
            f"into one program across processes (the others may not run it), so each message runs as its own "
            f"two-process program.")


def _run_plan_outside_world(values, sends, receives, members, everyone):
    if _tracing(values):
        if everyone:
            world.request_world_program()
        else:
            _request_program(sends, receives, members)
        out_specs = tuple(jax.ShapeDtypeStruct(receive.shape, receive.dtype) for receive in receives)

        def on_host(*concrete):
            return tuple(np.asarray(array) for array in _run_plan_now(concrete, sends, receives, members))
        return tuple(io_callback(on_host, out_specs, *values, ordered=False))
    return _run_plan_now(values, sends, receives, members)


@functools.lru_cache(maxsize=None)
def _differentiable(sends, receives, members, sent_specs, ordered=False, everyone=False):
    @jax.custom_vjp
    def plan(*values):
        return _run_plan(values, sends, receives, members, ordered, everyone)

    def forward(*values):
        result = plan(*values)
        return result, result[-1]  # the marker: the reverse plan runs after this plan

    def backward(marker, cotangents):
        *cotangents, marker_cotangent = cotangents  # the marker carries no gradient, only an order
        # The reverse plan: each receive becomes a send of its cotangent back to its sender.
        reverse_sends = tuple(Send(receive.peer, receive.tag) for receive in receives)
        reverse_receives = tuple(Receive(send.peer, send.tag, shape, dtype)
                                 for send, (shape, dtype) in zip(sends, sent_specs))
        # Every process must run the reverse plans in one order, but a process's reverse plans need
        # not depend on each other or on the forward ones (a sender's cotangents are zeros): the
        # reverse plan runs after its forward plan (the residual marker) and after whatever gave the
        # marker's cotangent (the reverse plan of a later plan that was ordered after this one).
        order = (jnp.reshape(marker, (-1,))[:1].astype(jnp.float32)
                 + jnp.reshape(marker_cotangent, (-1,))[:1].astype(jnp.float32))
        reverse = _ordered_plan(reverse_sends, reverse_receives, members, tuple(
            (receive.shape, receive.dtype) for receive in receives), tuple(cotangents), order, everyone)
        world.keep_alive(reverse[-1:])
        if not ordered:
            return reverse[:-1]
        # The input that ordered this plan gets, as its zero cotangent, a value made after the reverse
        # plan: the reverse plan of the plan before this one runs after this reverse plan.
        return reverse[:-1] + (jnp.zeros((1,), jnp.float32) + reverse[-1] * 0,)

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
    # Under a gradient: the plan's backward runs (the received arrays' cotangents go back) whatever reaches the
    # output, in the order of the function's other exchanges (sporax.autodiff.gradient_sinks).
    *received, marker = _ordered_plan(sends, receives, tuple(members), sent_specs, values, gradient_sinks.anchor())
    world.keep_alive((marker,))
    gradient_sinks.attach(marker)
    return tuple(received)


def _ordered_plan(sends, receives, members, sent_specs, values, anchor=None, everyone=False):
    """Run the plan, after the previous collective of a world program (a receive-only plan has no input to
    carry the order: the previous collective's marker is passed along).

    ``anchor``: a ``(1,)`` float32 value that is differentiated (zero, made from a trained weight), so
    that automatic differentiation calls the plan's backward, which sends the received arrays'
    cotangents back, even where the plan has nothing of its own to differentiate (a receive only).
    """
    previous = world.previous_collective()
    if anchor is not None:
        previous = anchor if previous is None else previous + anchor
    if previous is None:
        return _differentiable(sends, receives, members, sent_specs, False, everyone)(*values)
    return _differentiable(sends, receives, members, sent_specs, True, everyone)(*values, previous)


def hand_over(value, source, target, tag, anchor=None, group=communication.GlobalComm.WORLD_COMM_GROUP):
    """Pass ``value`` from world rank ``source`` to world rank ``target`` (a pipeline stage's activation).

    Every process of the job calls it at the same point (a process that is neither ``source`` nor
    ``target`` takes part in the program without a message). Returns ``(received, marker)``:
    ``received`` is the array ``source`` sent on ``target``, None elsewhere; ``marker`` is a scalar
    to keep on the path of what is differentiated (times zero), so that the sender's backward,
    which receives the cotangent from ``target``, runs too. ``anchor``: see ``_ordered_plan``.
    """
    members = tuple(collectives.members_of("PipelineCell", group))
    here = communication._World.rank
    shape, dtype = tuple(int(d) for d in value.shape), jnp.dtype(value.dtype)
    sends, receives, values = (), (), ()
    if here == source:
        sends, values = (Send(members.index(target), tag),), (value,)
    elif here == target:
        receives = (Receive(members.index(source), tag, shape, dtype),)
    sent_specs = tuple((shape, dtype) for _ in values)
    *received, marker = _ordered_plan(sends, receives, members, sent_specs, values, anchor, everyone=True)
    world.keep_alive((marker,))
    return (received[0] if received else None), marker


def send(value, peer, tag, group):
    """``ops.Send``: send ``value`` to group rank ``peer`` with ``tag``; returns ``value``.

    As MindSpore's Send, its gradient is the one the receiver sends back (the cotangent of its
    ``Receive``): the value returned carries it, ignoring its own cotangent; under ``grad``/
    ``value_and_grad`` the send's backward runs whether or not that value reaches the output
    (``sporax.autodiff.gradient_sinks``).
    """
    members = collectives.members_of("Send", group)
    if not 0 <= peer < len(members):
        raise ValueError(f"For 'Send', 'dest_rank' must be in [0, {len(members)}) (the size of group '{group}'), "
                         f"but got {peer}.")
    sent_specs = ((tuple(value.shape), jnp.dtype(value.dtype)),)
    # Under a gradient, the anchor makes the plan's backward (receiving the gradient from the peer, which
    # sends it whatever) run even where the sent value does not depend on what is differentiated.
    (marker,) = _ordered_plan((Send(peer, tag),), (), tuple(members), sent_specs, (value,),
                              gradient_sinks.anchor())
    world.keep_alive((marker,))  # a compiled program keeps the send although nothing here uses it
    gradient_sinks.attach(marker)  # the backward runs although the value returned may not reach the output
    if not jnp.issubdtype(value.dtype, jnp.inexact):
        return value
    # The value, whose only gradient goes through the plan (the marker's backward receives it).
    return lax.stop_gradient(value) + (jnp.asarray(marker).sum() * 0).astype(value.dtype)


def _trained_anchor():
    """A zero ``(1,)`` float32 value made from every floating Parameter the traces now running bind (None
    outside a trace): a received array's plan takes it as its ``anchor``, so that automatic
    differentiation with respect to those Parameters runs the plan's backward, which sends the
    received array's cotangent back to its sender."""
    from sporax.state.scope import active_scopes

    pieces = [state._array.reshape(-1)[:1].astype(jnp.float32) for scope in active_scopes()
              for state in scope.states if isinstance(getattr(state, "_array", None), jax.core.Tracer)
              and jnp.issubdtype(state._array.dtype, jnp.inexact) and state._array.size]
    if not pieces:
        return None
    return jnp.concatenate(pieces).sum(keepdims=True) * 0


def receive(peer, tag, shape, dtype, group):
    """``ops.Receive``: the array of ``shape`` and ``dtype`` that group rank ``peer`` sends with ``tag``.

    As MindSpore's Receive, its gradient (the cotangent of the received array) is sent back to the
    sender, where it is the gradient of ``Send``'s input.
    """
    members = collectives.members_of("Receive", group)
    if not 0 <= peer < len(members):
        raise ValueError(f"For 'Receive', 'src_rank' must be in [0, {len(members)}) (the size of group '{group}'), "
                         f"but got {peer}.")
    spec = Receive(int(peer), tag, tuple(int(d) for d in shape), jnp.dtype(dtype))
    anchors = [anchor for anchor in (_trained_anchor(), gradient_sinks.anchor()) if anchor is not None]
    received, marker = _ordered_plan((), (spec,), tuple(members), (), (), sum(anchors) if anchors else None)
    world.keep_alive((marker,))
    gradient_sinks.attach(marker)  # the gradient goes back although the received value may not reach the output
    return received
