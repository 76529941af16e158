"""MindIR files exported by MindSpore 2.10 load with ``ms.load`` and run in ``nn.GraphCell`` with
MindSpore's outputs, in PyNative and GRAPH mode; their weights are Parameters that train."""
import os

import numpy as np
import pytest

import sporax as ms
from sporax import nn
from sporax.graph.cell_jit import compiled_cell
from sporax.io.mindir.proto import ModelProto
from tests.io.mindir.oracle import KEY, WITH_CHECKPOINT, inputs_outputs, network, path, tolerance

FIXTURES = ["lenet5", "lenet5_dynamic", "resnet", "lstm_tagger", "encoder", "while_if", "dense_fp16",
            "pool_net", "gru", "attention", "conv1d_misc", "vggish", "lstm_state", "transformer", "for_if", "half",
            "methods", "indexing", "encoder_dynamic", "lstm_tagger_dynamic", "gather_scatter",
            "int_ops", "constant_gather", *WITH_CHECKPOINT]


@pytest.fixture(params=["PYNATIVE", "GRAPH"])
def mode(request):
    ms.set_context(mode=ms.PYNATIVE_MODE if request.param == "PYNATIVE" else ms.GRAPH_MODE)
    yield request.param
    ms.set_context(mode=ms.PYNATIVE_MODE)


def _flat(value):
    if isinstance(value, (tuple, list)):  # nested outputs as record.py saves them, depth first
        return tuple(item for part in value for item in _flat(part))
    return (value,)


def _run(cell, inputs):
    return _flat(cell(*[ms.Tensor(value) for value in inputs]))


_CELLS, _MODES_RUN = {}, {}


def _shared_cell(name):
    """One GraphCell per file for the tests that leave its weights as loaded: its program, compiled in one mode,
    serves the other (a GraphCell runs the same compiled program in PyNative and GRAPH mode)."""
    if name not in _CELLS:
        _CELLS[name] = nn.GraphCell(ms.load(path(name)))
    return _CELLS[name]


@pytest.mark.parametrize("name", FIXTURES)
def test_mindspore_file_gives_mindspore_outputs(name, mode):
    inputs, expected = inputs_outputs(name)
    cell = _shared_cell(name)
    compiled = len(compiled_cell(cell).programs)
    outputs = _run(cell, inputs)
    if _MODES_RUN.setdefault(name, set()) - {mode}:  # run in the other mode: its program serves this one
        assert len(compiled_cell(cell).programs) == compiled
    _MODES_RUN[name].add(mode)
    assert len(outputs) == len(expected)
    for out, want in zip(outputs, expected):
        assert out.asnumpy().dtype == want.dtype
        np.testing.assert_allclose(out.asnumpy(), want, **tolerance(name))


def test_parameters_carry_mindspore_names_and_values():
    graph = ms.load(path("resnet"))
    cell = nn.GraphCell(graph)
    names = [parameter.name for parameter in cell.get_parameters()]
    assert names == list(graph.parameters)  # the file's order
    assert sorted(names) == sorted(parameter.name for parameter in network("resnet").get_parameters())
    assert all(isinstance(parameter, ms.Parameter) for parameter in cell.get_parameters())
    np.testing.assert_array_equal(cell.parameters_dict()["layer2.bn1.moving_variance"].asnumpy(),
                                  graph.parameters["layer2.bn1.moving_variance"])


def test_dynamic_batch_runs_other_batch_sizes(mode):
    (x,), (y,) = inputs_outputs("lenet5_dynamic")
    cell = _shared_cell("lenet5_dynamic")
    assert cell.graph.input_shapes == [(-1, 1, 32, 32)]
    np.testing.assert_allclose(cell(ms.Tensor(x[:2])).asnumpy(), y[:2], rtol=1e-4, atol=1e-5)
    doubled = cell(ms.Tensor(np.concatenate([x, x]))).asnumpy()
    np.testing.assert_allclose(doubled, np.concatenate([y, y]), rtol=1e-4, atol=1e-5)


def test_params_init_replaces_weights():
    (x,), (y,) = inputs_outputs("lenet5")
    graph = ms.load(path("lenet5"))
    zero_bias = np.zeros(10, np.float32)
    cell = nn.GraphCell(graph, params_init={"fc3.bias": ms.Tensor(zero_bias)})
    np.testing.assert_allclose(cell(ms.Tensor(x)).asnumpy(), y - graph.parameters["fc3.bias"],
                               rtol=1e-4, atol=1e-5)


