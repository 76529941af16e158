"""AutoParallel's settings methods (MindSpore 2.10's set): each call sets the auto-parallel context and puts the
user's back; no_init_parameters_in_compile; argument checks; methods sporax cannot honour say so."""
import json

import numpy as np
import pytest

import sporax as ms
from sporax import Parameter, Tensor, nn
from sporax.core.initializer import initializer
from sporax.nn import no_init_parameters
from sporax.parallel.auto_parallel import AutoParallel


@pytest.fixture(autouse=True)
def clean_context():
    ms.reset_auto_parallel_context()
    yield
    ms.reset_auto_parallel_context()


class Recorder(nn.Cell):
    """A Dense that records the auto-parallel context it runs under."""

    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(3, 2)
        self.seen = {}

    def construct(self, x):
        for key in ("parallel_mode", "gradients_mean", "gradient_fp32_sync", "loss_repeated_mean",
                    "force_fp32_communication", "comm_fusion", "init_param_in_compile"):
            self.seen[key] = ms.get_auto_parallel_context(key)
        return self.dense(x)


X = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))


def test_each_call_sets_the_context_and_restores_the_users():
    ms.set_auto_parallel_context(gradients_mean=False, comm_fusion={"openstate": False})
    net = Recorder()
    parallel = AutoParallel(net, parallel_mode="sharding_propagation")
    parallel.enable_gradients_mean()
    parallel.disable_gradient_fp32_sync()
    parallel.disable_loss_repeated_mean()
    parallel.enable_fp32_communication()
    fusion = {"allreduce": {"mode": "size", "config": 32}}
    parallel.comm_fusion(fusion)
    np.testing.assert_allclose(parallel(X).asnumpy(), net.dense(X).asnumpy(), rtol=1e-6)
    assert net.seen == {"parallel_mode": "auto_parallel", "gradients_mean": True, "gradient_fp32_sync": False,
                        "loss_repeated_mean": False, "force_fp32_communication": True, "comm_fusion": fusion,
                        "init_param_in_compile": True}
    # afterwards: the user's own settings, not AutoParallel's
    assert ms.get_auto_parallel_context("parallel_mode") == "stand_alone"
    assert ms.get_auto_parallel_context("gradients_mean") is False
    assert ms.get_auto_parallel_context("comm_fusion") == {"openstate": False}
    assert ms.get_auto_parallel_context("force_fp32_communication") is False


def test_the_context_is_restored_when_the_network_raises():
    class Fails(nn.Cell):
        def construct(self, x):
            raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        AutoParallel(Fails(), parallel_mode="semi_auto")(X)
    assert ms.get_auto_parallel_context("parallel_mode") == "stand_alone"


class WithUnused(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(3, 2)
        self.unused = Parameter(initializer("normal", (4, 4), ms.float32), name="unused")

    def construct(self, x):
        return self.dense(x)


@pytest.mark.parametrize("no_init_in_compile", [False, True])
def test_no_init_parameters_in_compile_leaves_unread_weights_uninitialised(no_init_in_compile):
    with no_init_parameters():
        net = WithUnused()
    parallel = AutoParallel(net, parallel_mode="semi_auto")
    if no_init_in_compile:
        parallel.no_init_parameters_in_compile()
    out = parallel(X)
    # the weights the network reads get values either way
    np.testing.assert_allclose(out.asnumpy(), X.asnumpy() @ net.dense.weight.asnumpy().T + net.dense.bias.asnumpy(),
                               rtol=1e-5)
    assert net.unused.has_init is no_init_in_compile


def test_settings_methods_check_their_arguments():
    parallel = AutoParallel(nn.Dense(2, 2))
    with pytest.raises(TypeError, match="comm_fusion.*dict"):
        parallel.comm_fusion([1])
    parallel.comm_fusion(None)
    with pytest.raises(TypeError, match="load_param_strategy_file.*str"):
        parallel.load_param_strategy_file(3)
    with pytest.raises(TypeError, match="transformer_opt.*str or None"):
        parallel.transformer_opt(3)
    with pytest.raises(ValueError, match="readable JSON file"):
        parallel.transformer_opt("/nonexistent/parallel_speed_up.json")
    parallel.transformer_opt(None)
    for method in ("save_operator_strategy_file", "load_operator_strategy_file"):
        with pytest.raises(KeyError, match="absolute path"):
            getattr(parallel, method)("strategy.json")
        with pytest.raises(KeyError, match=".json"):
            getattr(parallel, method)("/tmp/strategy.txt")


def test_transformer_opt_takes_a_speed_up_file(tmp_path):
    path = tmp_path / "parallel_speed_up.json"
    path.write_text(json.dumps({"recomputation_communication_overlap": True}))
    parallel = AutoParallel(nn.Dense(3, 2))
    parallel.transformer_opt(str(path))
    (tmp_path / "list.json").write_text("[1]")
    with pytest.raises(ValueError, match="JSON object"):
        parallel.transformer_opt(str(tmp_path / "list.json"))


@pytest.mark.parametrize("method, args", [("save_operator_strategy_file", ("/tmp/s.json",)),
                                          ("load_operator_strategy_file", ("/tmp/s.json",)),
                                          ("set_group_ckpt_save_file", ("/tmp/group.pb",)),
                                          ("print_local_norm", ()), ("dump_local_norm", ("/tmp/norms",)),
                                          ("enable_device_local_norm", ())])
def test_what_sporax_cannot_honour_says_so(method, args):
    with pytest.raises(NotImplementedError, match=f"AutoParallel.{method}"):
        getattr(AutoParallel(nn.Dense(2, 2)), method)(*args)


def test_saved_strategy_file_can_include_non_trainable_parameters(tmp_path):
    net = nn.SequentialCell(nn.Dense(3, 4), nn.BatchNorm1d(4))
    parallel = AutoParallel(net, parallel_mode="recursive_programming")
    parallel.disable_strategy_file_only_for_trainable_params()
    parallel.save_param_strategy_file(str(tmp_path / "all.json"))
    parallel(Tensor(np.ones((2, 3), np.float32)))
    names = set(json.loads((tmp_path / "all.json").read_text())["parallel_layout_item"])
    assert {"0.weight", "1.moving_mean", "1.moving_variance"} <= names
    only = AutoParallel(nn.SequentialCell(nn.Dense(3, 4), nn.BatchNorm1d(4)), parallel_mode="recursive_programming")
    only.save_param_strategy_file(str(tmp_path / "trainable.json"))
    only(Tensor(np.ones((2, 3), np.float32)))
    assert "1.moving_mean" not in json.loads((tmp_path / "trainable.json").read_text())["parallel_layout_item"]


def test_a_stand_alone_first_compile_imports_no_parallel_search(monkeypatch):
    """Without AUTO_PARALLEL or the parallel optimizer the hook before a Cell's first compile does nothing and
    imports nothing (~10 ms of every script's first step); with the parallel optimizer it runs the sharding."""
    import sys

    from sporax.parallel import strategy

    network = nn.Dense(3, 2)
    monkeypatch.setitem(sys.modules, "sporax.parallel.auto_parallel", None)  # an import of it would raise
    strategy._search_before_first_compile(network, ())
    ms.set_auto_parallel_context(enable_parallel_optimizer=True)
    with pytest.raises(ImportError):
        strategy._search_before_first_compile(network, ())
