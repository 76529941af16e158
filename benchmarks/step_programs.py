"""Dump the XLA programs (StableHLO) that sporax compiles for the suite's train steps, to compare trees.

A refactoring of sporax's compiler path (state lifting, the program cache) must not change what a
user's step compiles to. This script builds each ``suite_models`` workload at a small batch, runs a
few steps as the suite's sporax contenders do (GRAPH ``TrainOneStepCell``, PyNative
``value_and_grad`` + optimizer, ``Model.train`` with dataset sink, and the sink's ``lax.scan``
program that accelerators run) and writes every program JAX
lowers to ``OUT/<workload>-<contender>/NN.mlir`` (debug locations stripped, numbered in compile
order). Run it on two trees and ``diff -r`` the folders::

    PYTHONPATH=src python3 benchmarks/step_programs.py /tmp/before
    (other tree) PYTHONPATH=src python3 benchmarks/step_programs.py /tmp/after
    diff -r /tmp/before /tmp/after
"""
import argparse
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import suite_models  # noqa: E402

CONTENDERS = ("sporax-graph", "sporax-pynative", "sporax-sink", "sporax-sink-scan")
_LOCATION = re.compile(r"\s*loc\(.*?\)(?=\s*$)|#loc\d*( = loc\(.*\))?")


def normalised(text):
    """The module text without debug locations (they name source lines of whichever tree ran)."""
    lines = []
    for line in text.splitlines():
        if line.startswith("#loc"):
            continue
        line = re.sub(r" loc\(#loc\d*\)", "", line)
        line = re.sub(r" loc\(\"[^\"]*\"\)", "", line)
        line = re.sub(r"^module @\S+", "module @step", line)
        lines.append(line.rstrip())
    return "\n".join(lines) + "\n"


def run_contender(ms, model, batch, contender, steps):
    from sporax import dataset
    from sporax.graph.sink import SinkLoop
    from sporax.train import Model

    # The scan program is what accelerators run; on CPU the sink dispatches compiled steps.
    SinkLoop.PER_STEP_BACKENDS = () if contender.endswith("scan") else ("cpu",)

    ms.set_context(mode=ms.PYNATIVE_MODE if contender.endswith("pynative") else ms.GRAPH_MODE)
    ms.set_seed(0)
    network = suite_models.ms_network(ms, model)
    loss_fn = suite_models.ms_loss(ms, model)
    optimizer = ms.nn.Momentum(network.trainable_params(), 0.01, 0.9)
    if "sink" in contender:
        x, y = suite_models.data(model, batch * steps, seed=1)
        train = dataset.NumpySlicesDataset((x, y), column_names=["x", "y"], shuffle=False).batch(batch)
        Model(network, loss_fn, optimizer).train(2, train, dataset_sink_mode=True)
        return float(network.trainable_params()[0].asnumpy().sum())
    x, y = (ms.Tensor(a) for a in suite_models.data(model, batch))
    if contender.endswith("pynative"):
        grad_fn = ms.value_and_grad(lambda x, y: loss_fn(network(x), y), None, optimizer.parameters)
        for _ in range(steps):
            loss, grads = grad_fn(x, y)
            optimizer(grads)
    else:
        train_step = ms.nn.TrainOneStepCell(ms.nn.WithLossCell(network, loss_fn), optimizer)
        for _ in range(steps):
            loss = train_step(x, y)
    return float(loss.asnumpy())


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--batch", type=int, default=2)
    parser.add_argument("--steps", type=int, default=2)
    parser.add_argument("--only", action="append", help="a model name (mlp, lenet5, resnet18, transformer, lstm)")
    parser.add_argument("--contender", action="append", choices=CONTENDERS)
    args = parser.parse_args(argv)
    import jax

    import sporax as ms

    models = args.only or ["mlp", "lenet5", "resnet18", "transformer", "lstm"]
    jax.config.update("jax_dump_ir_modes", "stablehlo")
    jax.config.update("jax_include_debug_info_in_dumps", False)
    for model in models:
        for contender in args.contender or CONTENDERS:
            raw = tempfile.mkdtemp(prefix="step-programs-")
            jax.config.update("jax_dump_ir_to", raw)
            try:
                value = run_contender(ms, model, args.batch, contender, args.steps)
            finally:
                jax.config.update("jax_dump_ir_to", "")
            folder = os.path.join(args.out, f"{model}-{contender}")
            os.makedirs(folder, exist_ok=True)
            names = sorted(os.listdir(raw), key=lambda name: int(re.search(r"\d+", name).group()))
            big = 0
            for index, name in enumerate(names):
                with open(os.path.join(raw, name)) as file:
                    text = normalised(file.read())
                with open(os.path.join(folder, f"{index:02d}.mlir"), "w") as file:
                    file.write(text)
                big = max(big, len(text))
            shutil.rmtree(raw)
            print(f"{model}-{contender}: {len(names)} programs (largest {big} chars), result {value:.6g}", flush=True)


if __name__ == "__main__":
    main()
