"""What an optimizer's CPU update handler does to a train step's compile: kernels, compile CPU, step CPU.

sporax's GRAPH ``TrainOneStepCell`` of a suite model (``--model``, first_step.BATCH) with an ``nn``
optimizer (``--optimizer``) is traced twice in one process, once with XLA's form of the update
(``SPORAX_PLAIN_LOWERING=optimizer``) and once with the handler, then each lowering is compiled
uncached in ``--repeat`` interleaved rounds: compile CPU seconds (all threads), the compiled HLO's loop
fusions and distinct fused computations (XLA:CPU emits one kernel per distinct one), a steady step's CPU
time (``--steps`` steps), and whether the two forms' outputs and states after ``--equal-steps`` steps are bit-equal.

    PYTHONPATH=src python3 benchmarks/optimizer_kernels.py --model resnet18 --optimizer sgd --repeat 3
"""
import argparse
import os
import re
import sys
import time

_HERE = os.path.dirname(os.path.abspath(__file__))
OPTIMIZERS = {
    "momentum": lambda ms, params: ms.nn.Momentum(params, 0.01, 0.9),
    "sgd": lambda ms, params: ms.nn.SGD(params, 0.01, momentum=0.9, weight_decay=5e-4),
    "sgd-nesterov": lambda ms, params: ms.nn.SGD(params, 0.01, momentum=0.9, weight_decay=5e-4, nesterov=True),
    "sgd-plain": lambda ms, params: ms.nn.SGD(params, 0.01),
    "adam": lambda ms, params: ms.nn.Adam(params, 1e-3),
    "adamw": lambda ms, params: ms.nn.AdamWeightDecay(params, 1e-3, weight_decay=0.01),
}


def lowered_step(model, optimizer, plain):
    """The lowered train step (and its state and inputs), traced with XLA's update form when ``plain``."""
    import jax
    import numpy as np

    import sporax as ms
    import suite_models as sm
    from sporax.state import program_cache
    if plain:
        os.environ["SPORAX_PLAIN_LOWERING"] = "optimizer"
    else:
        os.environ.pop("SPORAX_PLAIN_LOWERING", None)
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(0)
    import first_step
    batch = first_step.BATCH[model]
    network, loss_fn = sm.ms_network(ms, model), sm.ms_loss(ms, model)
    step = ms.nn.TrainOneStepCell(ms.nn.WithLossCell(network, loss_fn),
                                  OPTIMIZERS[optimizer](ms, network.trainable_params()))
    x, y = (ms.Tensor(a) for a in sm.data(model, batch))
    step(x, y).asnumpy()
    program, shapes = program_cache.last_built("eval")
    written = [jax.numpy.array(state._array, copy=True) for state in program.written]
    readonly = [state._array for state in program.readonly]
    arrays = [jax.numpy.asarray(a) for a in sm.data(model, batch)]
    os.environ.pop("SPORAX_PLAIN_LOWERING", None)
    return program.lower(shapes), written, readonly, arrays, np


def kernel_counts(text):
    """``(loop fusions, distinct fused computations)`` of a compiled HLO module's text."""
    fusions = len(re.findall(r"kind=kLoop", text))
    bodies = set()
    for match in re.finditer(r"^%?fused_\S* \(.*?^}", text, re.S | re.M):
        body = match.group(0).split("{", 1)[1]
        bodies.add(re.sub(r"%[\w.\-]+", "%", body))
    return fusions, len(bodies)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="resnet18")
    parser.add_argument("--optimizer", default="sgd", choices=tuple(OPTIMIZERS))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--steps", type=int, default=3, help="steps timed a round")
    parser.add_argument("--equal-steps", type=int, default=3, help="steps run before comparing the two forms")
    args = parser.parse_args()
    os.environ["SPORAX_COMPILATION_CACHE_DIR"] = "off"
    sys.path.insert(0, _HERE)
    import jax

    from sporax.core import jax_private
    forms = {"XLA's form": lowered_step(args.model, args.optimizer, True),
             "handler": lowered_step(args.model, args.optimizer, False)}
    figures = {name: {"compile": [], "step": []} for name in forms}
    outputs = {}
    for index in range(args.repeat):
        for name, (lowered, written, readonly, arrays, np) in forms.items():
            options = {"xla_gpu_autotune_level": 1 + index}  # ignored by XLA:CPU: a new executable each round
            started = time.process_time()
            executable = jax_private.compile_uncached(lowered, options)
            figures[name]["compile"].append(time.process_time() - started)
            figures[name]["kernels"] = kernel_counts(executable.as_text())
            copies = [[jax.numpy.array(value, copy=True) for value in written] for _ in range(1 + args.steps)]
            state = copies[0]
            for _ in range(args.equal_steps):  # the step returns (output leaves, new written states)
                leaves, state = executable(state, readonly, arrays)
            outputs[name] = [np.asarray(leaf) for leaf in jax.tree_util.tree_leaves((leaves, state))]
            started = time.process_time()
            jax.block_until_ready([executable(values, readonly, arrays) for values in copies[1:]])
            figures[name]["step"].append((time.process_time() - started) / args.steps)
    equal = all(a.tobytes() == b.tobytes() for a, b in zip(*outputs.values()))
    print(f"# {args.model} / {args.optimizer}: median of {args.repeat} interleaved rounds, "
          f"load average {os.getloadavg()[0]:.1f}; every output and state after {args.equal_steps} steps bit-equal: {equal}")
    for name, figure in figures.items():
        compile_cpu, step_cpu = np.median(figure["compile"]), np.median(figure["step"])
        print(f"{name:11s} loop fusions {figure['kernels'][0]:4d}, distinct fused computations "
              f"{figure['kernels'][1]:4d}; compile CPU {compile_cpu:6.3f} s ({', '.join(f'{t:.2f}' for t in figure['compile'])})"
              f"; step CPU {1e3 * step_cpu:8.2f} ms ({', '.join(f'{1e3 * t:.2f}' for t in figure['step'])})")


if __name__ == "__main__":
    main()
