"""A 2-process job (run by tests/parallel/test_process_group.py): ``mindspore.ops``' process-group API.

Every rank writes ``result_<rank>.json`` into the folder given as argv[1].
"""
import json
import os
import sys

import numpy as np

import mindspore as ms
from mindspore import Tensor, ops

out_dir = sys.argv[1]
ms.set_context(device_target="CPU")
ops.init_process_group()
rank, size = ops.get_rank(), ops.get_world_size()
result = {"rank": rank, "size": size, "initialized": ops.is_initialized(), "backend": ops.get_backend()}


def base():
    return np.arange(6, dtype=np.float32).reshape(2, 3) + 10 * rank


def zeros(*shape):
    return Tensor(np.zeros(shape, np.float32))


x = Tensor(base())
result["all_reduce_handle"] = ops.all_reduce(x) is None
result["all_reduce"] = x.asnumpy().tolist()
x = Tensor(base())
ops.all_reduce(x, "max", async_op=True).wait()
result["all_reduce_max"] = x.asnumpy().tolist()
outputs = [zeros(2, 3), zeros(2, 3)]
ops.all_gather(outputs, Tensor(base()))
result["all_gather"] = [o.asnumpy().tolist() for o in outputs]
output = zeros(4, 3)
ops.all_gather_into_tensor(output, Tensor(base()))
result["all_gather_into_tensor"] = output.asnumpy().tolist()
output = zeros(3, 3)  # rank 0 gives 1 row, rank 1 gives 2
ops.all_gather_into_tensor_uneven(output, Tensor(base()[:rank + 1]), [1, 2])
result["all_gather_uneven"] = output.asnumpy().tolist()
output = zeros(2, 3)
ops.reduce_scatter(output, [Tensor(base()), Tensor(base() * 2)])
result["reduce_scatter"] = output.asnumpy().tolist()
output = zeros(1, 3)
ops.reduce_scatter_tensor(output, Tensor(base()))
result["reduce_scatter_tensor"] = output.asnumpy().tolist()
output = zeros(rank + 1, 3)
ops.reduce_scatter_tensor_uneven(output, Tensor(np.concatenate([base(), base()[:1]])), [1, 2])
result["reduce_scatter_uneven"] = output.asnumpy().tolist()
x = Tensor(base())
ops.reduce(x, dst=1)
result["reduce_to_1"] = x.asnumpy().tolist()
x = Tensor(base())
ops.broadcast(x, src=1)
result["broadcast_from_1"] = x.asnumpy().tolist()
ops.barrier()
output = zeros(4, 3)
ops.gather_into_tensor(output, Tensor(base()), dst=0)
result["gather_into_tensor_to_0"] = output.asnumpy().tolist()
output = zeros(1, 3)
ops.scatter_tensor(output, Tensor(base()), src=1)
result["scatter_tensor_from_1"] = output.asnumpy().tolist()
outputs = [zeros(2, 3), zeros(2, 3)]  # mint.distributed's list forms of gather and scatter
ms.mint.distributed.gather(Tensor(base()), outputs, dst=1)
result["list_gather_to_1"] = [o.asnumpy().tolist() for o in outputs]
output = zeros(2, 3)
ms.mint.distributed.scatter(output, [Tensor(base()), Tensor(base() * 2)], src=0)
result["list_scatter_from_0"] = output.asnumpy().tolist()
outputs = [zeros(1, 3), zeros(1, 3)]
ops.all_to_all(outputs, [Tensor(base()[:1]), Tensor(base()[1:])])
result["all_to_all"] = [o.asnumpy().tolist() for o in outputs]
output = zeros(2, 3)
ops.all_to_all_single(output, Tensor(base()))
result["all_to_all_single"] = output.asnumpy().tolist()
peer = 1 - rank
if rank == 0:
    ops.send(Tensor(base()), dst=1)
else:
    x = zeros(2, 3)
    result["recv_return"] = ops.recv(x, src=0)
    result["recv"] = x.asnumpy().tolist()
