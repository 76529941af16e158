"""MindSpore's Adam and AdamWeightDecay updates on XLA:CPU as one FFI call per parameter, in place.

Contract: ``adam(weight, m, v, gradient, step, beta1, beta2, epsilon)`` returns ``(weight, m, v)`` bit-equal
to ``sporax.ops.functional.update.adam_rule`` without Nesterov compiled by XLA:CPU, ``step`` being the
bias-corrected rate ``learning_rate * sqrt(1 - beta2_power) / (1 - beta1_power)`` (the caller computes it
as the rule does); ``adam_weight_decay(weight, m, v, gradient, learning_rate, beta1, beta2, epsilon, decay)``
returns ``adam_weight_decay_rule``'s ``(weight, m, v)`` likewise (``decay`` None: no decay term). The betas
and epsilon are Python numbers (constants of the compiled program, as in the rules). Each multiply-add is
rounded once, as XLA:CPU's contracted form rounds it (which products XLA fuses was checked against its
output: ``adam_update.cc``); square root and division are correctly rounded in both. ``applies(...)`` takes
what ``momentum_cpu.takes`` takes (traced, float32, one shape, a one-element rate, the ``optimizer``
family's CPU form, one device, the kernel library there). Not differentiable; ``jax.vmap`` runs it per
element of the batch.

Why: as ``momentum_cpu``'s: XLA:CPU compiles a parameter's moment and weight updates as kernels of their own
for every parameter shape (``benchmarks/cpu_speed_notes.md``, thirteenth pass); the handlers are compiled
once per machine. ``m`` and ``v`` are aliased to their results (updated where they lie); the weight is
written to a fresh buffer (the forward and backward passes read it: see ``momentum_cpu``).
"""
import jax
import jax.numpy as jnp
import numpy as np

from sporax.ops.lowering.momentum_cpu import takes


def applies(weight, m, v, gradient, rate):
    """Whether ``adam``/``adam_weight_decay`` take these operands (see the module's contract)."""
    return takes((weight, m, v, gradient), (rate,))


def _call(target, weight, m, v, gradient, rate, **attributes):
    result = jax.ShapeDtypeStruct(weight.shape, jnp.float32)
    call = jax.ffi.ffi_call(target, (result, result, result), input_output_aliases={1: 1, 2: 2},
                            vmap_method="sequential")
    return call(weight, m, v, gradient, rate, **attributes)


def adam(weight, m, v, gradient, step, beta1, beta2, epsilon):
    """``(weight, m, v)`` after one Adam step (no Nesterov) by the bias-corrected rate ``step``."""
    # 1 - beta in float32, as update.float32_share (MindSpore's float32 betas)
    return _call("sporax_adam_update", weight, m, v, gradient, step, beta1_share=np.float32(1) - np.float32(beta1),
                 beta2_share=np.float32(1) - np.float32(beta2), epsilon=np.float32(epsilon))


def adam_weight_decay(weight, m, v, gradient, learning_rate, beta1, beta2, epsilon, decay=None):
    """``(weight, m, v)`` after one AdamWeightDecay step (``decay`` None: no decay term)."""
    return _call("sporax_adam_weight_decay_update", weight, m, v, gradient, learning_rate,
                 beta1=np.float32(beta1), beta2=np.float32(beta2), beta1_share=np.float32(1 - beta1),
                 beta2_share=np.float32(1 - beta2), epsilon=np.float32(epsilon),
                 decay=np.float32(0.0 if decay is None else decay), decays=np.int64(decay is not None))
