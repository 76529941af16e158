"""The order of each pipeline stage's micro-batch work under MindSpore's schedulers (1F1B, interleaved 1F1B).

Contract:
    * The work of a micro-batch is cut into pieces (``chunks``): the runs of consecutive Cells of one
      pipeline stage, in the order the network calls them (one per stage without interleaving; with
      ``pipeline_segment``/interleaving a stage holds several). ``stage_of_chunk[k]`` is piece k's
      stage. An event is ``(kind, chunk, micro_batch)``, ``kind`` ``"F"`` (the piece's forward) or
      ``"B"`` (its backward).
    * ``timeline(stage_of_chunk, stages, micro)`` simulates the pipeline clock: at each tick every stage
      does at most one event whose inputs exist (a piece's forward after the forward of the piece
      before it, its backward after its forward and the backward of the piece after it) and returns
      the events as ``(tick, stage, event)`` sorted by tick then stage: one order that every process
      follows (the hand-overs pair up in it), in which each stage does its own work in its 1F1B
      order.
    * A stage's 1F1B order: it keeps at most ``limit`` micro-batch pieces whose backward has not run
      (warm-up forwards up to the limit, then one backward for each new forward, then the cool-down
      backwards); it waits rather than run a forward past the limit. Without interleaving the limit
      of stage s is ``stages - s``: stage s does ``min(stages - s, micro)`` warm-up forwards, then
      alternates one backward and one forward, then does the remaining backwards (MindSpore's and
      Megatron's 1F1B). With v pieces per stage the limit is Megatron's interleaved warm-up
      ``2 (stages - s - 1) + (v - 1) stages + 1``, and a stage takes its ready forwards by
      (group of ``stages`` micro-batches, piece, micro-batch), its backwards by (group, last piece
      first, micro-batch).

Example:
    >>> from sporax.parallel.pipeline_order import stage_orders
    >>> stage_orders((0, 1), 2, 3)[0]
    [('F', 0, 0), ('F', 0, 1), ('B', 0, 0), ('F', 0, 2), ('B', 0, 1), ('B', 0, 2)]
"""


def _limit(stage, stages, chunks_per_stage, work):
    if chunks_per_stage == 1:
        return min(stages - stage, work)
    return min(2 * (stages - stage - 1) + (chunks_per_stage - 1) * stages + 1, work)


def timeline(stage_of_chunk, stages, micro):
    """The events of every stage on one clock: ``[(tick, stage, (kind, chunk, micro_batch)), ...]`` (see the module)."""
    chunks = len(stage_of_chunk)
    own = {stage: [k for k in range(chunks) if stage_of_chunk[k] == stage] for stage in range(stages)}
    per_stage = max(len(pieces) for pieces in own.values())
    limits = {stage: _limit(stage, stages, per_stage, micro * len(own[stage])) for stage in range(stages)}
    done = {}  # event -> tick
    in_flight = dict.fromkeys(range(stages), 0)
    events, tick, total = [], 0, 2 * chunks * micro

    def ready(event):
        kind, k, m = event
        if event in done:
            return False
        if kind == "F":
            return k == 0 or done.get(("F", k - 1, m), tick) < tick
        needed = [("F", k, m)] + ([("B", k + 1, m)] if k + 1 < chunks else [])
        return all(done.get(other, tick) < tick for other in needed)

    while len(done) < total:
        chosen = {}
        for stage in range(stages):
            local = {k: index for index, k in enumerate(own[stage])}
            forwards = sorted((("F", k, m) for k in own[stage] for m in range(micro) if ready(("F", k, m))),
                              key=lambda event: (event[2] // stages, local[event[1]], event[2]))
            backwards = sorted((("B", k, m) for k in own[stage] for m in range(micro) if ready(("B", k, m))),
                               key=lambda event: (event[2] // stages, -local[event[1]], event[2]))
            if backwards and (in_flight[stage] >= limits[stage] or not forwards):
                chosen[stage] = backwards[0]
            elif forwards and in_flight[stage] < limits[stage]:
                chosen[stage] = forwards[0]
        if not chosen:
            # Every stage waits on its limit: let the first stage with a ready forward run past it (a
            # placement 1F1B was not made for, e.g. a stage holding more pieces than the others).
            for stage in range(stages):
                forwards = [("F", k, m) for k in own[stage] for m in range(micro) if ready(("F", k, m))]
                if forwards:
                    chosen[stage] = min(forwards, key=lambda event: (event[2], event[1]))
                    break
        if not chosen:
            raise RuntimeError(f"For 'PipelineCell', no pipeline order exists for the pieces on stages "
                               f"{stage_of_chunk}: report this network to sporax.")
        for stage, event in sorted(chosen.items()):
            done[event] = tick
            in_flight[stage] += 1 if event[0] == "F" else -1
            events.append((tick, stage, event))
        tick += 1
    return events


def stage_orders(stage_of_chunk, stages, micro):
    """``{stage: [(kind, chunk, micro_batch), ...]}``: each stage's own work in its order (see ``timeline``)."""
    orders = {stage: [] for stage in range(stages)}
    for _, stage, event in timeline(tuple(stage_of_chunk), stages, micro):
        orders[stage].append(event)
    return orders
