"""Runs in a subprocess with 4 host devices (test_shard_devices.py starts it); prints JSON results.

Each check compares a sharded run (SEMI_AUTO_PARALLEL / AUTO_PARALLEL on 2 or 4 devices) with the
same network on one device (STAND_ALONE), and reports which collectives XLA put in the program; then
``Cell.set_data_parallel``'s checks (data_parallel_checks.py) in the same process.

``shard_worker.py PROCESS_ID PORT`` is one of two processes (2 host devices each, joined by
``jax.distributed`` over gloo) training the same network across processes.
"""
import json
import os
import re
import sys

_PROCESSES = len(sys.argv) == 3
os.environ["XLA_FLAGS"] = os.environ.get("XLA_FLAGS", "") + \
    f" --xla_force_host_platform_device_count={2 if _PROCESSES else 4}"
if _PROCESSES:  # before anything (importing sporax included) starts JAX's backend
    import jax

    jax.config.update("jax_cpu_collectives_implementation", "gloo")
    jax.distributed.initialize(coordinator_address=f"127.0.0.1:{sys.argv[2]}", num_processes=2,
                               process_id=int(sys.argv[1]))

import numpy as np  # noqa: E402

import sporax as ms  # noqa: E402
from sporax import Layout, Parameter, Tensor, nn, ops  # noqa: E402
from sporax.graph.cell_jit import compiled_text  # noqa: E402

import data_parallel_checks  # noqa: E402 - this folder is the script's sys.path[0]

COLLECTIVES = r"\b(all-reduce|all-gather|reduce-scatter|all-to-all|collective-permute)(?:-start)?\("
RNG = np.random.RandomState(0)
X = RNG.rand(8, 4).astype(np.float32)
Y = RNG.rand(8, 6).astype(np.float32)
W = (np.arange(24, dtype=np.float32).reshape(4, 6) - 12) / 10
RNG_WEIGHTS = np.random.RandomState(1)


class MatMulNet(nn.Cell):
    def __init__(self, strategy=None):
        super().__init__()
        self.w = Parameter(Tensor(W), name="w")
        self.matmul = ops.MatMul()
        if strategy is not None:
            self.matmul.shard(strategy)

    def construct(self, x):
        return self.matmul(x, self.w)


def collectives(text):
    return sorted(set(re.findall(COLLECTIVES, text)))


def use(mode, devices):
    ms.reset_auto_parallel_context()
    ms.set_auto_parallel_context(parallel_mode=mode, device_num=devices)


def train(net, steps=2):
    """Two SGD steps of a compiled TrainOneStepCell; (losses, weight, HLO collectives)."""
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.1))
    text = compiled_text(step, Tensor(X), Tensor(Y))
    losses = [float(step(Tensor(X), Tensor(Y)).asnumpy()) for _ in range(steps)]
    return losses, net.w.asnumpy(), collectives(text)


def forward_and_grads(net):
    """Forward output, and value_and_grad of a loss w.r.t. the input and the weight."""
    out = net(Tensor(X)).asnumpy()

    def loss(x):
        return (net(x) ** 2).mean()

    value, (grad_x, (grad_w,)) = ms.value_and_grad(loss, grad_position=0, weights=net.trainable_params())(Tensor(X))
    return out, float(value.asnumpy()), grad_x.asnumpy(), grad_w.asnumpy()


class TwoLayer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w1 = Parameter(Tensor(RNG_WEIGHTS.randn(4, 8).astype(np.float32) * 0.3), name="w1")
        self.w2 = Parameter(Tensor(RNG_WEIGHTS.randn(8, 6).astype(np.float32) * 0.3), name="w2")
        self.matmul1 = ops.MatMul().shard(((2, 1), (1, 2)))
        self.relu = ops.ReLU().shard(((2, 2),))
        self.matmul2 = ops.MatMul().shard(((2, 2), (2, 1)))

    def construct(self, x):
        return self.matmul2(self.relu(self.matmul1(x, self.w1)), self.w2)


