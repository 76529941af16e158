"""A 2-process DATA_PARALLEL training job whose rank 1 dies mid-training: argv[2] is "kill"
(SIGKILL) or "raise" (an uncaught exception).

Each rank writes its pid to ``pid_<rank>`` in argv[1]; rank 0 then keeps training and would wait
forever in the gradient AllReduce for its dead peer, unless the launcher stops it.
"""
import os
import signal
import sys

import numpy as np

import mindspore as ms
from mindspore import nn
from mindspore.communication import get_group_size, get_rank, init
from mindspore.train import Callback, Model

out_dir = sys.argv[1]
init()
rank = get_rank()
with open(os.path.join(out_dir, f"pid_{rank}"), "w") as file:
    file.write(str(os.getpid()))
ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)


class KillRank1(Callback):
    def on_train_step_end(self, run_context):
        if rank == 1 and run_context.original_args().cur_step_num == 3:
            if sys.argv[2] == "kill":
                os.kill(os.getpid(), signal.SIGKILL)
            raise ValueError("rank 1 failed at step 3")


data = np.random.default_rng(0).normal(size=(4000, 4)).astype(np.float32)
labels = (data.sum(axis=1) > 0).astype(np.int32)
dataset = ms.dataset.NumpySlicesDataset({"data": data, "label": labels}, shuffle=False,
                                        num_shards=get_group_size(), shard_id=rank).batch(4)
net = nn.Dense(4, 2)
model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
              nn.SGD(net.trainable_params(), 0.1))
model.train(100, dataset, callbacks=[KillRank1()], dataset_sink_mode=False)
