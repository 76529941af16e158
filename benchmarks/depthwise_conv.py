"""Depthwise convolutions on CPU: XLA's grouped convolution vs ``sporax.ops.lowering.depthwise_cpu``.

The 11 depthwise layers of mindcv's mobilenet_v3_small (224 x 224 input) at one batch size, forward
plus input and weight gradients in one jitted program: compile time (CPU s) and the best of
``--repeat`` runs (wall ms), each form in turn.

    PYTHONPATH=src python benchmarks/depthwise_conv.py --batch 16 --repeat 5
"""
import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import machine  # noqa: E402

# (channels, input size, kernel, stride) of mobilenet_v3_small_100's depthwise layers at 224 x 224
LAYERS = [(16, 112, 3, 2), (72, 56, 3, 2), (88, 28, 3, 1), (96, 28, 5, 2), (240, 14, 5, 1), (240, 14, 5, 1),
          (120, 14, 5, 1), (144, 14, 5, 1), (288, 14, 5, 2), (576, 7, 5, 1), (576, 7, 5, 1)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--repeat", type=int, default=5)
    options = parser.parse_args()
    import sporax  # noqa: F401  (sporax's JAX options)
    import jax
    import jax.numpy as jnp
    from jax import lax
    from sporax.ops.lowering import depthwise_cpu

    def grouped(x, w, stride, pad):
        return lax.conv_general_dilated(x, w, (stride, stride), [(pad, pad)] * 2,
                                        dimension_numbers=("NCHW", "OIHW", "NCHW"), feature_group_count=x.shape[1])

    def shifted(x, w, stride, pad):
        return depthwise_cpu.conv_depthwise(x, w, (stride, stride), ((pad, pad), (pad, pad)))

    rng = np.random.default_rng(0)
    inputs = [jnp.asarray(rng.standard_normal((options.batch, c, s, s)), jnp.float32) for c, s, _, _ in LAYERS]
    weights = [jnp.asarray(rng.standard_normal((c, 1, k, k)), jnp.float32) for c, _, k, _ in LAYERS]
    print(machine.line(machine.describe(), "start"))
    results = {}
    for name, conv in (("XLA grouped", grouped), ("sporax shifted", shifted)):
        def loss(weights, inputs):
            return sum((conv(x, w, stride, k // 2) ** 2).sum()
                       for x, w, (_, _, k, stride) in zip(inputs, weights, LAYERS))
        step = jax.jit(jax.grad(loss, argnums=(0, 1)))
        cpu = time.process_time()
        compiled = step.lower(weights, inputs).compile()
        cpu = time.process_time() - cpu
        jax.block_until_ready(compiled(weights, inputs))
        best = float("inf")
        for _ in range(options.repeat):
            start = time.perf_counter()
            jax.block_until_ready(compiled(weights, inputs))
            best = min(best, time.perf_counter() - start)
        results[name] = best
        print(f"{name:15} compile {cpu:5.2f} CPU s   forward+gradients {1000 * best:8.1f} ms (batch {options.batch})")
    print(f"speed-up {results['XLA grouped'] / results['sporax shifted']:.2f}x")
    print(machine.line(machine.describe(), "end"))


if __name__ == "__main__":
    main()
