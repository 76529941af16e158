"""One process: the communication API before init, the parallel context's legacy paths, collectives
over a world of one (both modes, with gradients), DistributedGradReducer, the launcher's flags."""
import importlib

import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, nn, ops
from sporax.core import context
from sporax.parallel import algo_parameters, comm_func, communication, context_view, launch


@pytest.fixture(autouse=True)
def _reset_parallel_context():
    context.reset_auto_parallel_context()
    yield
    context.reset_auto_parallel_context()
    ms.set_context(mode=ms.PYNATIVE_MODE)


def test_getters_before_init_answer_from_the_environment_as_mindspore(monkeypatch):
    for name in ("RANK_ID", "RANK_SIZE", "LOCAL_RANK", "LOCAL_RANK_SIZE"):
        monkeypatch.delenv(name, raising=False)
    assert (communication.get_rank(), communication.get_group_size()) == (0, 1)
    assert (communication.get_local_rank(), communication.get_local_rank_size()) == (0, 1)
    monkeypatch.setenv("RANK_ID", "3")
    monkeypatch.setenv("RANK_SIZE", "8")
    assert (communication.get_rank(), communication.get_group_size()) == (3, 8)
    with pytest.raises(TypeError, match="'get_rank'.*string"):
        communication.get_rank(0)


def test_group_functions_before_init_raise_mindsporess_runtime_error():
    message = "Distributed Communication has not been inited"
    with pytest.raises(RuntimeError, match=message):
        communication.create_group("g", [0, 1])
    with pytest.raises(RuntimeError, match=message):
        communication.get_world_rank_from_group_rank("g", 0)
    with pytest.raises(RuntimeError, match=message):
        communication.destroy_group("g")
    communication.release()  # nothing to release: no error, as MindSpore


def test_init_without_a_launcher_raises_a_runtime_error_naming_the_launcher(monkeypatch):
    for name in ("MS_SCHED_HOST", "MS_SCHED_PORT", "MS_WORKER_NUM", "MS_NODE_ID", "RANK_ID", "RANK_SIZE"):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(RuntimeError, match="sporax launch"):
        communication.init()
    with pytest.raises(TypeError, match="backend_name"):
        communication.init(1)
    assert communication.GlobalComm.INITED is False


def test_mindspore_paths_serve_the_same_objects():
    from sporax.compat import install

    install()
    management = importlib.import_module("mindspore.communication.management")
    assert management.init is communication.init and management.GlobalComm is communication.GlobalComm
    assert importlib.import_module("mindspore.communication").comm_func.all_reduce is comm_func.all_reduce
    assert importlib.import_module("mindspore.parallel._utils")._get_device_num is context_view._get_device_num
    assert importlib.import_module("mindspore.train.model").ParallelMode is context.ParallelMode
    assert importlib.import_module("mindspore.nn.wrap.grad_reducer").DistributedGradReducer is \
        nn.DistributedGradReducer
    assert importlib.import_module("mindspore.ops.operations.comm_ops").ReduceOp.SUM == "sum"
    cost_model = importlib.import_module("mindspore.parallel._cost_model_context")
    assert cost_model.get_cost_model_context("device_memory_capacity") == 17179869184.0


def test_device_num_and_rank_follow_the_parallel_mode(monkeypatch):
    monkeypatch.setenv("RANK_SIZE", "4")
    monkeypatch.setenv("RANK_ID", "2")
    view = context_view.auto_parallel_context()
    assert (context_view._get_device_num(), context_view._get_global_rank()) == (1, 0)  # stand-alone
    context.set_auto_parallel_context(parallel_mode=context.ParallelMode.DATA_PARALLEL, gradients_mean=True)
    assert (context_view._get_device_num(), context_view._get_global_rank()) == (4, 2)  # the world
    assert not view.get_device_num_is_set() and context_view._get_gradients_mean() is True
    context.set_auto_parallel_context(device_num=2)
    assert view.get_device_num_is_set() and context_view._get_device_num() == 2
    assert context_view._get_parallel_mode() == "data_parallel"
    context.reset_auto_parallel_context()
    assert not view.get_device_num_is_set() and context_view._get_parallel_mode() == "stand_alone"


def test_algo_parameters_are_validated_stored_and_reset():
    algo_parameters.set_algo_parameters(elementwise_op_strategy_follow=True, tensor_slice_align_size=8)
    assert algo_parameters.get_algo_parameters("elementwise_op_strategy_follow") is True
    assert algo_parameters.get_algo_parameters("tensor_slice_align_size") == 8
    with pytest.raises(ValueError, match="bogus"):
        algo_parameters.set_algo_parameters(bogus=1)
    with pytest.raises(TypeError, match="fully_use_devices"):
        algo_parameters.set_algo_parameters(fully_use_devices=1)
    algo_parameters.reset_algo_parameters()
    assert algo_parameters.get_algo_parameters("elementwise_op_strategy_follow") is False


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_collectives_over_a_world_of_one_return_the_input_with_gradients(mode):
    ms.set_context(mode=mode)
    x = np.arange(6, dtype=np.float32).reshape(2, 3) + 1

    class Collectives(nn.Cell):
        def __init__(self):
            super().__init__()
            self.ops = [ops.AllReduce(), ops.AllReduce(ops.ReduceOp.PROD), ops.AllGather(), ops.ReduceScatter(),
                        ops.AlltoAll(1, 1, 0), lambda t: ops.Broadcast(0)((t,))[0]]

        def construct(self, t):
            return tuple(op(t) for op in self.ops)

    for value in Collectives()(Tensor(x)):
        np.testing.assert_array_equal(value.asnumpy(), x)
    grad = ms.grad(lambda t: (ops.AllReduce()(t) ** 2).sum())(Tensor(x))
    np.testing.assert_allclose(grad.asnumpy(), 2 * x)
    out, handle = comm_func.all_reduce(Tensor(x))
    assert handle is None
    np.testing.assert_array_equal(out.asnumpy(), x)


