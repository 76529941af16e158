"""``flops_collection``: the floating-point operations of a compiled program, from XLA's cost analysis.

MindSpore counts the FLOPs of the graph it compiled for a phase (model FLOPs: what the network
computes; hardware FLOPs: what the device executes, recomputation included), for the whole model
and for one device's shard. sporax asks XLA: the model FLOPs are the cost analysis of the lowered
program (before XLA's optimisations and SPMD partitioning), the hardware FLOPs that of the
compiled executable (after them: fusion, rematerialisation, and, for a program over several
devices, one device's partition). XLA programs have static shapes, so ``is_dynamic_shape`` is
always False.
"""
import jax

from sporax.state.program_cache import last_built

_PHASES = {"train": "train", "eval": "eval", "predict": "eval", "jit": "jit"}


def _flops(analysis):
    if isinstance(analysis, (list, tuple)):  # older JAX: one dict per device program
        analysis = analysis[0] if analysis else {}
    value = float((analysis or {}).get("flops", 0.0))
    return int(value) if value.is_integer() else value


def flops_collection(phase="train"):
    """The FLOPs of the program compiled last for ``phase``.

    Args:
        phase (str): ``"train"`` (a Cell in training mode, e.g. the train step ``Model.train``
            compiles), ``"eval"`` or ``"predict"`` (a Cell in inference mode), ``"jit"`` (a
            function compiled by ``ms.jit``). A MindSpore phase name such as ``"train.1"`` counts
            by its prefix. Default: ``"train"``.

    Returns:
        tuple: ``(full_model_flops, full_hardware_flops, shard_model_flops, shard_hardware_flops,
        is_dynamic_shape)``.

    Raises:
        ValueError: an unknown phase.
        RuntimeError: nothing has been compiled for the phase yet (run the network in GRAPH_MODE,
            or through ``ms.jit``, first).

    Example:
        >>> import numpy as np
        >>> import sporax as ms
        >>> @ms.jit
        ... def product(a, b):
        ...     return ms.ops.matmul(a, b)
        >>> _ = product(ms.Tensor(np.ones((4, 3), np.float32)), ms.Tensor(np.ones((3, 2), np.float32)))
        >>> ms.flops_collection("jit")[0]
        48
    """
    if not isinstance(phase, str) or phase.split(".")[0] not in _PHASES:
        raise ValueError(f"For 'flops_collection', the argument 'phase' must be 'train', 'eval', 'predict' or 'jit' "
                         f"(optionally followed by '.<suffix>'), but got {phase!r}.")
    kind = _PHASES[phase.split(".")[0]]
    built = last_built(kind)
    if built is None:
        raise RuntimeError(f"For 'flops_collection', no program has been compiled for phase '{phase}' yet. Run the "
                           "network once in GRAPH_MODE (or call the ms.jit function) before asking its FLOPs.")
    program, shapes = built
    lowered = program.lower(shapes)
    compiled = lowered.compile()
    devices = _device_count(compiled)
    model = _flops(lowered.cost_analysis())
    shard_hardware = _flops(compiled.cost_analysis())
    return model, shard_hardware * devices, model / devices if devices > 1 else model, shard_hardware, False


def _device_count(compiled):
    """The number of devices the compiled program spans (1 for a one-device program)."""
    devices = set()
    for sharding in jax.tree_util.tree_leaves(compiled.output_shardings):
        devices |= set(getattr(sharding, "device_set", ()))
    return max(1, len(devices))
