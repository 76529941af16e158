"""One contender of the benchmark suite, in its own process: ``suite_worker.py CONTENDER WORKLOAD``.

It builds the workload, runs and times the first step (compilation included), warms up, prints
``ready <first-step seconds>``, then answers each ``run <steps>`` line on stdin with the wall and
CPU seconds (all threads) those steps took, and ``quit`` with its peak resident memory in MiB. The driver (suite.py)
interleaves the workers' rounds, so every contender sees the same machine load.
"""
import os
import resource
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import suite_models  # noqa: E402

CONTENDERS = ("sporax-graph", "sporax-pynative", "sporax-sink", "jax", "torch", "torch-compile", "mindspore-graph",
              "sporax-graph-plain")


def training_step(ms, network, loss_fn, optimizer, x, y, pynative):
    """A ``step()`` returning the loss of one training step on ``(x, y)``: PyNative's tutorial loop
    (``value_and_grad`` then ``optimizer(grads)``) or ``TrainOneStepCell``; also pynative_mindcv.py's."""
    if not pynative:
        train_step = ms.nn.TrainOneStepCell(ms.nn.WithLossCell(network, loss_fn), optimizer)
        return lambda: train_step(x, y)

    def forward(data, label):
        return loss_fn(network(data), label)

    grad_fn = ms.value_and_grad(forward, None, optimizer.parameters)

    def step():
        loss, grads = grad_fn(x, y)
        optimizer(grads)
        return loss
    return step


def _ms_module(contender):
    if contender.startswith("mindspore"):
        import mindspore as ms
        from mindspore import dataset
        from mindspore.train import Model
    else:
        import sporax as ms
        from sporax import dataset
        from sporax.train import Model
    return ms, dataset, Model


def setup_ms(contender, model, batch, steps):
    """A ``run(steps)`` for sporax or MindSpore, in GRAPH, PYNATIVE or sink mode."""
    ms, dataset, Model = _ms_module(contender)
    ms.set_context(mode=ms.PYNATIVE_MODE if contender.endswith("pynative") else ms.GRAPH_MODE)
    ms.set_seed(0)
    network = suite_models.ms_network(ms, model)
    loss_fn = suite_models.ms_loss(ms, model)
    optimizer = ms.nn.Momentum(network.trainable_params(), 0.01, 0.9)
    if contender.endswith("sink"):
        trainer = Model(network, loss_fn, optimizer)
        x, y = suite_models.data(model, batch * steps, seed=1)
        train = dataset.NumpySlicesDataset((x, y), column_names=["x", "y"], shuffle=False).batch(batch)
        weight = network.trainable_params()[0]

        def run_sink(count):
            # One epoch of `steps` batches per call: the warm-up and timed rounds all use `steps`.
            trainer.train(1, train, dataset_sink_mode=True)
            weight.asnumpy()
        return run_sink, True
    x, y = (ms.Tensor(a) for a in suite_models.data(model, batch))
    # Batch norm on batch statistics, as Model.train (the sink contender) and PyTorch's and the hand-written
    # JAX steps compute it: a bare Cell is in inference mode until set_train().
    network.set_train()
    step = training_step(ms, network, loss_fn, optimizer, x, y, contender.endswith("pynative"))

    def run(count):
        loss = None
        for _ in range(count):
            loss = step()
        loss.asnumpy()
    return run, False


def setup_jax(contender, model, batch, steps):
    import sporax  # noqa: F401  (the same JAX options as sporax's program)
    import jax

    built = suite_models.jax_model(model)
    if built is None:
        raise NotImplementedError(f"no hand-written JAX {model}")
    params, loss_fn = built
    moments = jax.tree_util.tree_map(jax.numpy.zeros_like, params)

    step = jax.jit(suite_models.jax_momentum_step(loss_fn), donate_argnums=(0, 1))
    x, y = (jax.numpy.asarray(a) for a in suite_models.data(model, batch))
    state = [params, moments]

    def run(count):
        loss = None
        for _ in range(count):
            state[0], state[1], loss = step(state[0], state[1], x, y)
        loss.block_until_ready()
    return run, False


def setup_torch(contender, model, batch, steps):
    import torch

    if os.environ.get("SUITE_TORCH_THREADS"):
        torch.set_num_threads(int(os.environ["SUITE_TORCH_THREADS"]))
    torch.manual_seed(0)
    network = suite_models.torch_network(torch, model)
    loss_fn = torch.nn.MSELoss() if model == "mlp" else torch.nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(network.parameters(), lr=0.01, momentum=0.9)
    x, y = suite_models.data(model, batch)
    x = torch.from_numpy(x if x.dtype == "float32" else x.astype("int64"))
    y = torch.from_numpy(y if model == "mlp" else y.reshape(-1).astype("int64"))

    def step():
        optimizer.zero_grad()
        loss = loss_fn(network(x), y)
        loss.backward()
        optimizer.step()
        return loss
    if contender == "torch-compile":
        step = torch.compile(step)

    def run(count):
        loss = None
        for _ in range(count):
            loss = step()
        loss.item()
    return run, False


def main():
    if sys.argv[1] == "flops":  # suite_worker.py flops WORKLOAD: the step's FLOPs, for the driver
        import sporax  # noqa: F401  (the same JAX options as the jax contender)
        print(suite_models.train_step_flops(*suite_models.WORKLOADS[sys.argv[2]]))
        return
    contender, workload, steps = sys.argv[1], sys.argv[2], int(sys.argv[3])
    if contender == "sporax-graph-plain":  # sporax GRAPH without its CPU lowerings and XLA defaults
        os.environ["SPORAX_PLAIN_LOWERING"] = "1"
        os.environ["SPORAX_XLA_CPU_FLAGS"] = "off"
        os.environ["SPORAX_HOST_MALLOC"] = "off"
    model, batch = suite_models.WORKLOADS[workload]
    setup = setup_ms if contender.split("-")[0] in ("sporax", "mindspore") else (
        setup_jax if contender == "jax" else setup_torch)
    try:
        run, whole_epoch = setup(contender, model, batch, steps)
        started = time.perf_counter()
        run(steps if whole_epoch else 1)
        first = time.perf_counter() - started
        run(steps if whole_epoch else 3)
    except Exception as error:  # reported by the driver as this contender's result
        print(f"failed {type(error).__name__}: {str(error).splitlines()[0][:200] if str(error) else ''}",
              flush=True)
        return
    print(f"ready {first:.3f}", flush=True)
    for line in sys.stdin:
        command = line.split()
        if command[0] == "run":
            started, started_cpu = time.perf_counter(), time.process_time()
            run(int(command[1]))
            # CPU seconds of all the process's threads beside the wall seconds: a round whose wall
            # time is far above its CPU time per core waited for cores (load from elsewhere).
            print(f"{time.perf_counter() - started:.6f} {time.process_time() - started_cpu:.6f}", flush=True)
        else:
            print(f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f}", flush=True)
            return


if __name__ == "__main__":
    main()
