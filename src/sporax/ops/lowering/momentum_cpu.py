"""MindSpore's ApplyMomentum on XLA:CPU as one FFI call per parameter, updating in place.

Contract: ``momentum(weight, moment, learning_rate, gradient, momentum_factor, use_nesterov)``
returns ``(weight, moment)`` bit-equal to ``sporax.ops.functional.update.momentum_rule`` compiled
by XLA:CPU (``moment * momentum + gradient``, then ``weight - learning_rate * moment``, each
multiply-add rounded once as XLA:CPU's fused multiply-add rounds it). ``applies(...)`` says
whether the call takes these operands: they are being traced into a program (eager, the rule runs op
by op, each product rounded apart, and keeps doing so), the CPU form of the ``optimizer`` family is allowed
(``switch.fast_lowering``), sporax's kernel library is there (``onednn.library()``), and weight,
moment and gradient are float32 arrays of one shape with float32 one-element rates, and the
process has one device (XLA's SPMD partitioner knows no sharding of an FFI call and would gather a
sharded parameter and its moment whole onto every device, undoing an optimizer-state shard). Not
differentiable (an optimizer's update is not differentiated); ``jax.vmap`` runs it per element
of the batch.

Why: XLA:CPU generates and compiles machine code for every distinct fused computation of a
program, and an elementwise update is a distinct computation for every parameter shape. In the
CIFAR ResNet-18's train step the Momentum update made 40 of the program's 91 kernels and ~0.6 s
of its ~2 s compile CPU (``benchmarks/cpu_speed_notes.md``, eleventh pass); an FFI handler is
compiled once per machine. The moment is updated where it lies (operand aliased to the result);
the weight is written to a fresh buffer: XLA copies an operand updated in place while other ops
still read it, and the forward and backward passes read the weights (one copy of each conv weight
more a step with the weight aliased too; with neither aliased, a copy of every result).
"""
import os

import jax
import jax.numpy as jnp
import numpy as np
from jax.core import Tracer

from sporax.ops.lowering import onednn
from sporax.ops.lowering.switch import fast_lowering

_TARGET = "sporax_momentum_update"


def takes(arrays, rates):
    """Whether an optimizer update's FFI handler takes these operands: ``arrays`` (the weight first) traced
    float32 arrays of one shape, ``rates`` float32 one-element arrays, on the CPU form of the ``optimizer``
    family, one device and the kernel library loaded (see the module's contract)."""
    if not isinstance(arrays[0], Tracer) or not all(isinstance(value, jax.Array) for value in arrays + rates):
        return False
    return (all(value.dtype == jnp.float32 for value in arrays + rates)
            and all(value.shape == arrays[0].shape for value in arrays) and arrays[0].size > 0
            and all(value.size == 1 for value in rates)
            and fast_lowering("optimizer") and jax.device_count() == 1 and onednn.library() is not None)


def applies(weight, moment, learning_rate, gradient, momentum_factor):
    """Whether ``momentum`` takes these operands (see the module's contract)."""
    return takes((weight, moment, gradient), (learning_rate, momentum_factor))


def split_updates():
    """Whether an update of at least 2**18 elements may split over the calling thread's OpenMP team of two
    (``SPORAX_SPLIT_UPDATES`` is 1/on/true/yes; read at trace time; opt-in until measured on a quiet machine:
    ``benchmarks/cpu_speed_notes.md``, fourteenth pass). Values are the same either way (each element is
    computed alone)."""
    return os.environ.get("SPORAX_SPLIT_UPDATES", "").strip().lower() in ("1", "on", "true", "yes")


def momentum(weight, moment, learning_rate, gradient, momentum_factor, use_nesterov=False):
    """``(weight, moment)`` after one ApplyMomentum step, through the FFI handler."""
    result = jax.ShapeDtypeStruct(weight.shape, jnp.float32)
    call = jax.ffi.ffi_call(_TARGET, (result, result), input_output_aliases={1: 1},
                            vmap_method="sequential")
    return call(weight, moment, learning_rate, gradient, momentum_factor, nesterov=np.int64(bool(use_nesterov)),
                threads=np.int64(2 if split_updates() else 1))
