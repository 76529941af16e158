"""CPU convolution lowering: XLA's convolution vs shifted matmuls, per computation and in a step.

For each convolution shape (LeNet5's and ResNet-18-CIFAR's) it times the forward pass, the
input gradient and the weight gradient in both forms, then a whole hand-written LeNet5 train
step with every convolution on XLA's form vs on sporax's chosen lowering. All variants of one
shape run interleaved in this process; the best of ``--repeat`` rounds is reported in ms.
These figures chose the thresholds in ``sporax/ops/functional/conv_lowering.py``.

    python benchmarks/conv_lowering.py --batch 32 --batch 256
"""
import argparse
import os
import time

import numpy as np

# --cpu-time: the process's CPU seconds (all its threads), steadier than wall time on a loaded machine.
CLOCK = time.perf_counter
LENET = [(1, 32, 6, 5, 1, 0), (6, 14, 16, 5, 1, 0)]
RESNET = [(3, 32, 64, 3, 1, 1), (64, 32, 64, 3, 1, 1), (64, 32, 128, 3, 2, 1), (64, 32, 128, 1, 2, 0),
          (128, 16, 128, 3, 1, 1), (256, 8, 256, 3, 1, 1), (512, 4, 512, 3, 1, 1)]


def best_ms(functions, args, steps, repeat):
    import jax

    compiled = {name: jax.jit(f) for name, f in functions.items()}
    for f in compiled.values():
        jax.block_until_ready(f(*args))
    best = dict.fromkeys(compiled, float("inf"))
    for _ in range(repeat):
        for name, f in compiled.items():
            started = CLOCK()
            for _ in range(steps):
                result = f(*args)
            jax.block_until_ready(result)
            best[name] = min(best[name], (CLOCK() - started) / steps * 1e3)
    return best


def parts(batch, shape, steps, repeat):
    import jax
    import jax.numpy as jnp

    from sporax.ops.functional.conv_lowering import _plan, patches_convolve, plain_convolve, shifted_convolve

    channels, size, out_channels, k, stride, pad = shape
    rng = np.random.default_rng(0)
    x = jnp.asarray(rng.standard_normal((batch, channels, size, size)), jnp.float32)
    w = jnp.asarray(rng.standard_normal((out_channels, channels, k, k)), jnp.float32)
    strides, pads, dilation = (stride, stride), ((pad, pad), (pad, pad)), (1, 1)
    dy = jnp.ones(plain_convolve(x, w, strides, pads, dilation).shape, jnp.float32)
    functions = {}
    for name, form in (("xla", plain_convolve), ("shifted", shifted_convolve), ("patches", patches_convolve)):
        def conv(a, b, form=form):
            return form(a, b, strides, pads, dilation)
        functions[f"forward {name}"] = conv
        functions[f"input-grad {name}"] = lambda x, w, dy, conv=conv: jax.vjp(lambda a: conv(a, w), x)[1](dy)[0]
        functions[f"weight-grad {name}"] = lambda x, w, dy, conv=conv: jax.vjp(lambda b: conv(x, b), w)[1](dy)[0]
    functions = {name: (f if "grad" in name else (lambda x, w, dy, f=f: f(x, w))) for name, f in functions.items()}
    best = best_ms(functions, (x, w, dy), steps, repeat)
    plan = _plan(x, w, strides, pads, dilation)
    cells = []
    for part, chosen in zip(("forward", "input-grad", "weight-grad"), plan):
        xla, shifted, patches = (best[f"{part} {form}"] for form in ("xla", "shifted", "patches"))
        cells.append(f"{part} {xla:6.2f}/{shifted:6.2f}/{patches:6.2f}{'*' if chosen else ' '}")
    print(f"b{batch:<4} {str(shape):<24} " + "  ".join(cells), flush=True)


def lenet_step(batch, steps, repeat):
    import jax
    import jax.numpy as jnp
    from jax import lax

    from sporax.ops.functional.conv_lowering import convolve, plain_convolve

    rng = np.random.default_rng(0)
    params = [jnp.asarray(rng.uniform(-0.2, 0.2, s).astype(np.float32))
              for s in [(6, 1, 5, 5), (16, 6, 5, 5), (120, 400), (120,), (84, 120), (84,), (10, 84), (10,)]]
    x = jnp.asarray(rng.standard_normal((batch, 1, 32, 32)), jnp.float32)
    y = jnp.asarray(rng.integers(0, 10, batch), jnp.int32)

    def pool(h):
        return lax.reduce_window(h, -jnp.inf, lax.max, (1, 1, 2, 2), (1, 1, 2, 2), "VALID")

    def step_with(conv):
        def loss_fn(p, x, y):
            h = pool(jax.nn.relu(conv(x, p[0], (1, 1), ((0, 0), (0, 0)), (1, 1))))
            h = pool(jax.nn.relu(conv(h, p[1], (1, 1), ((0, 0), (0, 0)), (1, 1)))).reshape(x.shape[0], -1)
            h = jax.nn.relu(h @ p[2].T + p[3])
            h = jax.nn.relu(h @ p[4].T + p[5])
            logits = h @ p[6].T + p[7]
            return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), y[:, None], 1))

        def step(p, x, y):
            loss, grads = jax.value_and_grad(loss_fn)(p, x, y)
            return [a - 0.01 * g for a, g in zip(p, grads)], loss
        return step
    best = best_ms({"xla": step_with(plain_convolve), "sporax": step_with(convolve)}, (params, x, y), steps, repeat)
    print(f"b{batch:<4} LeNet5 step (reduce_window pools)  xla {best['xla']:.2f} ms  sporax lowering "
          f"{best['sporax']:.2f} ms  ({best['xla'] / best['sporax']:.2f}x)", flush=True)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, action="append")
    parser.add_argument("--steps", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--skip-resnet", action="store_true")
    parser.add_argument("--cpu-time", action="store_true", help="time CPU seconds, not wall seconds")
    args = parser.parse_args(argv)
    if args.cpu_time:
        global CLOCK
        CLOCK = time.process_time
    import sporax  # noqa: F401  (its JAX options, as in a sporax program)

    print(f"# {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}; ms per call, xla/shifted, * = sporax's choice")
    for batch in args.batch or [32, 256]:
        lenet_step(batch, args.steps * 4, args.repeat)
        for shape in LENET + ([] if args.skip_resnet else RESNET):
            parts(batch, shape, args.steps, args.repeat)


if __name__ == "__main__":
    main()
