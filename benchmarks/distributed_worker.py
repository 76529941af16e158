"""One timed run of benchmarks/distributed.py: a MindSpore training script (run by sporax or MindSpore 2.10,
alone or under ``sporax launch``/``msrun``), or its hand-written multi-process JAX twin.

``python distributed_worker.py WORKLOAD PROCESSES STEPS OUT_JSON [RANK PORT]``; rank 0 writes
``{"steps_per_s": ...}`` to OUT_JSON. Workloads:

* ``dp``: the seed MLP 784-1024-1024-10, ``TrainOneStepCell`` with Momentum, GRAPH mode, batch 64
  per process; with several processes ``DATA_PARALLEL`` (gradients averaged).
* ``jax``: the same MLP and step hand-written in JAX: one ``shard_map`` program over every
  process's device with ``pmean`` of the gradients (gloo), started by the driver with RANK, PORT.
* ``semi_auto``: a MatMul-heavy model (512x512 input, 512-2048-512 MatMuls, Megatron-style
  column/row splits) in SEMI_AUTO_PARALLEL over ``device_num`` host devices of one process.
* ``pipeline``: the MLP split in 2 pipeline stages (layer1 | layer2, layer3), ``PipelineCell``
  with 4 micro-batches of 16 rows; with 1 process, every stage runs here; with 4 processes, 2 data-parallel
  processes per stage (each its own 64 rows).
"""
import json
import os
import sys
import time

WARMUP = 3  # steps run before timing (compilation included)


def _mlp_data(rows):
    import numpy as np

    generator = np.random.default_rng(0)
    return (generator.normal(size=(rows, 784)).astype(np.float32),
            generator.integers(0, 10, size=(rows,)).astype(np.int32))


def _time(step, inputs, steps):
    for _ in range(WARMUP):
        step(*inputs).asnumpy()
    start = time.perf_counter()
    for _ in range(steps):
        loss = step(*inputs)
    loss.asnumpy()
    return steps / (time.perf_counter() - start)


def mindspore_workload(workload, processes, steps):
    import numpy as np
    import mindspore as ms
    from mindspore import Tensor, nn, ops

    ms.set_context(mode=ms.GRAPH_MODE)
    if processes > 1:
        from mindspore.communication import init

        init()
    if workload == "semi_auto":
        devices = int(os.environ.get("BENCH_DEVICES", "1"))
        if devices > 1:
            ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL, device_num=devices)

        class MatMuls(nn.Cell):
            def __init__(self):
                super().__init__()
                generator = np.random.default_rng(1)
                self.w1 = ms.Parameter(Tensor(generator.normal(0, 0.02, (512, 2048)).astype(np.float32)), "w1")
                self.w2 = ms.Parameter(Tensor(generator.normal(0, 0.02, (2048, 512)).astype(np.float32)), "w2")
                self.up, self.down, self.relu = ops.MatMul(), ops.MatMul(), ops.ReLU()
                if devices > 1:  # columns of w1, rows of w2 split: one all-reduce per MatMul pair
                    self.up.shard(((1, 1), (1, devices)))
                    self.relu.shard(((1, devices),))
                    self.down.shard(((1, devices), (devices, 1)))

            def construct(self, x):
                return self.down(self.relu(self.up(x, self.w1)), self.w2)

        net = MatMuls()
        step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.Momentum(net.trainable_params(), 0.01, 0.9))
        x = np.random.default_rng(2).normal(size=(512, 512)).astype(np.float32)
        return _time(step, (Tensor(x), Tensor(x * 0.5)), steps)
    net = nn.SequentialCell(nn.Dense(784, 1024), nn.ReLU(), nn.Dense(1024, 1024), nn.ReLU(), nn.Dense(1024, 10))
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    if workload == "pipeline":
        if processes > 1:
            ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL, pipeline_stages=2,
                                         pipeline_config={"pipeline_scheduler": "gpipe"})
            for index, stage in ((0, 0), (1, 0), (2, 1), (3, 1), (4, 1)):
                net[index].pipeline_stage = stage
        network = nn.PipelineCell(nn.WithLossCell(net, loss), 4)
    else:
        if processes > 1:
            ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
        network = nn.WithLossCell(net, loss)
    step = nn.TrainOneStepCell(network, nn.Momentum(net.trainable_params(), 0.01, 0.9))
    x, y = _mlp_data(64)
    return _time(step, (Tensor(x), Tensor(y)), steps)


