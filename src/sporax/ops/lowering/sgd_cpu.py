"""MindSpore's ``nn.SGD`` step on XLA:CPU as one FFI call per parameter, updating its state in place.

Contract: ``sgd(weight, accum, stat, gradient, learning_rate, momentum, dampening, nesterov)`` returns
``(weight, accum, stat)`` bit-equal to ``nn.SGD``'s XLA form compiled by XLA:CPU: with ``momentum > 0``
(read when the step runs: ``nn.SGD``'s momentum is a Parameter) ``accum`` becomes the gradient where
``stat > 0`` (the first step), else ``momentum * accum + (1 - dampening) * gradient``, ``stat`` becomes 0
and the direction is ``accum`` (Nesterov: ``gradient + momentum * accum``); without momentum ``accum`` and
``stat`` are left as they are, unread and unwritten, and the direction is the gradient; then ``weight -=
learning_rate * direction``. Each multiply-add is rounded once, as XLA:CPU's contracted form rounds it;
with dampening the accumulator's second product (``(1 - dampening) * gradient``) is rounded first, as
XLA:CPU contracts it for parameters of 32 elements and more; for smaller ones XLA fuses the other product,
and the accumulator can be one rounding (1 ulp) away from XLA's form. ``applies(...)`` takes the operands ``momentum_cpu.takes`` takes (traced, float32, one
shape, one-element rates, the ``optimizer`` family's CPU form, one device, the kernel library there).
Not differentiable; ``jax.vmap`` runs it per element of the batch.

Why: as ``momentum_cpu``'s: XLA:CPU compiles the accumulator update and the weight update as distinct
kernels for every parameter shape (``benchmarks/cpu_speed_notes.md``, thirteenth pass); the handler is
compiled once per machine. ``accum`` and ``stat`` are aliased to their results (updated where they lie,
and untouched without momentum, as ``state.conditional.update_if`` leaves them in XLA's form); the weight
is written to a fresh buffer (the forward and backward passes read it: see ``momentum_cpu``).
"""
import jax
import jax.numpy as jnp
import numpy as np

from sporax.ops.lowering.momentum_cpu import takes

_TARGET = "sporax_sgd_update"


def applies(weight, accum, stat, gradient, learning_rate, momentum):
    """Whether ``sgd`` takes these operands (see the module's contract)."""
    return takes((weight, accum, stat, gradient), (learning_rate, momentum))


def sgd(weight, accum, stat, gradient, learning_rate, momentum, dampening=0.0, nesterov=False):
    """``(weight, accum, stat)`` after one ``nn.SGD`` step, through the FFI handler."""
    if nesterov and dampening:
        raise ValueError("For 'SGD', nesterov needs dampening == 0.")
    result = jax.ShapeDtypeStruct(weight.shape, jnp.float32)
    call = jax.ffi.ffi_call(_TARGET, (result, result, result), input_output_aliases={1: 1, 2: 2},
                            vmap_method="sequential")
    return call(weight, accum, stat, gradient, learning_rate, momentum, gradient_share=np.float32(1 - dampening), nesterov=np.int64(bool(nesterov)))
