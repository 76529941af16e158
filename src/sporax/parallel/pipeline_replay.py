"""Pipeline stages in their scheduler's order: each micro-batch's backward inside the step (1F1B and interleaved 1F1B).

Contract:
    * Used by ``pipeline_stages.run_micro_batches`` for the schedulers ``pipeline_schedulers.schedule``
      runs in their own order. ``run(network, micro_batches, place, stage_of, weights)`` returns the
      sum of the micro-batch losses (on the last stage's processes; zeros of its shape elsewhere), as
      GPipe's path does, with the same losses and gradients.
    * The sum of the losses is linear in its cotangent, so its gradient is found while it is computed:
      ``run`` is a ``jax.custom_vjp`` whose forward does, in the order of ``pipeline_order.timeline``,
      every piece's forward (``jax.vjp`` of the piece) and, with cotangent 1 on each micro-batch's
      loss, every piece's backward, accumulating the gradients of the weights and of the floating
      inputs; its backward multiplies them by the cotangent of the loss, which the last stage's
      processes send to the others (whose output is zeros). Without a gradient only the forwards run.
    * A process runs the pieces of its own stage; for the others it only takes part in their hand-overs
      (a collective-permute every process runs, in the one order of the timeline, each made to wait on
      the previous event so that every process's program keeps that order). A stage thus keeps at most
      its 1F1B limit of micro-batches' activations (``pipeline_order``), where GPipe keeps them all.
    * ``recorded()``: the events of the last run as ``(stage, "F"|"B", micro_batch)`` for each piece's
      forward and backward, in the timeline's order (each process records every stage's events).
    * Limits: a piece is found by replaying the network with the other pieces' inputs replaced, so a
      Tensor may pass from one piece to another only as the argument of a staged Cell
      (``NotImplementedError`` naming the fix, ``pipeline_scheduler='gpipe'``, otherwise). A network
      that assigns Parameters in the step (BatchNorm's moving statistics) or returns a loss that is
      not a scalar raises ``OrderUnavailable`` before any work, and ``pipeline_stages`` runs it in
      GPipe's order with a one-time warning (MindSpore's default scheduler is 1f1b). The weights are
      bound through ``sporax.state.binding`` (the lift's binding), never set here.

Example:
    >>> from sporax.parallel import pipeline_replay
    >>> pipeline_replay.recorded()  # no pipeline has run in this process
    []
"""
import jax
import jax.numpy as jnp

from sporax.core.tensor import Tensor
from sporax.parallel import collectives, pipeline_order, pipeline_stages
from sporax.state.binding import Bound

_RECORDED = []


def recorded():
    """The ``(stage, "F"|"B", micro_batch)`` events of the last scheduled run in this process (see the module)."""
    return list(_RECORDED)


class PieceRun(pipeline_stages.Run):
    """One replay of the network for one micro-batch: finds the pieces and the Tensors passed between them, or
    computes piece ``piece`` alone, its inputs from other pieces given as ``received``."""

    def __init__(self, place, stage_of, piece=None, received=()):
        super().__init__(place, stage_of, None)
        self.piece, self.received = piece, list(received)
        self.chunk = -1  # the piece running now
        self.stages = []  # the stage of each piece
        self.edges = []  # (source piece, target piece, shape, dtype) of each Tensor passed between pieces
        self.sent = []  # the values piece ``piece`` passes on, in edge order

    def enter(self, stage):
        if stage != self.current:
            self.chunk += 1
            self.stages.append(stage)
        super().enter(stage)

    def mark(self, output, stage):
        for tensor in pipeline_stages._tensors(output):
            self.owner[id(tensor)] = ((stage, self.chunk), tensor)

    def stage_holding(self, tensor):
        known = self.owner.get(id(tensor))
        if known is not None:
            return known[0][0]
        return None if id(tensor) in self.inputs else self.current

    def bring(self, tensor, stage):
        known = self.owner.get(id(tensor))
        if known is None and id(tensor) in self.inputs:
            return tensor  # the network's inputs are on every process
        source = known[0][1] if known is not None else self.chunk
        target = self.chunk + (stage != self.current)
        if source == target:
            return tensor
        self.edges.append((source, target, tuple(tensor.shape), tensor._value.dtype))
        if target == self.piece:
            value = Tensor._wrap(self.received.pop(0))
        else:
            if source == self.piece:
                self.sent.append(tensor._value)
            value = Tensor._wrap(jnp.zeros(tensor.shape, tensor._value.dtype))
        self.owner[id(value)] = ((stage, target), value)
        return value


