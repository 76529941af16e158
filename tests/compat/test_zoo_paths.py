"""Import paths of the MindSpore model zoo (mindspore-ai/models, official/, beyond the 20 models in
../shared/external/zoo): every statement the zoo uses that works on MindSpore 2.10 works under sporax,
and the private names the zoo subclasses or calls behave as MindSpore's."""
import importlib
import json
import os
import types

import numpy as np
import pytest

import sporax
from tests.compat.test_hook import hook  # noqa: F401 - the shared install/uninstall fixture

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "fixtures", "zoo")
with open(os.path.join(FIXTURES, "import_statements.txt"), encoding="utf-8") as _file:
    STATEMENTS = [line.strip() for line in _file if line.strip()]


def test_the_recorded_statements_were_found():
    assert len(STATEMENTS) > 50


@pytest.mark.parametrize("statement", STATEMENTS)
def test_zoo_statement_resolves(hook, statement):
    # Each was recorded working on MindSpore 2.10 (record_imports.py).
    exec(statement, {})


@pytest.mark.parametrize("statement, module, name", [
    ("import mindspore.nn.optim.thor", "mindspore.nn.optim", "thor"),
    ("import mindspore.train.metrics.auc", "mindspore.train.metrics", "auc"),
    ("import mindspore.ops.op_info_register", "mindspore.ops", "op_info_register"),
    ("import mindspore.common.recompute", "mindspore.common", "recompute"),
    ("import mindspore.parallel.shard", "mindspore.parallel", "shard"),
])
def test_function_shadows_its_same_named_module(hook, statement, module, name):
    # MindSpore 2.10 binds these names to the function even after the submodule is imported
    # (ResNet's `from mindspore.nn.optim import thor` then calls thor(net, ...)).
    exec(statement, {})
    value = getattr(importlib.import_module(module), name)
    assert callable(value) and not isinstance(value, types.ModuleType)
    namespace = {}
    exec(f"from {module} import {name}", namespace)
    assert namespace[name] is value


def test_module_behind_a_shadowed_name_still_imports(hook):
    from mindspore.nn.optim.thor import thor
    assert thor is sporax.nn.thor
    from mindspore.ops.op_info_register import TBERegOp
    assert TBERegOp is sporax.ops.TBERegOp


def test_private_loss_base_of_the_zoo(hook):
    from mindspore.nn.loss.loss import _Loss

    class L1(_Loss):
        def construct(self, logits, labels):
            return self.get_loss(sporax.ops.abs(logits - labels))

    assert issubclass(_Loss, sporax.nn.LossBase)
    loss = L1()(sporax.Tensor(np.array([1.0, 2.0, 4.0], np.float32)), sporax.Tensor(np.zeros(3, np.float32)))
    np.testing.assert_allclose(loss.asnumpy(), 7.0 / 3.0, rtol=1e-6)
    assert L1(reduction="sum")(sporax.Tensor([1.0, -2.0]), sporax.Tensor([0.0, 0.0])).asnumpy() == 3.0


def test_private_layer_bases_are_the_ones_sporax_layers_derive_from(hook):
    from mindspore.nn.layer.conv import _Conv
    from mindspore.nn.layer.normalization import _BatchNorm
    assert issubclass(sporax.nn.Conv2d, _Conv)
    assert issubclass(sporax.nn.BatchNorm2d, _BatchNorm)


def test_private_names_stay_off_the_public_package(hook):
    import mindspore.nn
    with pytest.raises(AttributeError, match="_Loss"):
        mindspore.nn._Loss  # noqa: B018 - only the legacy module path serves it


def test_virtual_dataset_cells_pass_inputs_through(hook):
    from mindspore.nn.wrap.cell_wrapper import VirtualDatasetCellTriple, _VirtualDatasetCell

    class Sum3(sporax.nn.Cell):
        def __init__(self):
            super().__init__()
            self.dense = sporax.nn.Dense(2, 1, weight_init="ones", bias_init="zeros")

        def construct(self, a, b, c):
            return self.dense(a + b + c)

    a = sporax.Tensor(np.array([[1.0, 2.0]], np.float32))
    for wrapper in (_VirtualDatasetCell, VirtualDatasetCellTriple):
        net = wrapper(Sum3())
        # auto_prefix=False: the names stay the backbone's, as MindSpore records them
        assert [p.name for p in net.trainable_params()] == ["dense.weight", "dense.bias"]
        np.testing.assert_allclose(net(a, a, a).asnumpy(), [[9.0]])
    with pytest.raises(TypeError, match="backbone"):
        _VirtualDatasetCell(lambda x: x)


def test_multi_subgraphs_flag_round_trips(hook):
    from mindspore.parallel._cost_model_context import _get_multi_subgraphs, _set_multi_subgraphs
    assert _get_multi_subgraphs() is False
    try:
        _set_multi_subgraphs()
        assert _get_multi_subgraphs() is True
    finally:
        _set_multi_subgraphs(False)


def test_tbe_registration_matches_mindspore(hook):
    from mindspore.ops import op_info_register
    from mindspore.ops.op_info_register import DataType, TBERegOp
    info = (TBERegOp("CusSquare").fusion_type("OPAQUE").async_flag(False).binfile_name("square.so")
            .compute_cost(10).kernel_name("CusSquareImpl").partial_flag(True).op_pattern("formatAgnostic")
            .dynamic_shape(True).reshape_type("NC").input(0, "x", False, "required", "all")
            .input(1, "axis", None, "optional", None, value_depend="ignored")
            .output(0, "y", True, "required", "all").attr("axis", "required", "listInt", "all")
            .real_input_index([1, 0]).unknown_shape_formats(["ND", "ND", "ND"])
            .dtype_format(DataType.F32_Default, DataType.I32_Default, DataType.F32_Default)
            .dtype_format(DataType.F16_5HD, DataType.I32_Default, DataType.F16_5HD).get_op_info())
    with open(os.path.join(FIXTURES, "tbe_op_info.json"), encoding="utf-8") as file:
        recorded = json.load(file)  # MindSpore 2.10's dict for the same calls
    assert json.loads(json.dumps(info)) == recorded
    assert list(info) == list(recorded)

    @op_info_register(info)
    def _square_tbe(x):
        return x * x

    assert _square_tbe(3) == 9 and _square_tbe.__name__ == "_square_tbe"
    with pytest.raises(TypeError, match="bool"):
        TBERegOp("X").async_flag(1)
    with pytest.raises(ValueError, match="Invalid op info"):
        op_info_register("{not json")(lambda: None)


def test_tensor_add_is_the_legacy_add(hook):
    from mindspore.ops import TensorAdd
    out = TensorAdd()(sporax.Tensor([1.0, 2.0]), sporax.Tensor([3.0, 4.0]))
    np.testing.assert_allclose(out.asnumpy(), [4.0, 6.0])


def test_runtime_namespace_serves_sporax_runtime(hook):
    # the debugging tutorial's first cell: mindspore.runtime.launch_blocking()
    import mindspore
    import mindspore.runtime
    assert mindspore.runtime.launch_blocking is sporax.launch_blocking
    assert mindspore.runtime.synchronize is sporax.synchronize
    mindspore.runtime.synchronize()


def test_legacy_identity_primitive(hook):
    # Pangu-Alpha's GlobalNorm: self.merge_op = P.identity() in data-parallel mode
    from mindspore.ops import operations as P
    value = sporax.Tensor(np.array([1.0, 2.0], np.float32))
    assert P.identity()(value) is value
    assert sporax.ops.identity(value).asnumpy().tolist() == [1.0, 2.0]  # the function form is unchanged
