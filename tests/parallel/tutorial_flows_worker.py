"""Runs in a subprocess with 8 host devices (test_tutorial_flows.py starts it); prints JSON results.

The API flows of MindSpore's parallel tutorial pages, written small: operator-level parallel (tuple
strategies and Layouts on ops.MatMul; mindspore.parallel.shard on mint functions), optimizer
parallel (AutoParallel.hsdp on a jit training-step function), recomputation (Cell.recompute under
AutoParallel), pipeline parallel (mindspore.parallel.nn.Pipeline + PipelineGradReducer +
AutoParallel.pipeline; the inference flow with lazy_inline, compile and
sync_pipeline_shared_parameters) and the AutoParallel searches with save_param_strategy_file.
Each parallel run is compared with the same flow on one device (no AutoParallel).
"""
import json
import os
import sys

os.environ["XLA_FLAGS"] = os.environ.get("XLA_FLAGS", "") + " --xla_force_host_platform_device_count=8"

import numpy as np  # noqa: E402

import sporax.compat  # noqa: E402

sporax.compat.install()
import mindspore as ms  # noqa: E402
from mindspore import Parameter, Tensor, lazy_inline, mint, nn, ops, sync_pipeline_shared_parameters  # noqa: E402
from mindspore.common.initializer import initializer  # noqa: E402
from mindspore.nn.utils import no_init_parameters  # noqa: E402
from mindspore.parallel.auto_parallel import AutoParallel  # noqa: E402
from mindspore.parallel.nn import Pipeline, PipelineGradReducer  # noqa: E402

from jobs.tutorial_networks import DenseNetwork, OperatorNetwork, hsdp, propagated_step, strategies  # noqa: E402

OUT = sys.argv[1]
RNG = np.random.RandomState(0)
IMAGES = RNG.rand(64, 1, 8, 8).astype(np.float32)
LABELS = RNG.randint(0, 10, 64).astype(np.int32)
ms.set_context(mode=ms.GRAPH_MODE)


def batches():
    return [(Tensor(IMAGES[start:start + 32]), Tensor(LABELS[start:start + 32])) for start in (0, 32)]


def train(make_network, parallel, configure=None, jit=False, optimizer_class=None):
    """Losses of the tutorials' value_and_grad training step over two batches (parallel: under AutoParallel)."""
    ms.set_seed(1)
    with no_init_parameters():
        net = make_network()
        optimizer = (optimizer_class or nn.SGD)(net.trainable_params(), 1e-2)
    loss_fn = nn.CrossEntropyLoss()

    def forward_fn(data, target):
        logits = net(data)
        return loss_fn(logits, target), logits

    grad_fn = ms.value_and_grad(forward_fn, None, net.trainable_params(), has_aux=True)

    def train_step(inputs, targets):
        (loss_value, _), grads = grad_fn(inputs, targets)
        optimizer(grads)
        return loss_value

    step = ms.jit(train_step) if jit else train_step
    if parallel:
        step = AutoParallel(step, parallel_mode="semi_auto")
        if configure:
            configure(step, net)
    losses = [float(step(image, label).asnumpy()) for image, label in batches()]
    return losses, net, step


class MintNetwork(nn.Cell):
    """The mint page's network: mindspore.parallel.shard on mint.matmul / relu."""

    def __init__(self, layouts=False):
        super().__init__()
        first, second = strategies(self, layouts)
        self.matmul1 = ms.parallel.shard(mint.matmul, in_strategy=first)
        self.matmul2 = ms.parallel.shard(mint.matmul, in_strategy=second)
        self.relu1 = ms.parallel.shard(mint.nn.functional.relu, in_strategy=((4, 1),))
        self.relu2 = ms.parallel.shard(mint.nn.functional.relu, in_strategy=((8, 1),))

    def construct(self, x):
        x = self.relu1(self.matmul1(mint.flatten(x, 1), self.fc1_weight))
        x = self.relu2(self.matmul2(x, self.fc2_weight))
        return mint.matmul(x, self.fc3_weight)


results = {}
for label, layouts in (("operator_tuple", False), ("operator_layout", True)):
    single = train(lambda: OperatorNetwork(layouts), False)[0]
    parallel = train(lambda: OperatorNetwork(layouts), True)[0]
    results[label] = {"single": single, "parallel": parallel}

for label, layouts in (("mint_tuple", False), ("mint_layout", True)):
    ms.set_seed(1)
    net = MintNetwork(layouts)
    image = batches()[0][0]
    single = float(mint.sum(net(image)).asnumpy())
    parallel = float(mint.sum(AutoParallel(net, parallel_mode="semi_auto")(image)).asnumpy())
    results[label] = {"single": [single], "parallel": [parallel]}


single = train(DenseNetwork, False, jit=True)[0]
parallel, net, step = train(DenseNetwork, True, configure=hsdp, jit=True)
results["optimizer_parallel"] = {"single": single, "parallel": parallel,
                                 "layer1_weight_split": str(net.layer1.weight._value.sharding.spec)}
ms.reset_auto_parallel_context()


class Block(nn.Cell):
    """The recompute page's attention-like block (smaller)."""

    def __init__(self):
        super().__init__()
        self.transpose = ops.Transpose()
        self.real_div = ops.RealDiv()
        self.batch_matmul = ops.BatchMatMul()
        self.softmax = ops.Softmax(-1)
        self.y = Parameter(initializer("ones", [2, 8, 8], ms.float32))

    def construct(self, x):
        query = self.real_div(self.transpose(x, (0, 2, 1, 3)), Tensor(2.37891))
        key = self.real_div(self.transpose(x, (0, 2, 3, 1)), Tensor(2.37891))
        scores = self.batch_matmul(query, key) + (1.0 - ops.expand_dims(self.y, 1)) * -0.0001
        return self.transpose(self.batch_matmul(self.softmax(scores), self.transpose(x, (0, 2, 1, 3))), (0, 2, 1, 3))