def _replay(network, micro, place, stage_of, piece=None, received=()):
    run = PieceRun(place, stage_of, piece, received)
    previous, pipeline_stages._active.run = pipeline_stages._active.run, run
    try:
        run.start_micro_batch(micro)
        output = network(*micro)
    finally:
        pipeline_stages._active.run = previous
    return run, output


class OrderUnavailable(Exception):
    """The network cannot run in its scheduler's own order (the message says why); GPipe's order runs it."""


def _assigned(binding, bound):
    """Whether the replay under ``binding`` rebound a Parameter (an ``ops.assign``, BatchNorm's statistics)."""
    return any(new is not old for new, old in zip(binding.new_values, bound))


def _refuse(what):
    raise NotImplementedError(f"For 'PipelineCell' with its pipeline_scheduler's own order, {what}. Set "
                              f"pipeline_config={{'pipeline_scheduler': 'gpipe'}} to run this network.")


def _floating(value):
    return isinstance(value, Tensor) and jnp.issubdtype(value._value.dtype, jnp.inexact)


def run(network, micro_batches, place, stage_of, weights, trained):
    """The sum of the micro-batch losses of ``network`` on this process (see the module)."""
    micro_batches = [tuple(micro) for micro in micro_batches]
    parameters = list(network.get_parameters())
    held = [param._array for param in parameters]
    with Bound(parameters, held, "PipelineCell") as binding:
        discovery, output = _replay(network, micro_batches[0], place, stage_of)
    if not isinstance(output, Tensor):
        raise TypeError(f"For 'PipelineCell' across pipeline stages, the network must return one Tensor (the loss), "
                        f"but got {type(output).__name__}.")
    if output.shape != ():
        raise OrderUnavailable(f"the network returns a loss of shape {output.shape}, not a scalar")
    if _assigned(binding, held):
        raise OrderUnavailable("the network assigns a Parameter in the step (e.g. BatchNorm's moving statistics)")
    stages, edges, last = tuple(discovery.stages), tuple(discovery.edges), len(discovery.stages) - 1
    loss_shape, loss_dtype = output.shape, output._value.dtype
    order = pipeline_order.timeline(stages, place.stages, len(micro_batches))

    def piece_function(k, micro):
        positions = [index for index, value in enumerate(micro) if _floating(value)]

        def piece(weight_values, floats, received):
            given = {id(param): value for param, value in zip(trained, weight_values)}
            bound = [given.get(id(param), array) for param, array in zip(parameters, held)]
            inputs = list(micro)
            for index, value in zip(positions, floats):
                inputs[index] = Tensor._wrap(value)
            with Bound(parameters, bound, "PipelineCell") as binding:
                replay, output = _replay(network, tuple(inputs), place, stage_of, k, received)
            if replay.edges != list(edges):
                _refuse("the network passes different Tensors between its stages from one micro-batch to another")
            if _assigned(binding, bound):
                _refuse("the network assigns a Parameter in the step (e.g. BatchNorm's moving statistics)")
            loss = output._value if k == last else jnp.zeros((), jnp.float32)
            return tuple(replay.sent), loss

        return piece, [micro[index]._value for index in positions]

    def transfer(value, edge, backward, clock):
        source, target = stages[edge[0]], stages[edge[1]]
        if backward:
            source, target = target, source
        value = _after(value, clock)
        if source == target:
            return value
        size = place.stages * place.per_stage
        perm = tuple((source * place.per_stage + replica, target * place.per_stage + replica)
                     for replica in range(place.per_stage))
        return collectives._collective("permute", value, tuple(range(size)), perm)

    def schedule(weight_values, floats_by_micro, with_backward):
        _RECORDED.clear()
        tapes, forward_values, backward_values = {}, {}, {}
        gradients = [jnp.zeros_like(value) for value in weight_values]
        input_gradients = [[jnp.zeros_like(value) for value in floats] for floats in floats_by_micro]
        total, clock = jnp.zeros(loss_shape, loss_dtype), None
        for _, stage, (kind, k, m) in order:
            if kind == "B" and not with_backward:
                continue
            _RECORDED.append((stage, kind, m))
            incoming = [j for j, edge in enumerate(edges) if edge[1] == k]
            outgoing = [j for j, edge in enumerate(edges) if edge[0] == k]
            mine = stage == place.stage
            if kind == "F":
                received = tuple(_after(forward_values.pop((j, m)), clock) for j in incoming)
                if mine:
                    piece, _ = piece_function(k, micro_batches[m])
                    floats = tuple(_after(value, clock) for value in floats_by_micro[m])
                    if with_backward:
                        (sent, loss), tapes[(k, m)] = jax.vjp(piece, tuple(weight_values), floats, received)
                    else:
                        sent, loss = piece(tuple(weight_values), floats, received)
                    if k == last:
                        total = total + loss.astype(loss_dtype)
                    clock = _marker(sent + (loss,), clock)
                else:
                    sent = tuple(jnp.zeros(edges[j][2], edges[j][3]) for j in outgoing)
                for j, value in zip(outgoing, sent):
                    forward_values[(j, m)] = transfer(value, edges[j], False, clock)
                    clock = _marker((forward_values[(j, m)],), clock)
            else:
                cotangents = tuple(_after(backward_values.pop((j, m)), clock) for j in outgoing)
                if mine:
                    seed = _after(jnp.ones((), loss_dtype), clock) if k == last else jnp.zeros((), jnp.float32)
                    weight_grads, float_grads, received_grads = tapes.pop((k, m))((cotangents, seed))
                    gradients = [total_grad + grad for total_grad, grad in zip(gradients, weight_grads)]
                    input_gradients[m] = [total_grad + grad for total_grad, grad in zip(input_gradients[m],
                                                                                        float_grads)]
                    # Every weight's gradient: one left out could wait for the end, keeping its activations.
                    clock = _marker(tuple(gradients) + tuple(received_grads) + tuple(float_grads), clock)
                else:
                    received_grads = tuple(jnp.zeros(edges[j][2], edges[j][3]) for j in incoming)
                for j, value in zip(incoming, received_grads):
                    backward_values[(j, m)] = transfer(value, edges[j], True, clock)
                    clock = _marker((backward_values[(j, m)],), clock)
        # Every hand-over reaches the output through the clock, so that no process's program drops one its
        # peers wait for (a list of every hand-over's marker would keep each whole received array to the end:
        # XLA fuses the slices into the final sum).
        tie = (clock.sum() if clock is not None else jnp.zeros((), jnp.float32)) * 0
        total = total if stages[last] == place.stage else jnp.zeros(loss_shape, loss_dtype)
        return total + tie.astype(loss_dtype), gradients, input_gradients

    @jax.custom_vjp
    def pipelined(weight_values, floats_by_micro):
        return schedule(weight_values, floats_by_micro, False)[0]

    def forward(weight_values, floats_by_micro):
        total, gradients, input_gradients = schedule(weight_values, floats_by_micro, True)
        return total, (gradients, input_gradients)

    def backward(residuals, cotangent):
        gradients, input_gradients = residuals
        cotangent = _from_last_stage(cotangent, place, stages[last])
        scale = lambda value: value * cotangent.astype(value.dtype)  # noqa: E731
        return (tuple(scale(value) for value in gradients),
                [[scale(value) for value in floats] for floats in input_gradients])

    pipelined.defvjp(forward, backward)
    floats_by_micro = [piece_function(0, micro)[1] for micro in micro_batches]
    return Tensor._wrap(pipelined(tuple(weights), floats_by_micro))


