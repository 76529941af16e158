"""Cell bookkeeping members, parameter forward hooks and saved-tensor hooks (values as MindSpore 2.10 gives)."""
import numpy as np
import pytest

import sporax as ms
from sporax import Parameter, Tensor, nn, ops
from sporax.core import context
from sporax.nn.cell_internals import MixedPrecisionType


@pytest.fixture
def graph_mode():
    previous = context.get_context("mode")
    context.set_context(mode=context.GRAPH_MODE)
    yield
    context.set_context(mode=previous)


class Scaled(nn.Cell):
    def __init__(self):
        super().__init__()
        self.weight = Parameter(Tensor(2.0), name="weight")
        self.b = Parameter(Tensor(1.0), name="b")

    def construct(self, x):
        return x * self.weight + self.b


def test_cell_takes_a_keyword_argument_named_cls():
    # Detection losses take their class-loss gain as ``cls=``; MindSpore 2.10 constructs them.
    class Gains(nn.Cell):
        def __init__(self, box, cls, dfl=1.5):
            super().__init__()
            self.gains = (box, cls, dfl)

    assert Gains(7.5, cls=0.5, dfl=1.0).gains == (7.5, 0.5, 1.0)


def test_counters_init_args_and_mixed_precision_type():
    before = nn.Cell.total_instance_count
    net = nn.Dense(2, 3)
    assert nn.Cell.total_instance_count == before + 1
    assert net.cell_init_args == "Dense[2, 3]" and net.create_time > 0
    assert net.get_mixed_precision_type() is MixedPrecisionType.NOTSET
    net.to_float(ms.float16)
    assert net.get_mixed_precision_type() is MixedPrecisionType.FP16
    net.set_mixed_precision_type(MixedPrecisionType.BF16)
    assert net.get_mixed_precision_type() is MixedPrecisionType.BF16
    with pytest.raises(TypeError, match="MixedPrecisionType"):
        net.set_mixed_precision_type("fp16")
    assert "_cells" in nn.Cell.IGNORE_LIST and len(nn.Cell.global_cells) == 0


def test_compile_records_and_compile_and_run():
    net = nn.Dense(2, 3)
    x = Tensor(np.ones((1, 2), np.float32))
    assert (net.compiled, net.compile_phase, net.phase_cache, net.compile_cache) == (False, None, {}, set())
    out = net.compile_and_run(x)
    np.testing.assert_allclose(out.asnumpy(), net.construct(x).asnumpy(), rtol=1e-6)
    assert net.compiled
    assert net.compile_phase.startswith(f"train.{net.create_time}.{id(net)}.")
    assert net.phase_cache == {"train": net.compile_phase} and net.compile_cache == {net.compile_phase}
    assert b"dot" in net.get_func_graph_proto()
    with pytest.raises(RuntimeError, match="compile"):
        nn.Dense(2, 2).get_func_graph_proto()


def test_sub_cells_prefixes_scopes_and_types():
    net = nn.SequentialCell([nn.Dense(2, 2), nn.ReLU()])
    assert net.get_sub_cell("") is net and net.get_sub_cell("1") is net[1]
    with pytest.raises(AttributeError, match="Dense has no attribute `q`"):
        net.get_sub_cell("0.q")
    with pytest.raises(AttributeError, match="`weight` is not an nn.Cell"):
        net.get_sub_cell("0.weight")
    net.update_cell_prefix()
    assert [cell.param_prefix for _, cell in net.cells_and_names()] == ["", "0", "1"]
    net.generate_scope()
    assert [cell.get_scope() for _, cell in net.cells_and_names()] == [None, "Default/0-Dense", "Default/1-ReLU"]
    net.update_cell_type("quant")
    assert net.cell_type == "quant"
    net.set_broadcast_flag()
    assert net[0].get_flags()["broadcast_flag"] is True


def test_check_names_and_refresh():
    net = nn.SequentialCell([nn.Dense(2, 2), nn.Dense(2, 2)])
    net[1].weight.name = net[0].weight.name
    with pytest.raises(ValueError, match="already exists"):
        net.check_names()
    net.check_names_and_refresh_name()
    assert [p.name for p in net.get_parameters()] == ["0.weight", "0.bias", "1.weight", "1.bias"]


def test_to_empty_keeps_shapes_and_pipeline_segment_checks():
    net = nn.Dense(2, 3)
    assert net.to_empty() is net
    assert net.weight.shape == (3, 2) and net.weight.dtype == ms.float32
    with pytest.raises(AttributeError):
        net.pipeline_segment
    net.pipeline_segment = 1
    assert net.pipeline_segment == 1
    with pytest.raises(ValueError):
        net.pipeline_segment = -1
    assert net.parameter_layout_dict == {} and net.parallel_parameter_name_list == ()
    assert net.jit_config_dict == {} and net.exist_objs == set()