class Blocks(nn.Cell):
    def __init__(self, recompute):
        super().__init__()
        self.blocks = nn.CellList()
        for _ in range(3):
            block = Block()
            if recompute:
                block.recompute()
            self.blocks.append(block)

    def construct(self, x):
        for block in self.blocks:
            x = block(x)
        return x


class Grad(nn.Cell):
    def __init__(self, net):
        super().__init__()
        self.grad = ops.GradOperation()
        self.net = net

    def construct(self, x):
        return self.grad(self.net)(x)


x = Tensor(RNG.rand(2, 8, 4, 6).astype(np.float32))
with no_init_parameters():
    network = Blocks(True)
recomputed = AutoParallel(Grad(network), parallel_mode="semi_auto")(x).asnumpy()
results["recompute"] = {"single": Grad(Blocks(False))(x).asnumpy().ravel()[:16].tolist(),
                        "parallel": recomputed.ravel()[:16].tolist()}


def pipeline_losses(parallel):
    ms.reset_auto_parallel_context()
    ms.set_seed(1)
    with no_init_parameters():
        net = DenseNetwork()
        optimizer = nn.SGD(net.trainable_params(), 1e-2)
        reducer = PipelineGradReducer(optimizer.parameters, opt_shard=False)
    net_with_loss = Pipeline(nn.WithLossCell(net, nn.CrossEntropyLoss()), 4, stage_config={
        "_backbone.flatten": 0, "_backbone.layer1": 0, "_backbone.relu1": 0, "_backbone.layer2": 1,
        "_backbone.relu2": 1, "_backbone.layer3": 1})
    net_with_loss.set_train()
    grad_fn = ops.value_and_grad(lambda inputs, target: net_with_loss(inputs, target), None, optimizer.parameters)

    @ms.jit
    def train_one_step(inputs, target):
        loss, grads = grad_fn(inputs, target)
        grads = reducer(grads)
        optimizer(grads)
        return loss, grads

    step = train_one_step
    if parallel:
        step = AutoParallel(train_one_step, parallel_mode="semi_auto")
        step.pipeline(stages=2)
    return [float(step(data, label)[0].asnumpy()) for data, label in batches()]


results["pipeline"] = {"single": pipeline_losses(False), "parallel": pipeline_losses(True)}
ms.reset_auto_parallel_context()


class VocabEmbedding(nn.Cell):
    def __init__(self):
        super().__init__()
        self.embedding_table = Parameter(Tensor(RNG.rand(32, 32).astype(np.float32)), name="embedding_table")
        self.gather = ops.Gather()

    def construct(self, x):
        return self.gather(self.embedding_table, x, 0).squeeze(1), self.embedding_table.value()


class Head(nn.Cell):
    def __init__(self):
        super().__init__()
        self.matmul = ops.MatMul(transpose_b=True)

    def construct(self, state, embed):
        return self.matmul(state, embed)


class SharedNetwork(nn.Cell):
    @lazy_inline
    def __init__(self):
        super().__init__()
        self.word_embedding = VocabEmbedding()
        self.layer1 = nn.Dense(32, 32)
        self.layer2 = nn.Dense(32, 32)
        self.head = Head()

    def construct(self, x):
        x, embed = self.word_embedding(x)
        return self.head(self.layer2(self.layer1(x)), embed)


class MicroBatches(nn.Cell):
    def __init__(self, network, count):
        super().__init__()
        self.network = network
        self.count = count
        self.concat = ops.Concat()

    def construct(self, x):
        size = x.shape[0] // self.count
        return self.concat(tuple(self.network(x[size * index:size * (index + 1)]) for index in range(self.count)))


shared = SharedNetwork()
for index, cell in enumerate((shared.word_embedding, shared.layer1, shared.layer2, shared.head)):
    cell.pipeline_stage = index
inference = MicroBatches(shared, 4)
inference.set_train(False)
ids = Tensor(RNG.randint(0, 32, size=(8, 1)).astype(np.int32))
expected = inference(ids).asnumpy()
parallel_net = AutoParallel(inference, parallel_mode="semi_auto")
parallel_net.dataset_strategy("full_batch")
parallel_net.pipeline(stages=4, output_broadcast=True)
parallel_net.compile(ids)
sync_pipeline_shared_parameters(parallel_net)
results["pipeline_inference"] = {"single": expected.ravel()[:16].tolist(),
                                 "parallel": parallel_net(ids).asnumpy().ravel()[:16].tolist()}
ms.reset_auto_parallel_context()


for mode in ("sharding_propagation", "recursive_programming"):
    losses = {}
    for parallel in (False, True):
        ms.reset_auto_parallel_context()
        ms.set_seed(1)
        _, step = propagated_step()
        if parallel:
            step = AutoParallel(step, parallel_mode=mode)
            step.save_param_strategy_file(os.path.join(OUT, f"{mode}.json"))
        losses[parallel] = [float(step(data, label).asnumpy()) for data, label in batches()]
    results[mode] = {"single": losses[False], "parallel": losses[True]}
print(json.dumps(results))
