"""Joins the job, writes ``ready_<rank>`` in argv[1], waits (at most 120 s) for ``stop`` there,
then sums the ranks with an AllReduce and writes it to ``sum_<rank>``: the job survived."""
import os
import sys
import time

import numpy as np

import mindspore as ms
from mindspore import ops
from mindspore.communication import get_rank, init

out_dir = sys.argv[1]
init()
rank = get_rank()
with open(os.path.join(out_dir, f"ready_{rank}"), "w") as file:
    file.write(str(os.getpid()))
deadline = time.monotonic() + 120
while not os.path.exists(os.path.join(out_dir, "stop")) and time.monotonic() < deadline:
    time.sleep(0.1)
total = ops.AllReduce()(ms.Tensor(np.array([rank + 1], np.float32)))
with open(os.path.join(out_dir, f"sum_{rank}"), "w") as file:
    file.write(str(float(total.asnumpy()[0])))
