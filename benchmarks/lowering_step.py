"""CPU lowerings measured inside whole train steps: XLA's plain forms vs sporax's CPU forms.

Hand-written JAX LeNet5 and ResNet-18 (CIFAR) train steps (forward, backward, SGD update under
one ``jit``) built with pluggable convolution and max-pool functions; each variant swaps in one
of ``sporax.ops.lowering``'s forms (or a candidate form) and all variants of a workload run
interleaved in this process, ``--repeat`` rounds of ``--steps`` steps. Reported: the best and
the median round in ms per step and the best's speed-up over the plain form. These figures
chose what ``sporax/ops/lowering/`` does (see its modules' docstrings).

    python benchmarks/lowering_step.py --workload lenet5_b256 --workload resnet18_b32 --repeat 9
"""
import argparse
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def _variants():
    """{name: (conv(x, w, strides, pads), pool(x))}: the plain forms first, then the candidates."""
    from jax import lax

    from sporax.ops.functional.pooling import _max_pool_body
    from sporax.ops.lowering import conv_cpu, pool_cpu

    import lowering_candidates

    def where_pool(x):  # sporax's plain max pool, whatever the switch says
        return _max_pool_body(x, (2, 2), (2, 2), ((0, 0), (0, 0)), None, False)

    def reduce_window_pool(x):  # XLA's own max pool (select_and_scatter gradient)
        return lax.reduce_window(x, -np.inf, lax.max, (1, 1, 2, 2), (1, 1, 2, 2), "VALID")

    def tiles_pool(x):
        return pool_cpu.max_pool_tiles(x, (2, 2))

    def only_where(name):
        candidate, applies = lowering_candidates.CANDIDATES[name], lowering_candidates.APPLIES[name]

        def conv(x, w, strides, pads):
            return (candidate if applies(w) else lowering_candidates.plain)(x, w, strides, pads)
        return conv
    def space_to_depth_conv(x, w, strides, pads):  # sporax's conv lowering where it applies
        if conv_cpu.applies(x, w, strides, pads, None, 1, None):
            return conv_cpu.conv_space_to_depth(x, w, tuple(tuple(p) for p in pads))
        return lowering_candidates.plain(x, w, strides, pads)
    variants = {"plain (XLA conv, where-chain pool)": (lowering_candidates.plain, where_pool),
                "XLA reduce_window pool": (lowering_candidates.plain, reduce_window_pool),
                "sporax: tiles pool": (lowering_candidates.plain, tiles_pool),
                "sporax: space-to-depth conv": (space_to_depth_conv, where_pool),
                "sporax: space-to-depth conv + tiles pool": (space_to_depth_conv, tiles_pool)}
    for name in lowering_candidates.CANDIDATES:
        variants["conv: " + name] = (only_where(name), where_pool)
    return variants


def lenet5(conv, pool, batch):
    import jax
    import jax.numpy as jnp

    rng = np.random.default_rng(0)
    shapes = [(6, 1, 5, 5), (16, 6, 5, 5), (120, 400), (120,), (84, 120), (84,), (10, 84), (10,)]
    params = [jnp.asarray(rng.uniform(-0.2, 0.2, s).astype(np.float32)) for s in shapes]
    x = jnp.asarray(rng.standard_normal((batch, 1, 32, 32)), jnp.float32)
    y = jnp.asarray(rng.integers(0, 10, batch), jnp.int32)
    valid = ((0, 0), (0, 0))

    def loss_fn(p, x, y):
        h = pool(jax.nn.relu(conv(x, p[0], (1, 1), valid)))
        h = pool(jax.nn.relu(conv(h, p[1], (1, 1), valid))).reshape(x.shape[0], -1)
        h = jax.nn.relu(h @ p[2].T + p[3])
        h = jax.nn.relu(h @ p[4].T + p[5])
        return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(h @ p[6].T + p[7]), y[:, None], 1))
    return loss_fn, params, x, y


