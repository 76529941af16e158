"""Train-step throughput: sporax (GRAPH, PYNATIVE, Model sink) vs hand-written JAX vs PyTorch.

Workloads: the seed MLP (32 -> 120 -> 84 -> 1, batch 32, MSE) and LeNet5 (1x32x32, batch 32 and
256, softmax cross entropy), each trained with Momentum 0.9 (lr 0.01). Every contender runs the
same model, loss, optimizer and batch in this one process; the table gives steps/s and the ratio
to hand-written JAX. Each contender is set up (and compiled) once, then timed in ``--repeat``
interleaved rounds (every contender once per round) and its best round is reported, so that
load from other processes hits all contenders alike.

    python benchmarks/train_step.py                 # all workloads
    python benchmarks/train_step.py --steps 200 --repeat 5 --only lenet5_b32
"""
import argparse
import os
import time

import numpy as np


def _timed(run, steps):
    """Steps per second of ``run(steps)``, which runs ``steps`` steps and waits for the last."""
    started = time.perf_counter()
    run(steps)
    return steps / (time.perf_counter() - started)


def _loop(step, sync):
    """A ``run(steps)`` that calls ``step`` ``steps`` times and syncs on the last result once."""
    def run(steps):
        result = None
        for _ in range(steps):
            result = step()
        sync(result)
    return run


# --- the models in sporax -------------------------------------------------------------------
def sporax_network(kind):
    from sporax import nn

    if kind == "mlp":
        return nn.SequentialCell([nn.Dense(32, 120), nn.ReLU(), nn.Dense(120, 84), nn.ReLU(), nn.Dense(84, 1)])
    from sporax.demo.lenet import LeNet5

    return LeNet5()


def sporax_loss(kind):
    from sporax import nn

    return nn.MSELoss() if kind == "mlp" else nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")


def data(kind, batch, seed=0):
    rng = np.random.default_rng(seed)
    if kind == "mlp":
        return rng.standard_normal((batch, 32)).astype(np.float32), rng.standard_normal((batch, 1)).astype(np.float32)
    return (rng.standard_normal((batch, 1, 32, 32)).astype(np.float32),
            rng.integers(0, 10, batch).astype(np.int32))


def setup_sporax_graph(kind, batch, steps):
    import sporax as ms
    from sporax import nn

    network = sporax_network(kind)
    step_cell = nn.TrainOneStepCell(nn.WithLossCell(network, sporax_loss(kind)),
                                    nn.Momentum(network.trainable_params(), 0.01, 0.9))
    x, y = (ms.Tensor(a) for a in data(kind, batch))
    loop = _loop(lambda: step_cell(x, y), lambda loss: loss.asnumpy())

    def run(steps):
        ms.set_context(mode=ms.GRAPH_MODE)
        try:
            loop(steps)
        finally:
            ms.set_context(mode=ms.PYNATIVE_MODE)
    return run


def setup_sporax_pynative(kind, batch, steps):
    import sporax as ms
    from sporax import nn

    ms.set_context(mode=ms.PYNATIVE_MODE)
    network = sporax_network(kind)
    loss_fn = sporax_loss(kind)
    optimizer = nn.Momentum(network.trainable_params(), 0.01, 0.9)

    def forward(x, y):
        logits = network(x)
        return loss_fn(logits, y), logits

    # As MindSpore's tutorials and the seed scripts write a PyNative train step.
    grad_fn = ms.value_and_grad(forward, None, optimizer.parameters, has_aux=True)
    x, y = (ms.Tensor(a) for a in data(kind, batch))

    def step():
        (loss, _), grads = grad_fn(x, y)
        optimizer(grads)
        return loss

    return _loop(step, lambda loss: loss.asnumpy())