def jax_workload(processes, steps, rank, port):
    """The dp workload hand-written in JAX across processes (the figure sporax's compiled step is held to)."""
    import jax

    jax.config.update("jax_cpu_collectives_implementation", "gloo")
    if processes > 1:
        jax.distributed.initialize(f"127.0.0.1:{port}", num_processes=processes, process_id=rank,
                                   local_device_ids=[0])
    import numpy as np
    import jax.numpy as jnp
    from jax.sharding import Mesh, NamedSharding, PartitionSpec

    first = {}
    for device in jax.devices():
        first.setdefault(device.process_index, device)
    mesh = Mesh(np.array([first[index] for index in range(processes)]), ("world",))
    generator = np.random.default_rng(0)
    sizes = [(784, 1024), (1024, 1024), (1024, 10)]
    params = [(jnp.asarray(generator.normal(0, 0.03, shape).astype(np.float32)), jnp.zeros(shape[1], jnp.float32))
              for shape in sizes]
    velocity = jax.tree_util.tree_map(jnp.zeros_like, params)

    def loss_fn(params, x, y):
        for index, (weight, bias) in enumerate(params):
            x = x @ weight + bias
            if index < len(params) - 1:
                x = jax.nn.relu(x)
        return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(x), y[:, None], axis=1))

    def body(params, velocity, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        grads = jax.lax.pmean(grads, "world")
        velocity = jax.tree_util.tree_map(lambda v, g: 0.9 * v + g, velocity, grads)
        params = jax.tree_util.tree_map(lambda p, v: p - 0.01 * v, params, velocity)
        return params, velocity, loss.reshape(1)

    spec, whole = PartitionSpec("world"), PartitionSpec()
    train = jax.jit(jax.shard_map(body, mesh=mesh, in_specs=(whole, whole, spec, spec),
                                  out_specs=(whole, whole, spec), check_vma=False), donate_argnums=(0, 1))
    x, y = _mlp_data(64)
    device = first[rank]

    def global_array(local):
        shape = (processes * local.shape[0],) + local.shape[1:]
        return jax.make_array_from_single_device_arrays(shape, NamedSharding(mesh, spec),
                                                        [jax.device_put(local, device)])

    def replicated(value):
        return jax.make_array_from_single_device_arrays(value.shape, NamedSharding(mesh, whole),
                                                        [jax.device_put(value, device)])

    params = jax.tree_util.tree_map(replicated, params)
    velocity = jax.tree_util.tree_map(replicated, velocity)
    gx, gy = global_array(x), global_array(y)
    for _ in range(WARMUP):
        params, velocity, loss = train(params, velocity, gx, gy)
    loss.addressable_data(0).block_until_ready()
    start = time.perf_counter()
    for _ in range(steps):
        params, velocity, loss = train(params, velocity, gx, gy)
    loss.addressable_data(0).block_until_ready()
    return steps / (time.perf_counter() - start)


def main():
    workload, processes, steps, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    if workload == "jax":
        rank, port = int(sys.argv[5]), int(sys.argv[6])
        rate = jax_workload(processes, steps, rank, port)
    else:
        rate = mindspore_workload(workload, processes, steps)
        rank = 0
        if processes > 1:
            from mindspore.communication import get_rank

            rank = get_rank()
    if rank == 0:
        with open(out, "w") as file:
            json.dump({"steps_per_s": rate}, file)


if __name__ == "__main__":
    main()