x = zeros(2, 3)
handles = [ops.isend(Tensor(base()), dst=peer), ops.irecv(x, src=peer)]
for handle in handles:
    handle.wait()
result["isend_irecv"] = x.asnumpy().tolist()
x = zeros(2, 3)
handles = ops.batch_isend_irecv([ops.P2POp("isend", Tensor(base() + 1), peer), ops.P2POp(ops.irecv, x, peer)])
handles[0].wait()
result["batch_isend_irecv"] = x.asnumpy().tolist()
objects = [None, None]
ops.all_gather_object(objects, {"rank": rank, "array": np.arange(rank + 2)})
result["all_gather_object"] = [[o["rank"], o["array"].tolist()] for o in objects]
objects = ["mine", rank] if rank == 1 else [None, None]
ops.broadcast_object_list(objects, src=1)
result["broadcast_object_list"] = objects
gathered = [None, None] if rank == 0 else None
ops.gather_object(("from", rank), gathered, dst=0)
result["gather_object"] = gathered
received = [None]
ops.scatter_object_list(received, [{"to": 0}, {"to": 1}] if rank == 0 else None, src=0)
result["scatter_object_list"] = received
if rank == 0:
    ops.send_object_list([1.5, "two", [3]], dst=1)
else:
    objects = [None, None, None]
    ops.recv_object_list(objects, src=0)
    result["recv_object_list"] = objects
group = ops.new_group([1, 0])
result["new_group"] = [group, ops.get_process_group_ranks(group), ops.get_group_rank(group, 1),
                       ops.get_global_rank(group, 0)]
x = Tensor(base())
ops.all_reduce(x, group=group)
result["group_all_reduce"] = x.asnumpy().tolist()
ops.destroy_process_group(group)
# the uneven and rooted collective Primitives
flat = Tensor(np.arange(rank + 1, dtype=np.float32) + 10 * rank)  # rank 0: [0], rank 1: [10, 11]
result["AllGatherV"] = ops.AllGatherV()(flat, [1, 2]).asnumpy().tolist()
result["ReduceScatterV"] = ops.ReduceScatterV()(Tensor(np.arange(3, dtype=np.float32) * (rank + 1)),
                                                [1, 2]).asnumpy().tolist()
# counts matrix [[1, 1], [2, 1]]: rank 0 sends [0] to itself and [1] to rank 1; rank 1 sends [100, 101] to
# rank 0 and [102] to itself
data = Tensor(np.arange(rank + 2, dtype=np.float32) + 100 * rank)
result["AlltoAllV"] = ops.AlltoAllV()(data, [[1, 1], [2, 1]][rank], [[1, 2], [1, 1]][rank]).asnumpy().tolist()
result["AlltoAllVC"] = ops.AlltoAllVC()(data, [1, 1, 2, 1]).asnumpy().tolist()
result["Reduce"] = ops.Reduce(1)(Tensor(base())).asnumpy().tolist()
result["CollectiveGather"] = ops.CollectiveGather(0)(Tensor(base())).asnumpy().tolist()
result["CollectiveScatter"] = ops.CollectiveScatter(1)(Tensor(base())).asnumpy().tolist()
ops.Barrier()()
outputs = ops.BatchISendIRecv(("isend", "irecv"), (peer, peer), [(2, 3)], [ms.float32])((Tensor(base() * 2),))
result["BatchISendIRecv"] = outputs[1].asnumpy().tolist()
left = Tensor(base())  # (2, 3)
right = Tensor(np.arange(12, dtype=np.float32).reshape(3, 4) + rank)
output, gathered = ops.all_gather_matmul(left, right, "mccl_world_group", 2)
result["all_gather_matmul"] = [output.asnumpy().tolist(), gathered.asnumpy().tolist()]
result["matmul_reduce_scatter"] = ops.matmul_reduce_scatter(left, right, "mccl_world_group", 2).asnumpy().tolist()
with open(os.path.join(out_dir, f"result_{rank}.json"), "w") as file:
    json.dump(result, file)
ops.destroy_process_group()
