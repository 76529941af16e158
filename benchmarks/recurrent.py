"""sporax GRAPH_MODE vs hand-written JAX on the suite's LSTM tagger, Transformer encoder LM and MLP.

Both contenders run in ONE process and are timed in interleaved rounds (the machine is shared),
so the ratio, not the absolute steps/s, is the figure to read. The hand-written JAX models use
the suite's shapes (benchmarks/suite_models.py), Momentum 0.9 with lr 0.01 and the same loss::

    PYTHONPATH=src python3 benchmarks/recurrent.py --only lstm_b32 --rounds 5
    PYTHONPATH=src python3 benchmarks/recurrent.py --only mlp_b32 --cpu-time --rounds 20
"""
import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import suite_models as sm  # noqa: E402


def jax_runner(model, batch):
    import jax
    params, loss_fn = sm.jax_model(model)
    moments = jax.tree_util.tree_map(jax.numpy.zeros_like, params)

    step = jax.jit(sm.jax_momentum_step(loss_fn), donate_argnums=(0, 1))
    x, y = (jax.numpy.asarray(a) for a in sm.data(model, batch))
    state = [params, moments]

    def run(count):
        for _ in range(count):
            state[0], state[1], loss = step(state[0], state[1], x, y)
        loss.block_until_ready()
    return run


def sporax_runner(model, batch, masked=False):
    """sporax GRAPH_MODE TrainOneStepCell; ``masked``: the LSTM is given ``seq_length`` (all full),
    which runs the masked time loop (the lowering every call used before the unmasked one)."""
    import sporax as ms
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(0)
    network, loss_fn = sm.ms_network(ms, model), sm.ms_loss(ms, model)
    if masked:
        lengths = ms.Tensor(np.full((batch,), sm.LSTM_SEQ, np.int32))
        lstm = network.lstm
        original = lstm.construct
        lstm.construct = lambda x, hx=None, seq_length=None: original(x, hx, lengths)
    # Batch norm on batch statistics, as the suite's sporax and MindSpore contenders (suite_worker) and the
    # hand-written JAX step compute it: a bare Cell is in inference mode until set_train(), a smaller program.
    network.set_train()
    optimizer = ms.nn.Momentum(network.trainable_params(), 0.01, 0.9)
    train_step = ms.nn.TrainOneStepCell(ms.nn.WithLossCell(network, loss_fn), optimizer)
    x, y = (ms.Tensor(a) for a in sm.data(model, batch))

    def run(count):
        for _ in range(count):
            loss = train_step(x, y)
        loss.asnumpy()
    return run


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", choices=("lstm_b32", "transformer_b16", "mlp_b32"))
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--steps", type=int, default=0, help="steps a round (default: by workload)")
    parser.add_argument("--cpu-time", action="store_true", help="time rounds by the process's CPU time (all its "
                        "threads; steadier than wall time on a loaded machine)")
    parser.add_argument("--masked", action="store_true",
                        help="lstm: also sporax with the masked time loop (seq_length given, all full)")
    args = parser.parse_args()
    for workload in args.only or ("lstm_b32", "transformer_b16"):
        model, batch = sm.WORKLOADS[workload]
        steps = args.steps or {"lstm": 10, "transformer": 3, "mlp": 300}[model]
        clock = time.process_time if args.cpu_time else time.perf_counter
        runners, firsts = {}, {}
        contenders = [("sporax", sporax_runner), ("jax", jax_runner)]
        if args.masked and model == "lstm":
            contenders.append(("sporax-masked", lambda m, b: sporax_runner(m, b, masked=True)))
        for name, make in contenders:
            started = time.perf_counter()
            runners[name] = make(model, batch)
            runners[name](1)
            firsts[name] = time.perf_counter() - started
            runners[name](2)
        best = {name: float("inf") for name in runners}
        for _ in range(args.rounds):
            for name, run in runners.items():
                started = clock()
                run(steps)
                best[name] = min(best[name], (clock() - started) / steps)
        print(f"{workload}: ({'CPU time' if args.cpu_time else 'wall'}) sporax {1 / best['sporax']:.2f} steps/s, jax {1 / best['jax']:.2f} steps/s, "
              f"sporax/jax speed {best['jax'] / best['sporax']:.3f}; first step sporax {firsts['sporax']:.2f} s, "
              f"jax {firsts['jax']:.2f} s", flush=True)
        if "sporax-masked" in best:
            print(f"{workload}: sporax masked loop {1 / best['sporax-masked']:.2f} steps/s, masked/jax speed "
                  f"{best['jax'] / best['sporax-masked']:.3f}, unmasked/masked speed "
                  f"{best['sporax-masked'] / best['sporax']:.3f}; first step masked {firsts['sporax-masked']:.2f} s",
                  flush=True)


if __name__ == "__main__":
    main()