def model_train(mode, sink):
    """Weights after Model.train of TwoLayer for 2 epochs of 2 batches (same initial weights per call)."""
    from sporax import dataset
    from sporax.train import Model

    global RNG_WEIGHTS
    RNG_WEIGHTS = np.random.RandomState(1)
    use(mode, 4 if mode != "stand_alone" else 1)
    net = TwoLayer()
    model = Model(net, nn.MSELoss(), nn.Momentum(net.trainable_params(), 0.05, 0.9))
    data = dataset.NumpySlicesDataset({"x": X, "y": Y}, shuffle=False).batch(4)
    model.train(2, data, dataset_sink_mode=sink)
    return net.w1.asnumpy(), net.w2.asnumpy()


def close(a, b):
    return all(np.allclose(x, y, rtol=1e-5, atol=1e-6) for x, y in zip(a, b))


def main():
    ms.set_context(mode=ms.GRAPH_MODE)
    results = {}
    use("stand_alone", 1)
    base_forward = forward_and_grads(MatMulNet())
    base_train = train(MatMulNet())
    results["standalone_collectives"] = base_train[2]
    strategies = {"rows": ((2, 1), (1, 1)), "columns": ((1, 1), (1, 2))}
    for devices in (2, 4):
        for label, strategy in strategies.items():
            for mode in ("semi_auto_parallel", "auto_parallel"):
                if mode == "auto_parallel" and devices == 2:
                    continue
                use(mode, devices)
                key = f"{mode}/{devices}/{label}"
                forward = forward_and_grads(MatMulNet(strategy))
                trained = train(MatMulNet(strategy))
                results[key] = {"forward_and_grads": close(base_forward, forward),
                                "train": close(base_train[:2], trained[:2]), "collectives": trained[2]}
            use("semi_auto_parallel", devices)
            net = MatMulNet(strategy)
            net(Tensor(X))
            results[f"forward_hlo/{devices}/{label}"] = collectives(compiled_text(net, Tensor(X)))

    # Strategies are recorded but ignored in DATA_PARALLEL (and STAND_ALONE): one device, no collectives.
    # (TrainOneStepCell in DATA_PARALLEL needs the gradient reducer; the forward program shows it.)
    use("data_parallel", 4)
    net = MatMulNet(strategies["columns"])
    forward = forward_and_grads(net)
    results["data_parallel_ignores"] = {"forward_and_grads": close(base_forward, forward),
                                        "collectives": collectives(compiled_text(net, Tensor(X))),
                                        "devices": len(net(Tensor(X))._value.sharding.device_set)}

    # A Layout strategy: rows over "dp", columns of the weight over "mp" on a (2, 2) device matrix.
    use("semi_auto_parallel", 4)
    layout = Layout((2, 2), ("dp", "mp"))
    net = MatMulNet((layout("dp", "None"), layout("None", "mp")))
    trained = train(net)
    results["layout"] = {"forward_and_grads": close(base_forward, forward_and_grads(
        MatMulNet((layout("dp", "None"), layout("None", "mp"))))), "train": close(base_train[:2], trained[:2]),
        "collectives": trained[2], "weight_spec": str(net.w._value.sharding.spec)}

    # Cell.shard on a child Cell and a parameter_plan that stores the weight column-split.
    class Outer(nn.Cell):
        def __init__(self):
            super().__init__()
            self.inner = MatMulNet()

        def construct(self, x):
            return ops.relu(self.inner(x)) * 2

    use("semi_auto_parallel", 4)
    outer = Outer()
    outer.inner.shard(in_strategy=((4, 1),), out_strategy=((4, 1),), parameter_plan={"self.inner.w": (1, 2)})
    placed = str(outer.inner.w._value.sharding.spec)
    out = outer(Tensor(X)).asnumpy()
    text = compiled_text(outer, Tensor(X))
    use("stand_alone", 1)
    expected = np.maximum(X @ W, 0) * 2
    results["cell_shard"] = {"forward": bool(np.allclose(out, expected, rtol=1e-5)), "weight_spec": placed,
                             "collectives": collectives(text)}

    # ms.shard on a function: called outside a trace it compiles with its constraints.
    use("semi_auto_parallel", 4)

    def add_scaled(x, y):
        return x * 3 + y

    sharded = ms.shard(add_scaled, in_strategy=((4, 1), (1, 4)), out_strategy=((2, 2),))
    value = sharded(Tensor(X), Tensor(Y[:, :4]))
    results["ms_shard"] = {"is_wrapper": sharded is not add_scaled,
                           "value": bool(np.allclose(value.asnumpy(), X * 3 + Y[:, :4])),
                           "spec": str(value._value.sharding.spec)}

    # Model.train (per-step and sink mode) with a two-layer network sharded three ways.
    results["model_train"] = {str(sink): close(model_train("stand_alone", sink), model_train("semi_auto_parallel", sink))
                              for sink in (False, True)}

    # ms.shard on a Cell with a parameter_plan: the Cell's Parameters are lifted through the wrapper.
    use("semi_auto_parallel", 4)
    cell = MatMulNet()
    sharded_cell = ms.shard(cell, in_strategy=((2, 1),), parameter_plan={"w": (1, 2)})
    value = sharded_cell(Tensor(X))
    results["ms_shard_cell"] = {"value": bool(np.allclose(value.asnumpy(), X @ W, rtol=1e-5)),
                                "weight_spec": str(cell.w._value.sharding.spec)}

    # Mesh axes of tuple strategies (one shared mesh of prime-size axes).
    from sporax.parallel.strategy import _tuple_sharding

    results["specs"] = {str(s): str(_tuple_sharding(s, 4).spec) for s in ((2, 1), (2, 2), (4, 1), (1, 1))}

    # Strategies that do not fit: MindSpore rejects them when the graph compiles.
    errors = {}
    for label, strategy in {"three": ((3, 1), (1, 1)), "rank": ((2,), (1, 1)), "indivisible": ((1, 1), (1, 4))}.items():
        use("semi_auto_parallel", 4)
        w_columns = MatMulNet(strategy)
        try:
            w_columns(Tensor(X))
            errors[label] = "no error"
        except Exception as error:  # noqa: BLE001 - reported to the test
            errors[label] = f"{type(error).__name__}: {error}"
    results["errors"] = errors

    # pipeline_stages=2 on 4 devices of one process: stages are not placed on devices of their own (that
    # takes one process per stage, sporax.parallel.pipeline_stages); every stage runs over the 4 devices.
    def pipeline_losses(stages):
        use("semi_auto_parallel", 4)
        ms.set_auto_parallel_context(pipeline_stages=stages)
        ms.set_seed(1)
        net = nn.SequentialCell(nn.Dense(4, 8), nn.ReLU(), nn.Dense(8, 4))
        net[0].pipeline_stage, net[1].pipeline_stage, net[2].pipeline_stage = 0, 0, 1
        step = nn.TrainOneStepCell(nn.PipelineCell(nn.WithLossCell(net, nn.MSELoss()), 2),
                                   nn.SGD(net.trainable_params(), 0.1))
        return [float(step(Tensor(X), Tensor(Y[:, :4])).asnumpy()) for _ in range(2)]

    results["pipeline_one_process"] = close(pipeline_losses(1), pipeline_losses(2))
    results["set_data_parallel"] = data_parallel_checks.results()
    json.dump(results, sys.stdout)


def across_processes():
    """Two processes x 2 devices: row and column strategies on the 4 global devices."""
    import jax

    ms.set_context(mode=ms.GRAPH_MODE)
    use("stand_alone", 1)
    base = train(MatMulNet())
    results = {"global_devices": jax.device_count(), "local_devices": jax.local_device_count()}
    for label, strategy in (("rows", ((2, 1), (1, 1))), ("columns", ((1, 1), (1, 2)))):
        use("semi_auto_parallel", 4)
        ms.set_auto_parallel_context(full_batch=True)  # every process feeds the same, whole batch
        trained = train(MatMulNet(strategy))
        results[label] = {"train": close(base[:2], trained[:2]), "collectives": trained[2]}
    # gloo writes its own lines to stdout: the result is the line that starts with RESULT.
    print("RESULT " + json.dumps(results), flush=True)
    jax.distributed.shutdown()


if __name__ == "__main__":
    if _PROCESSES:
        across_processes()
    else:
        main()