def test_while_loop_runs_the_data_dependent_trip_count(mode):
    (x, n), _ = inputs_outputs("while_if")
    cell = _shared_cell("while_if")
    graph = cell.graph
    weight, bias = graph.parameters["dense.weight"], graph.parameters["dense.bias"]
    for trips in (0, 1, 5):
        expected = x.astype(np.float64)
        for _ in range(trips):
            expected = (expected @ weight.T + bias) * 0.5
        expected = expected * 2 if expected.sum() > 0 else expected - 1
        out = cell(ms.Tensor(x), ms.Tensor(np.array(trips, np.int32))).asnumpy()
        np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-6)


def test_encrypted_file_needs_its_key():
    inputs, (y,) = inputs_outputs("dense_encrypted")
    out = nn.GraphCell(ms.load(path("dense_encrypted"), dec_key=KEY))(ms.Tensor(inputs[0]))
    np.testing.assert_allclose(out.asnumpy(), y, rtol=1e-2, atol=1e-3)
    with pytest.raises(ValueError, match="encrypted.*dec_key"):
        ms.load(path("dense_encrypted"))
    with pytest.raises(ValueError, match="wrong dec_key"):
        ms.load(path("dense_encrypted"), dec_key=b"fedcba9876543210")


def test_graph_cell_trains_and_its_checkpoint_loads_into_the_python_network(mode, tmp_path):
    (x,), _ = inputs_outputs("lenet5")
    cell = nn.GraphCell(ms.load(path("lenet5")))
    labels = ms.Tensor(np.array([3, 7], np.int32))
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(cell, loss_fn), nn.SGD(cell.trainable_params(), 0.1))
    before = cell.parameters_dict()["fc3.weight"].asnumpy().copy()
    first = float(step(ms.Tensor(x), labels).asnumpy())
    second = float(step(ms.Tensor(x), labels).asnumpy())
    assert second < first
    assert not np.allclose(cell.parameters_dict()["fc3.weight"].asnumpy(), before)
    ms.save_checkpoint(cell, str(tmp_path / "tuned.ckpt"))
    net = network("lenet5")
    not_loaded = ms.load_param_into_net(net, ms.load_checkpoint(str(tmp_path / "tuned.ckpt")))
    assert not any(not_loaded)
    np.testing.assert_allclose(net(ms.Tensor(x)).asnumpy(), cell(ms.Tensor(x)).asnumpy(), rtol=1e-5, atol=1e-6)


def _edited_copy(name, tmp_path, edit):
    model = ModelProto()
    with open(path(name), "rb") as handle:
        model.ParseFromString(handle.read())
    edit(model)
    target = tmp_path / f"{name}.mindir"
    target.write_bytes(model.SerializeToString())
    return str(target)


def test_unknown_primitive_names_op_node_scope_and_file(tmp_path):
    def rename_relu(model):
        for primitive in model.primitives:
            if primitive.op_type == "ReLU":
                primitive.op_type = "NoSuchOp"

    graph = ms.load(_edited_copy("lenet5", tmp_path, rename_relu))
    (x,), _ = inputs_outputs("lenet5")
    with pytest.raises(NotImplementedError) as info:
        nn.GraphCell(graph)(ms.Tensor(x))
    message = str(info.value)
    for part in ("NoSuchOp", "lenet5.mindir", "CNode", "Default/relu-ReLU"):
        assert part in message


def test_weights_in_external_data_files(tmp_path):
    """MindSpore's layout for models over 1 GiB: a 64-byte header, then the weights sorted by name,
    each padded to 64 bytes, in ``<name>_variables/data_0`` (formats.md C.3)."""
    reference = ms.load(path("lenet5"))
    (tmp_path / "lenet5_variables").mkdir()
    blob, offsets = bytearray(b"\x01" + bytes(63)), {}
    for key in sorted(reference.parameters):
        raw = reference.parameters[key].tobytes()
        offsets[key] = (len(blob), len(raw))
        blob += raw + bytes(-len(raw) % 64)
    (tmp_path / "lenet5_variables" / "data_0").write_bytes(bytes(blob))

    def externalise(model):
        for tensor in model.graph.parameter:
            offset, length = offsets[tensor.ref_key]
            tensor.ClearField("raw_data")
            tensor.external_data.location = "lenet5_variables/data_0"
            tensor.external_data.offset, tensor.external_data.length = offset, length

    graph = ms.load(_edited_copy("lenet5", tmp_path, externalise))
    for key, value in reference.parameters.items():
        np.testing.assert_array_equal(graph.parameters[key], value)
    os.remove(tmp_path / "lenet5_variables" / "data_0")
    with pytest.raises(ValueError, match="external data file.*does not exist"):
        ms.load(str(tmp_path / "lenet5.mindir"))