def test_offload_recomputes_with_unchanged_gradients():
    net = nn.Dense(3, 2)
    x = Tensor(np.random.RandomState(0).rand(4, 3).astype(np.float32))
    loss = lambda inp: ops.sin(net(inp)).sum()
    before = ms.grad(loss, None, net.trainable_params())(x)
    net.offload()
    after = ms.grad(loss, None, net.trainable_params())(x)
    for a, b in zip(before, after):
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-6)
    with pytest.raises(ValueError, match="backward_prefetch"):
        net.offload(backward_prefetch="x")
    with pytest.raises(ValueError, match=">= 0"):
        net.offload(backward_prefetch=-1)


def test_parameter_forward_hook_under_jit_and_graph_mode(graph_mode):
    net = Scaled()
    net.register_parameter_forward_hook(lambda p: p * 10)
    # MindSpore 2.10: out 70, gradients (30, 10) w.r.t. (weight, b).
    out = net(Tensor(3.0))
    assert float(out.asnumpy()) == 70.0
    context.set_context(mode=context.PYNATIVE_MODE)
    assert float(net(Tensor(3.0)).asnumpy()) == 7.0  # PyNative: no effect, as MindSpore
    value, grads = ms.jit(ms.value_and_grad(net, None, net.trainable_params()))(Tensor(3.0))
    assert float(value.asnumpy()) == 70.0 and [float(g.asnumpy()) for g in grads] == [30.0, 10.0]
    assert float(net.weight.asnumpy()) == 2.0


def test_parameter_forward_hook_list_form_and_errors():
    net = Scaled()
    net.register_parameter_forward_hook([{"params": [net.weight], "hook": lambda p: p * 10}])
    value, grad = ms.jit(ms.value_and_grad(net))(Tensor(3.0))
    assert float(value.asnumpy()) == 61.0 and float(grad.asnumpy()) == 20.0
    with pytest.raises(ValueError, match="'params' and 'hook'"):
        net.register_parameter_forward_hook([{"params": [net.weight]}])
    with pytest.raises(TypeError, match="Parameter"):
        net.register_parameter_forward_hook([{"params": [1], "hook": abs}])


def test_saved_tensors_hooks_pack_and_unpack():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.d = nn.Dense(3, 2)

        def construct(self, x):
            return ops.sin(self.d(x)).sum()

    net = Net()
    x = Tensor(np.random.RandomState(1).rand(4, 3).astype(np.float32))
    plain = ms.grad(net, None, net.trainable_params())(x)
    packed = []

    def pack(tensor):
        packed.append(tensor.shape)
        return tensor.astype(ms.float16), tensor.dtype

    net.register_saved_tensors_hooks(pack, lambda saved: saved[0].astype(saved[1]))
    compressed = ms.grad(net, None, net.trainable_params())(x)
    assert packed and all(isinstance(shape, tuple) for shape in packed)
    for a, b in zip(plain, compressed):
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), atol=5e-3)
    # The unpacked Tensors are what the backward pass uses: a wrong unpack changes the gradients.
    net.register_saved_tensors_hooks(lambda t: t * 2, lambda t: t)
    wrong = ms.grad(net, None, net.trainable_params())(x)
    assert not np.allclose(plain[0].asnumpy(), wrong[0].asnumpy())
    with pytest.raises(TypeError, match="pack_hook"):
        net.register_saved_tensors_hooks(1, abs)


def test_saved_tensors_hooks_pack_to_a_key_and_bad_unpack():
    net = nn.Dense(3, 2)
    x = Tensor(np.random.RandomState(2).rand(4, 3).astype(np.float32))
    plain = ms.grad(lambda x: ops.sin(net(x)).sum(), None, net.trainable_params())(x)
    # Offloading: pack keeps the tensor aside and hands only a key through the backward pass.
    store = {}

    def pack(tensor):
        store[len(store)] = tensor.asnumpy()
        return len(store) - 1

    net.register_saved_tensors_hooks(pack, lambda key: Tensor(store[key]))
    offloaded = ms.grad(lambda x: ops.sin(net(x)).sum(), None, net.trainable_params())(x)
    assert store
    for a, b in zip(plain, offloaded):
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-6)
    net.register_saved_tensors_hooks(lambda t: t, lambda t: 1)
    with pytest.raises(TypeError, match="'register_saved_tensors_hooks', the unpack_hook must return a Tensor"):
        ms.grad(lambda x: ops.sin(net(x)).sum(), None, net.trainable_params())(x)
    net.register_saved_tensors_hooks(lambda t: t, lambda t: t.reshape(-1))
    with pytest.raises(ValueError, match="restore the saved shape"):
        ms.grad(lambda x: ops.sin(net(x)).sum(), None, net.trainable_params())(x)