def setup_sporax_model_sink(kind, batch, steps):
    """Model.train(dataset_sink_mode=True): one epoch = ``steps`` batches run as one device call.

    The time includes what Model.train does per epoch: reading the batches from the dataset
    and sending them to the device as one block (the other contenders reuse one resident batch).
    """
    from sporax import dataset, nn
    from sporax.train import Model

    network = sporax_network(kind)
    model = Model(network, sporax_loss(kind), nn.Momentum(network.trainable_params(), 0.01, 0.9))
    x, y = data(kind, batch * steps, seed=1)
    train = dataset.NumpySlicesDataset((x, y), column_names=["x", "y"], shuffle=False).batch(batch)
    assert train.get_dataset_size() == steps
    weight = network.trainable_params()[0]

    def run(run_steps):
        assert run_steps == steps, "the sink dataset holds exactly `steps` batches"
        model.train(1, train, dataset_sink_mode=True)
        # Model.train returns once the epoch is dispatched; the weights are ready after the last step.
        weight.asnumpy()
    return run


# --- hand-written JAX -------------------------------------------------------------------------
def setup_jax(kind, batch, steps):
    """The same model hand-written in JAX: one jitted step, donated parameters, idiomatic lax ops."""
    import jax
    import jax.numpy as jnp
    from jax import lax

    rng = np.random.default_rng(0)

    def dense(n_in, n_out):
        bound = 1 / np.sqrt(n_in)
        return [jnp.asarray(rng.uniform(-bound, bound, (n_out, n_in)).astype(np.float32)),
                jnp.asarray(rng.uniform(-bound, bound, n_out).astype(np.float32))]

    if kind == "mlp":
        params = dense(32, 120) + dense(120, 84) + dense(84, 1)

        def loss_fn(p, x, y):
            h = jax.nn.relu(x @ p[0].T + p[1])
            h = jax.nn.relu(h @ p[2].T + p[3])
            return jnp.mean((h @ p[4].T + p[5] - y) ** 2)
    else:
        params = [jnp.asarray(rng.uniform(-0.2, 0.2, (6, 1, 5, 5)).astype(np.float32)),
                  jnp.asarray(rng.uniform(-0.08, 0.08, (16, 6, 5, 5)).astype(np.float32))]
        params += dense(400, 120) + dense(120, 84) + dense(84, 10)

        def conv(x, w):
            return lax.conv_general_dilated(x, w, (1, 1), "VALID", dimension_numbers=("NCHW", "OIHW", "NCHW"))

        def pool(x):
            return lax.reduce_window(x, -jnp.inf, lax.max, (1, 1, 2, 2), (1, 1, 2, 2), "VALID")

        def loss_fn(p, x, y):
            h = pool(jax.nn.relu(conv(x, p[0])))
            h = pool(jax.nn.relu(conv(h, p[1]))).reshape(x.shape[0], -1)
            h = jax.nn.relu(h @ p[2].T + p[3])
            h = jax.nn.relu(h @ p[4].T + p[5])
            logits = h @ p[6].T + p[7]
            return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), y[:, None], 1))

    moments = [jnp.zeros_like(p) for p in params]

    def step(p, m, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(p, x, y)
        m = [0.9 * mi + g for mi, g in zip(m, grads)]
        p = [pi - 0.01 * mi for pi, mi in zip(p, m)]
        return p, m, loss

    step = jax.jit(step, donate_argnums=(0, 1))
    x, y = (jnp.asarray(a) for a in data(kind, batch))
    state = {"p": params, "m": moments}

    def one_step():
        state["p"], state["m"], loss = step(state["p"], state["m"], x, y)
        return loss

    return _loop(one_step, lambda loss: loss.block_until_ready())


# --- PyTorch eager ----------------------------------------------------------------------------
def setup_torch(kind, batch, steps):
    import torch

    torch.manual_seed(0)
    if kind == "mlp":
        model = torch.nn.Sequential(torch.nn.Linear(32, 120), torch.nn.ReLU(), torch.nn.Linear(120, 84),
                                    torch.nn.ReLU(), torch.nn.Linear(84, 1))
        loss_fn = torch.nn.MSELoss()
    else:
        model = torch.nn.Sequential(
            torch.nn.Conv2d(1, 6, 5, bias=False), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
            torch.nn.Conv2d(6, 16, 5, bias=False), torch.nn.ReLU(), torch.nn.MaxPool2d(2), torch.nn.Flatten(),
            torch.nn.Linear(400, 120), torch.nn.ReLU(), torch.nn.Linear(120, 84), torch.nn.ReLU(),
            torch.nn.Linear(84, 10))
        loss_fn = torch.nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    x, y = data(kind, batch)
    x = torch.from_numpy(x)
    y = torch.from_numpy(y) if kind == "mlp" else torch.from_numpy(y.astype(np.int64))

    def step():
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        return loss

    return _loop(step, lambda loss: loss.item())


WORKLOADS = {"mlp_b32": ("mlp", 32), "lenet5_b32": ("lenet5", 32), "lenet5_b256": ("lenet5", 256)}
CONTENDERS = [("jax (hand-written)", setup_jax), ("sporax GRAPH_MODE", setup_sporax_graph),
              ("sporax Model sink", setup_sporax_model_sink), ("sporax PYNATIVE", setup_sporax_pynative),
              ("pytorch eager", setup_torch)]


def bench_workload(workload, steps, warmup, repeat):
    """{contender: best steps/s over ``repeat`` interleaved rounds} (None: not installed)."""
    kind, batch = WORKLOADS[workload]
    runs, rates = {}, {}
    for name, setup in CONTENDERS:
        try:
            runs[name] = setup(kind, batch, steps)
        except ImportError as error:
            runs[name], rates[name] = None, f"skipped ({error.name} not installed)"
            continue
        rates[name] = 0.0
    for name, run in runs.items():  # compile and warm up
        if run is not None:
            run(steps if name == "sporax Model sink" else warmup)
    for _ in range(repeat):
        for name, run in runs.items():
            if run is not None:
                rates[name] = max(rates[name], _timed(run, steps))
    return rates


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=300, help="steps per timed round (batch 256: a quarter)")
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=3, help="interleaved rounds; the best is reported")
    parser.add_argument("--only", action="append", choices=sorted(WORKLOADS))
    parser.add_argument("--torch-threads", type=int, default=0,
                        help="torch.set_num_threads (0: torch's default); on a loaded machine 1 is "
                             "several times faster, as torch's spinning OpenMP threads oversubscribe")
    args = parser.parse_args(argv)
    if args.torch_threads:
        try:
            import torch

            torch.set_num_threads(args.torch_threads)
        except ImportError:
            pass
    # Import sporax first: it sets JAX options (x64) that would otherwise change under the
    # hand-written JAX step between its warm-up and its timing, making it recompile there.
    import sporax  # noqa: F401

    if args.repeat < 1 or args.steps < 1:
        parser.error("--repeat and --steps must be at least 1")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"# {os.cpu_count()} CPUs, load average {load:.1f} at start; best of {args.repeat} interleaved rounds")
    print(f"{'workload':<12} {'contender':<20} {'steps/s':>10} {'vs jax':>8}")
    for workload in args.only or WORKLOADS:
        batch = WORKLOADS[workload][1]
        steps = args.steps if batch <= 32 else max(args.steps // 4, 20)
        rates = bench_workload(workload, steps, args.warmup, args.repeat)
        baseline = rates.get("jax (hand-written)")
        for name, rate in rates.items():
            if isinstance(rate, str):
                print(f"{workload:<12} {name:<20} {rate:>10}")
                continue
            ratio = f"{rate / baseline:>7.2f}x" if isinstance(baseline, float) and baseline else ""
            print(f"{workload:<12} {name:<20} {rate:>10.1f} {ratio}", flush=True)
    if hasattr(os, "getloadavg"):
        print(f"# load average {os.getloadavg()[0]:.1f} at end")


if __name__ == "__main__":
    main()