def test_damaged_file_is_a_clear_error(tmp_path):
    bad = tmp_path / "bad.mindir"
    bad.write_bytes(open(path("lenet5"), "rb").read()[:1000])
    with pytest.raises(RuntimeError, match="bad.mindir"):  # MindSpore 2.10: RuntimeError "Load MindIR failed."
        ms.load(str(bad))


def test_gradient_through_a_loop_with_a_constant_trip_count():
    """The loop of while_if.mindir runs in Python when its trip count is a constant, so reverse-mode
    gradients of the weights exist; they match central differences of the NumPy model."""
    (x, _), _ = inputs_outputs("while_if")
    graph = ms.load(path("while_if"))
    cell = nn.GraphCell(graph)

    class Loss(nn.Cell):
        def __init__(self):
            super().__init__()
            self.cell = cell

        def construct(self, inputs):
            return (self.cell(inputs, ms.Tensor(np.array(3, np.int32))) ** 2).sum()

    weights = cell.trainable_params()
    _, grads = ms.value_and_grad(Loss(), None, weights)(ms.Tensor(x))

    def loss(weight, bias):
        value = x.astype(np.float64)
        for _ in range(3):
            value = (value @ weight.T + bias) * 0.5
        value = value * 2 if value.sum() > 0 else value - 1
        return (value ** 2).sum()

    weight, bias = graph.parameters["dense.weight"].astype(np.float64), graph.parameters["dense.bias"].astype(np.float64)
    step = 1e-4
    numeric_bias = np.array([(loss(weight, bias + step * unit) - loss(weight, bias - step * unit)) / (2 * step)
                             for unit in np.eye(4)])
    (bias_grad,) = [grad.asnumpy() for parameter, grad in zip(weights, grads) if parameter.name.endswith("dense.bias")]
    np.testing.assert_allclose(bias_grad, numeric_bias, rtol=1e-3, atol=1e-4)


def test_constant_indices_of_a_gather_compile_into_one_program(recwarn):
    # the range check of a gather's indices reads the graph's constant without staging it (was a tracer, and the
    # loaded graph ran eagerly op by op)
    inputs, expected = inputs_outputs("constant_gather")
    outputs = _run(nn.GraphCell(ms.load(path("constant_gather"))), inputs)
    assert not [w for w in recwarn if "eagerly" in str(w.message)]
    np.testing.assert_allclose(outputs[2].asnumpy(), expected[2])


@pytest.mark.parametrize("arguments", [
    [np.ones((2, 4), np.float32)],        # MindSpore 2.10: RuntimeError "... 'MatMul' the input dimensions ..."
    [np.ones((2, 3), np.int32)],          # RuntimeError "For 'MatMul', the type of 'x2' should be same as 'x1'"
    [np.ones((2, 3), np.float32), 1.0],   # RuntimeError "The input number of parameters is not Compatible."
    [],
])
def test_graph_cell_on_wrong_inputs_raises_runtime_error(tmp_path, arguments):
    """A script catching MindSpore's RuntimeError around a GraphCell call catches sporax's too."""
    ms.export(nn.Dense(3, 2), ms.Tensor(np.ones((2, 3), np.float32)), file_name=str(tmp_path / "dense"),
              file_format="MINDIR")
    cell = nn.GraphCell(ms.load(str(tmp_path / "dense.mindir")))
    assert cell(ms.Tensor(np.ones((4, 3), np.float32))).shape == (4, 2)
    with pytest.raises(RuntimeError, match="dense.mindir"):
        cell(*[ms.Tensor(value) for value in arguments])


def test_load_of_a_damaged_file_raises_runtime_error(tmp_path):
    (tmp_path / "bad.mindir").write_bytes(b"garbage")  # MindSpore 2.10: RuntimeError "Load MindIR failed."
    with pytest.raises(RuntimeError, match="bad.mindir: byte 0"):
        ms.load(str(tmp_path / "bad.mindir"))