def resnet18(conv, pool, batch):
    import jax
    import jax.numpy as jnp
    from jax import lax

    rng = np.random.default_rng(0)

    def weight(cout, cin, k):
        return jnp.asarray(rng.normal(0, np.sqrt(2 / (cin * k * k)), (cout, cin, k, k)).astype(np.float32))

    def batch_norm(x):
        mean = x.mean((0, 2, 3), keepdims=True)
        return (x - mean) * lax.rsqrt(((x - mean) ** 2).mean((0, 2, 3), keepdims=True) + 1e-5)
    blocks, strides, cin = [], [], 64
    for cout, stride in ((64, 1), (128, 2), (256, 2), (512, 2)):
        for s in (stride, 1):
            block = {"w1": weight(cout, cin, 3), "w2": weight(cout, cout, 3)}
            if s != 1 or cin != cout:
                block["ws"] = weight(cout, cin, 1)
            blocks.append(block)
            strides.append(s)
            cin = cout
    params = {"stem": weight(64, 3, 3), "blocks": blocks,
              "fc": jnp.asarray(rng.uniform(-0.04, 0.04, (10, 512)).astype(np.float32))}

    def c(x, w, s=1):
        k = w.shape[-1] // 2
        return conv(x, w, (s, s), ((k, k), (k, k)))

    def loss_fn(p, x, y):
        h = jax.nn.relu(batch_norm(c(x, p["stem"])))
        for block, s in zip(p["blocks"], strides):
            out = jax.nn.relu(batch_norm(c(h, block["w1"], s)))
            out = batch_norm(c(out, block["w2"]))
            h = jax.nn.relu(out + (batch_norm(c(h, block["ws"], s)) if "ws" in block else h))
        logits = h.mean((2, 3)) @ p["fc"].T
        return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), y[:, None], 1))
    x = jnp.asarray(rng.standard_normal((batch, 3, 32, 32)), jnp.float32)
    y = jnp.asarray(rng.integers(0, 10, batch), jnp.int32)
    return loss_fn, params, x, y


WORKLOADS = {"lenet5_b32": (lenet5, 32, 40), "lenet5_b256": (lenet5, 256, 8),
             "resnet18_b32": (resnet18, 32, 2)}


def train_step(loss_fn):
    import jax

    def step(params, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        return jax.tree_util.tree_map(lambda p, g: p - 0.01 * g, params, grads), loss
    return jax.jit(step)


def measure(workload, variants, steps, repeat, clock=time.perf_counter):
    import jax

    build, batch, default_steps = WORKLOADS[workload]
    steps = steps or default_steps
    runs = {}
    for name, (conv, pool) in variants.items():
        loss_fn, params, x, y = build(conv, pool, batch)
        step = train_step(loss_fn)
        jax.block_until_ready(step(params, x, y))
        runs[name] = (step, params, x, y)
    rounds = {name: [] for name in runs}
    for _ in range(repeat):
        for name, (step, params, x, y) in runs.items():
            started = clock()
            for _ in range(steps):
                out = step(params, x, y)
            jax.block_until_ready(out)
            rounds[name].append((clock() - started) / steps * 1e3)
    base = min(rounds[next(iter(rounds))])
    for name, times in rounds.items():
        print(f"{workload:<14} {name:<36} best {min(times):8.2f} ms  median {statistics.median(times):8.2f} ms  "
              f"{base / min(times):5.2f}x", flush=True)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workload", action="append", choices=sorted(WORKLOADS))
    parser.add_argument("--variant", action="append", help="substring of the variant names to run (plus plain)")
    parser.add_argument("--steps", type=int, help="steps per round (default: per workload)")
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--cpu-time", action="store_true", help="time the process's CPU seconds (all threads), "
                        "steadier than wall time on a loaded machine")
    args = parser.parse_args(argv)
    import sporax  # noqa: F401  (sporax's JAX options, as in a sporax program)

    import lowering_candidates

    lowering_candidates.check()
    variants = _variants()
    if args.variant:
        first = next(iter(variants))
        variants = {name: pair for name, pair in variants.items()
                    if name == first or any(part in name for part in args.variant)}
    print(f"# {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at start; interleaved rounds; "
          f"{'CPU' if args.cpu_time else 'wall'} ms per step")
    for workload in args.workload or ["lenet5_b32", "lenet5_b256", "resnet18_b32"]:
        measure(workload, variants, args.steps, args.repeat, time.process_time if args.cpu_time else time.perf_counter)
    print(f"# load average {os.getloadavg()[0]:.1f} at end")


if __name__ == "__main__":
    main()