def _from_last_stage(cotangent, place, last):
    """The cotangent of the loss on the processes of stage ``last`` (each sends its own to the processes of the other
    stages with its data-parallel index): elsewhere the output is zeros, whose cotangent may differ (``loss ** 2``)."""
    size = place.stages * place.per_stage
    received = cotangent
    for stage in range(place.stages):
        if stage == last:
            continue
        perm = tuple((last * place.per_stage + replica, stage * place.per_stage + replica)
                     for replica in range(place.per_stage))
        value = collectives._collective("permute", cotangent, tuple(range(size)), perm)
        received = value if place.stage == stage else received
    return received


def _after(value, clock):
    """``value``, computed only once ``clock`` (the previous event's marker) exists: keeps the timeline's order.

    By arithmetic (``value + 0 * clock``), not an optimization barrier: XLA drops the barriers before it
    merges common subexpressions, and two hand-overs of zeros of one shape would become one on the
    process that sends zeros only.
    """
    if clock is None:
        return value
    if jnp.issubdtype(value.dtype, jnp.inexact):
        return value + (clock.sum() * 0).astype(value.dtype)
    value, _ = jax.lax.optimization_barrier((value, clock))
    return value


def _marker(values, clock):
    """A ``(1,)`` value that exists once ``clock`` and every one of ``values`` do: the timeline's next clock."""
    pieces = [jnp.asarray(value).reshape(-1)[:1].astype(jnp.float32) for value in values if jnp.size(value)]
    return sum(pieces, jnp.zeros((1,), jnp.float32) if clock is None else clock)