def test_collective_arguments_are_checked():
    with pytest.raises(ValueError, match="'AllReduce'.*'op'"):
        ops.AllReduce("mean")
    with pytest.raises(TypeError, match="'AllGather'.*'group'"):
        ops.AllGather(group=1)
    with pytest.raises(ValueError, match="'AlltoAll'.*split_count"):
        ops.AlltoAll(2, 0, 0)(Tensor(np.ones((2, 2), np.float32)))
    with pytest.raises(ValueError, match="Broadcast.*root"):
        ops.Broadcast(1)((Tensor(np.ones(2, np.float32)),))
    with pytest.raises(TypeError, match="all_reduce.*tensor"):
        comm_func.all_reduce(np.ones(2))
    with pytest.raises(RuntimeError, match="not been inited"):  # a created group needs init()
        ops.AllReduce(group="no_such_group")(Tensor(np.ones(2, np.float32)))


def test_distributed_grad_reducer_divides_by_the_degree_when_mean():
    net = nn.Dense(3, 2)
    grads = tuple(Tensor(np.full(p.shape, 6.0, np.float32)) for p in net.trainable_params())
    summed = nn.DistributedGradReducer(net.trainable_params())(grads)
    assert [g.shape for g in summed] == [(2, 3), (2,)]
    np.testing.assert_array_equal(summed[0].asnumpy(), 6.0)
    averaged = nn.DistributedGradReducer(net.trainable_params(), mean=True, degree=3)(grads)
    np.testing.assert_array_equal(averaged[1].asnumpy(), 2.0)
    with pytest.raises(ValueError, match="degree"):
        nn.DistributedGradReducer(net.trainable_params(), degree=0)


def test_data_parallel_train_step_on_one_process_equals_stand_alone():
    data = Tensor(np.random.default_rng(0).normal(size=(8, 3)).astype(np.float32))
    label = Tensor(np.zeros((8, 2), np.float32))

    def one_step():
        ms.set_seed(3)
        net = nn.Dense(3, 2)
        step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.5))
        step(data, label)
        return step, net.weight.asnumpy()

    _, alone = one_step()
    context.set_auto_parallel_context(parallel_mode="data_parallel", gradients_mean=True)
    step, parallel = one_step()
    assert step.reducer_flag and isinstance(step.grad_reducer, nn.DistributedGradReducer)
    np.testing.assert_allclose(parallel, alone, rtol=1e-6)


def test_launcher_takes_msrun_flags_and_refuses_bad_ones(tmp_path, capsys, monkeypatch):
    options = launch.parse_arguments(["--worker_num=4", "--local_worker_num=2", "--node_rank=1", "--join=True",
                                      "--master_port", "9000", "train.py", "--epochs", "2"])
    assert (options.worker_num, options.local_worker_num, options.join, options.master_port) == (4, 2, True, 9000)
    assert options.task_script == "train.py" and options.task_script_args == ["--epochs", "2"]
    assert launch._worker_ranks(options) == [2, 3]
    environment = launch._worker_environment(options, 3, 1)
    assert (environment["MS_NODE_ID"], environment["RANK_ID"], environment["MS_WORKER_NUM"],
            environment["DEVICE_ID"], environment["MS_SCHED_PORT"]) == ("3", "3", "4", "1", "9000")
    # two workers on this node share its cores between their OpenMP teams; a user's own choice stays
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    monkeypatch.setattr(launch.os, "cpu_count", lambda: 8)
    assert launch._worker_environment(options, 3, 1)["OMP_NUM_THREADS"] == "4"
    monkeypatch.setenv("OMP_NUM_THREADS", "3")
    assert launch._worker_environment(options, 3, 1)["OMP_NUM_THREADS"] == "3"
    script = tmp_path / "train.py"
    script.write_text("")
    assert launch.launch(launch.parse_arguments(["--worker_num=4", "--local_worker_num=2", str(script)])) == 2
    assert "--node_rank" in capsys.readouterr().err
    assert launch.launch(launch.parse_arguments(["--worker_num=1", "--local_worker_num=1", "missing.py"])) == 2
    assert "does not exist" in capsys.readouterr().err


def test_auto_parallel_context_checks_values_as_mindspore():
    import json
    import os

    fixture = os.path.join(os.path.dirname(__file__), "..", "fixtures", "parallel", "context_checks.json")
    for record in json.load(open(fixture)):
        context.reset_auto_parallel_context()
        args = {key: tuple(map(tuple, value)) if isinstance(value, list) else value
                for key, value in record["args"].items()}
        if record["error"] is not None:
            error_type, message = record["error"]
            with pytest.raises({"ValueError": ValueError, "TypeError": TypeError}[error_type]) as caught:
                context.set_auto_parallel_context(**args)
            assert str(caught.value) == message, record
        else:
            context.set_auto_parallel_context(**args)
            key = next(iter(args))
            assert context.get_auto_parallel_context(key) == record["value"], record
            assert context.get_auto_parallel_context("full_batch") == record["full_batch"], record
