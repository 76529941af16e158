"""``export(..., file_format="MINDIR")`` writes ModelProtos that real MindSpore 2.10 loads and runs
with sporax's outputs (a subprocess on the oracle's interpreter), and that sporax loads back."""
import os

import numpy as np
import pytest

import sporax as ms
from sporax import nn, ops
from sporax.io.mindir import writer
from tests.io.mindir.mindspore_runner import needs_mindspore, run_on_mindspore
from tests.io.mindir.oracle import WITH_CHECKPOINT, inputs_outputs, network, path

# the six kinds (12 runs: both modes), then more op coverage (end-to-end: marked slow)
CORE = ["lenet5", "resnet", "lstm_tagger", "encoder", "while_if", "dense_fp16", "gather_scatter"]
MORE = ["pool_net", "gru", "attention", "conv1d_misc", "vggish", "lstm_state", "transformer", "for_if", "half",
        "methods", "indexing", *WITH_CHECKPOINT]
NETWORKS = CORE + [pytest.param(name, marks=pytest.mark.slow) for name in MORE]
MODES = {"PYNATIVE": ms.PYNATIVE_MODE, "GRAPH": ms.GRAPH_MODE}


def _flat(value):
    if isinstance(value, (tuple, list)):
        return [array for item in value for array in _flat(item)]
    return [value.asnumpy()]


def trained_network(name):
    """The Python network with the weights MindSpore exported (so the outputs are the fixture's)."""
    net = network(name)
    weights = ms.load(path(name)).parameters
    ms.load_param_into_net(net, {key: ms.Parameter(ms.Tensor(value), name=key) for key, value in weights.items()})
    net.set_train(False)
    return net


def _tolerance(outputs):
    return dict(rtol=1e-2, atol=1e-3) if outputs[0].dtype == np.float16 else dict(rtol=1e-4, atol=1e-5)


def _selected(request):
    """The networks the collected tests of this module ask for (slow ones only when selected)."""
    wanted = {item.callspec.params["name"] for item in request.session.items
              if item.module is request.module and hasattr(item, "callspec") and "name" in item.callspec.params}
    return [name for name in CORE + MORE if name in wanted]


@pytest.fixture(scope="module")
def exported(tmp_path_factory, request):
    """The networks exported in both modes, with sporax's outputs and MindSpore's (one subprocess)."""
    folder = tmp_path_factory.mktemp("mindir_export")
    cases, jobs = {}, []
    for mode_name, mode in MODES.items():
        ms.set_context(mode=mode)
        try:
            for name in _selected(request):
                inputs, _ = inputs_outputs(name)
                net = trained_network(name)
                expected = _flat(net(*[ms.Tensor(value) for value in inputs]))
                file_name = str(folder / f"{name}_{mode_name}")
                ms.export(net, *[ms.Tensor(value) for value in inputs], file_name=file_name, file_format="MINDIR")
                cases[(name, mode_name)] = (file_name + ".mindir", inputs, expected)
                jobs.append((file_name + ".mindir", inputs, None))
        finally:
            ms.set_context(mode=ms.PYNATIVE_MODE)
    results = run_on_mindspore(jobs, str(folder)) if os.path.exists(_python()) else [None] * len(jobs)
    return {key: case + (result,) for (key, case), result in zip(cases.items(), results)}


def _python():
    from tests.io.mindir.mindspore_runner import PYTHON

    return PYTHON


@needs_mindspore
@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("name", NETWORKS)
def test_mindspore_runs_sporax_export_with_sporax_outputs(exported, name, mode):
    _, _, expected, result = exported[(name, mode)]
    assert not isinstance(result, str), f"MindSpore could not run sporax's {name}.mindir: {result}"
    assert len(result) == len(expected)
    for got, want in zip(result, expected):
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_allclose(got, want, **_tolerance(expected))


@pytest.mark.parametrize("name", NETWORKS)
def test_sporax_loads_its_export(exported, name):
    file_name, inputs, expected, _ = exported[(name, "PYNATIVE")]
    outputs = _flat(nn.GraphCell(ms.load(file_name))(*[ms.Tensor(value) for value in inputs]))
    for got, want in zip(outputs, expected):
        np.testing.assert_allclose(got, want, **_tolerance(expected))


@needs_mindspore
def test_dynamic_batch_and_data_dependent_loops_on_mindspore(tmp_path):
    lenet = trained_network("lenet5")
    ms.export(lenet, ms.Tensor(shape=[None, 1, 32, 32], dtype=ms.float32), file_name=str(tmp_path / "dynamic"))
    loop = trained_network("while_if")
    (x, _), _ = inputs_outputs("while_if")
    ms.export(loop, ms.Tensor(x), ms.Tensor(np.array(1, np.int32)), file_name=str(tmp_path / "loop"))
    rng = np.random.default_rng(3)
    batches = [rng.standard_normal((size, 1, 32, 32)).astype(np.float32) for size in (1, 5)]
    trips = [np.array(count, np.int32) for count in (0, 2, 6)]
    jobs = [(tmp_path / "dynamic.mindir", [batch], None) for batch in batches]
    jobs += [(tmp_path / "loop.mindir", [x, count], None) for count in trips]
    results = run_on_mindspore(jobs, str(tmp_path))
    for batch, result in zip(batches, results[:2]):
        assert not isinstance(result, str), result
        np.testing.assert_allclose(result[0], lenet(ms.Tensor(batch)).asnumpy(), rtol=1e-4, atol=1e-5)
    for count, result in zip(trips, results[2:]):
        assert not isinstance(result, str), result
        np.testing.assert_allclose(result[0], loop(ms.Tensor(x), ms.Tensor(count)).asnumpy(), rtol=1e-4, atol=1e-5)
    from sporax.io.mindir.proto import ModelProto

    model = ModelProto()
    model.ParseFromString((tmp_path / "dynamic.mindir").read_bytes())
    assert list(model.graph.input[0].tensor[0].dims) == [-1, 1, 32, 32]


DYNAMIC = ["lenet5", "resnet", "lstm_tagger", "encoder", "dense_fp16", "pool_net", "gru", "attention", "vggish", "half"]


@needs_mindspore
@pytest.mark.slow
def test_dynamic_batch_exports_run_three_times_the_batch_on_mindspore(tmp_path):
    jobs, expected = [], []
    for name in DYNAMIC:
        inputs, _ = inputs_outputs(name)
        net = trained_network(name)
        specs = [ms.Tensor(shape=[None, *value.shape[1:]], dtype=ms.Tensor(value).dtype) for value in inputs]
        ms.export(net, *specs, file_name=str(tmp_path / name))
        tripled = [np.concatenate([value] * 3) for value in inputs]
        jobs.append((tmp_path / f"{name}.mindir", tripled, None))
        expected.append(_flat(net(*[ms.Tensor(value) for value in tripled])))
    for name, result, want in zip(DYNAMIC, run_on_mindspore(jobs, str(tmp_path)), expected):
        assert not isinstance(result, str), f"{name}: {result}"
        for got, value in zip(result, want):
            assert got.shape == value.shape, name
            np.testing.assert_allclose(got, value, **_tolerance(want))


@needs_mindspore
def test_round_trip_mindspore_file_through_sporax(tmp_path):
    """MindSpore's file, loaded in sporax and exported again, runs on MindSpore with equal outputs."""
    jobs, expected = [], []
    for name in ("resnet", "while_if", "lstm_tagger"):
        inputs, outputs = inputs_outputs(name)
        cell = nn.GraphCell(ms.load(path(name)))
        ms.export(cell, *[ms.Tensor(value) for value in inputs], file_name=str(tmp_path / name))
        jobs.append((tmp_path / f"{name}.mindir", inputs, None))
        expected.append(outputs)
    for result, outputs in zip(run_on_mindspore(jobs, str(tmp_path)), expected):
        assert not isinstance(result, str), result
        for got, want in zip(result, outputs):
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


def test_encrypted_export(tmp_path):
    net = trained_network("dense_fp16")
    (x,), (y,) = inputs_outputs("dense_fp16")
    key = b"sixteen byte key"
    ms.export(net, ms.Tensor(x), file_name=str(tmp_path / "secret"), enc_key=key)
    with pytest.raises(ValueError, match="dec_key"):
        ms.load(str(tmp_path / "secret.mindir"))
    out = nn.GraphCell(ms.load(str(tmp_path / "secret.mindir"), dec_key=key))(ms.Tensor(x))
    np.testing.assert_allclose(out.asnumpy(), y, rtol=1e-2, atol=1e-3)
    if os.path.exists(_python()):
        (result,) = run_on_mindspore([(tmp_path / "secret.mindir", [x], key)], str(tmp_path))
        assert not isinstance(result, str), result
        np.testing.assert_allclose(result[0], out.asnumpy(), rtol=1e-2, atol=1e-3)


def test_weights_over_the_threshold_go_to_external_data(tmp_path, monkeypatch):
    """MindSpore's layout (formats.md C.3); the 1 GiB threshold is lowered so the test stays small."""
    monkeypatch.setattr(writer, "EXTERNAL_DATA_THRESHOLD", 1024)
    net = trained_network("lenet5")
    (x,), (y,) = inputs_outputs("lenet5")
    ms.export(net, ms.Tensor(x), file_name=str(tmp_path / "big"))
    assert not (tmp_path / "big.mindir").exists()
    data = (tmp_path / "big_variables" / "data_0").read_bytes()
    assert data[0] == 1 and data[1:64] == bytes(63)
    from sporax.io.mindir.proto import ModelProto

    model = ModelProto()
    model.ParseFromString((tmp_path / "big_graph.mindir").read_bytes())
    placed = sorted((tensor.ref_key, tensor.external_data.offset, tensor.external_data.length)
                    for tensor in model.graph.parameter)
    assert [offset for _, offset, _ in placed] == sorted(offset for _, offset, _ in placed)  # sorted by name
    weights = dict(net.parameters_and_names())
    for key, offset, length in placed:
        assert offset % 64 == 0 and not model.graph.parameter[0].raw_data
        np.testing.assert_array_equal(np.frombuffer(data[offset:offset + length], np.float32),
                                      weights[key].asnumpy().ravel())
    out = nn.GraphCell(ms.load(str(tmp_path / "big_graph.mindir")))(ms.Tensor(x))
    np.testing.assert_allclose(out.asnumpy(), y, rtol=1e-4, atol=1e-5)
    if os.path.exists(_python()):
        (result,) = run_on_mindspore([(tmp_path / "big_graph.mindir", [x], None)], str(tmp_path))
        assert not isinstance(result, str), result
        np.testing.assert_allclose(result[0], y, rtol=1e-4, atol=1e-5)


def test_unsupported_operation_names_it_and_leaves_no_file(tmp_path):
    class Sorting(nn.Cell):
        def construct(self, x):
            return ms.ops.sort(x)[0]

    with pytest.raises(ValueError, match="'sort'.*ONNX"):
        ms.export(Sorting(), ms.Tensor(np.ones((2, 3), np.float32)), file_name=str(tmp_path / "sorting"))
    assert os.listdir(tmp_path) == []


class _ConvPool(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 3, 3, pad_mode="valid", weight_init="normal")
        self.pool = nn.MaxPool2d(kernel_size=2, stride=2)

    def construct(self, x):
        return self.pool(ms.ops.relu(self.conv(x))).sum()


class _WeightGradients(nn.Cell):
    """A LeNet-like step's backward: a convolution's weight gradient (batch and channels swapped) and a
    pooling gradient (interior padding), both of which MindIR writes in NCHW with a plain Pad."""

    def __init__(self, net):
        super().__init__()
        self.net = net
        self.weights = ms.ParameterTuple(net.trainable_params())
        self.grad = ms.ops.GradOperation(get_by_list=True)

    def construct(self, x):
        return self.grad(self.net, self.weights)(x)


def test_a_gradient_network_exports_and_runs_as_computed(tmp_path):
    ms.set_seed(0)
    net = _WeightGradients(_ConvPool())
    x = np.random.default_rng(0).standard_normal((2, 1, 8, 8)).astype(np.float32)
    expected = _flat(net(ms.Tensor(x)))
    file_name = str(tmp_path / "gradients")
    ms.export(net, ms.Tensor(x), file_name=file_name, file_format="MINDIR")
    for got, want in zip(_flat(nn.GraphCell(ms.load(file_name + ".mindir"))(ms.Tensor(x))), expected):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    if os.path.exists(_python()):  # and MindSpore 2.10 runs the file to the same gradients
        (result,) = run_on_mindspore([(file_name + ".mindir", [x], None)], str(tmp_path))
        assert not isinstance(result, str), result
        for got, want in zip(result, expected):
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


def test_an_optimizer_step_exports_with_its_per_parameter_results(tmp_path):
    # MindSpore 2.10's optimizers answer one True per parameter; a train step returning them exports.
    net = _ConvPool()
    optimizer = nn.Momentum(net.trainable_params(), 0.1, 0.9)

    class Step(nn.Cell):
        def __init__(self):
            super().__init__()
            self.gradients = _WeightGradients(net)
            self.optimizer = optimizer

        def construct(self, x):
            return self.optimizer(self.gradients(x))

    x = ms.Tensor(np.ones((2, 1, 8, 8), np.float32))
    assert Step()(x) == (True,)  # one Parameter: the convolution has no bias by default
    ms.export(Step(), x, file_name=str(tmp_path / "step"), file_format="MINDIR")
    assert os.path.getsize(tmp_path / "step.mindir") > 0


@needs_mindspore
def test_integer_division_exports_as_truncate_div(tmp_path):
    # JAX's div of integers truncates; MindSpore's Div turns Int32 into Float32 and its loader then failed on the
    # floor division's Select ("Got null AbstractBasePtr for input [1] for primitive Select")
    inputs, expected = inputs_outputs("int_ops")  # MindSpore 2.10's outputs of IntOps (a * b + 3, a / 2, a // 2, a % 3)
    ms.export(network("int_ops"), *[ms.Tensor(value) for value in inputs], file_name=str(tmp_path / "int_ops"))
    (result,) = run_on_mindspore([(tmp_path / "int_ops.mindir", inputs, None)], str(tmp_path))
    assert not isinstance(result, str), result
    for out, want in zip(result, expected):
        assert out.dtype == want.dtype
        np.testing.assert_array_equal(out, want)


class _SquaredBoxes(nn.Cell):
    """A YOLO head's decode (``(p * 2) ** 2``) and a Conv2dTranspose: the kinds of export.py networks."""

    def __init__(self):
        super().__init__()
        self.up = nn.Conv2dTranspose(4, 2, 3, stride=1, pad_mode="pad", padding=1)

    def construct(self, x):
        return (ops.sigmoid(self.up(x)) * 2) ** 2


def test_integer_power_and_eagerly_run_transposed_conv_export(tmp_path):
    # JAX's pow of a float by an int was written Pow(Float32, Int64), a pair MindSpore CPU has no kernel for
    # ("Select CPU operator[Pow] fail!"); a Conv2dTranspose run eagerly before export reused its jit entry with
    # XLA:CPU's oneDNN call, which export refused ("the JAX operation 'ffi_call'")
    net = _SquaredBoxes()
    x = np.random.RandomState(0).randn(2, 4, 5, 5).astype(np.float32)
    expected = net(ms.Tensor(x)).asnumpy()
    ms.export(net, ms.Tensor(x), file_name=str(tmp_path / "boxes"), file_format="MINDIR")
    graph = ms.load(str(tmp_path / "boxes.mindir"))
    np.testing.assert_allclose(nn.GraphCell(graph)(ms.Tensor(x)).asnumpy(), expected, rtol=1e-5, atol=1e-6)
    if os.path.exists(_python()):
        (result,) = run_on_mindspore([(tmp_path / "boxes.mindir", [x], None)], str(tmp_path))
        assert not isinstance(result, str), result
        np.testing.assert_allclose(result[0], expected, rtol=1e-5, atol=1e-6)


class _HeadSplit(nn.Cell):
    def construct(self, x):
        batch, length, width = x.shape
        heads = ops.reshape(x, (batch, length, 2, width // 2))
        return ops.reshape(ops.transpose(heads, (0, 2, 1, 3)), (batch, length * width))


def test_reshape_to_a_dynamic_batch_dimension_exports(tmp_path):
    # x.shape[0] of an input exported with a None batch is symbolic: reshape refused it as "not an int"
    x = np.arange(3 * 4 * 6, dtype=np.float32).reshape(3, 4, 6)
    ms.export(_HeadSplit(), ms.Tensor(shape=[None, 4, 6], dtype=ms.float32), file_name=str(tmp_path / "heads"),
              file_format="MINDIR")
    cell = nn.GraphCell(ms.load(str(tmp_path / "heads.mindir")))
    for batch in (1, 3):
        want = x[:batch].reshape(batch, 4, 2, 3).transpose(0, 2, 1, 3).reshape(batch, 24)
        np.testing.assert_array_equal(cell(ms.Tensor(x[:batch])).asnumpy(), want)


def _other_sizes(name, rng):
    """Inputs of ``name`` at sizes other than the recorded ones, and the export's input specs."""
    if name == "masked_attention":  # batch and sequence length dynamic
        lengths = np.array([7, 2, 5])
        mask = (np.arange(7)[None, :] < lengths[:, None]).astype(np.float32)
        specs = [ms.Tensor(shape=[None, None, 8], dtype=ms.float32), ms.Tensor(shape=[None, None], dtype=ms.float32)]
        return [rng.standard_normal((3, 7, 8)).astype(np.float32), mask], specs
    (x,), _ = inputs_outputs(name)
    bigger = np.concatenate([x, x[::-1], x])
    return [bigger], [ms.Tensor(shape=[None, *x.shape[1:]], dtype=ms.Tensor(x).dtype)]


def test_dynamic_dimensions_export_and_run_other_sizes(tmp_path):
    # TextCNN's ReduceMax over two axes, and BERT's x[:, 0], index a None batch with a gather of constant starts
    # (refused before); attention reshapes to (batch, length, heads, width) with both read at run time, where
    # MindSpore's own export writes the example's sizes as constants
    rng = np.random.default_rng(5)
    jobs, expected = [], []
    for name in ("textcnn_dynamic", "cls_pooler_dynamic", "masked_attention"):
        net = trained_network(name)
        inputs, specs = _other_sizes(name, rng)
        ms.export(net, *specs, file_name=str(tmp_path / name), file_format="MINDIR")
        want = _flat(net(*[ms.Tensor(value) for value in inputs]))
        loaded = _flat(nn.GraphCell(ms.load(str(tmp_path / f"{name}.mindir")))(*[ms.Tensor(v) for v in inputs]))
        for got, value in zip(loaded, want):
            np.testing.assert_allclose(got, value, rtol=1e-4, atol=1e-5, err_msg=name)
        jobs.append((tmp_path / f"{name}.mindir", inputs, None))
        expected.append(want)
    if os.path.exists(_python()):
        for name, result, want in zip(("textcnn", "cls_pooler", "attention"), run_on_mindspore(jobs, str(tmp_path)),
                                      expected):
            assert not isinstance(result, str), f"{name}: {result}"
            for got, value in zip(result, want):
                assert got.shape == value.shape, name
                np.testing.assert_allclose(got, value, rtol=1e-4, atol=1e-5, err_msg=name)


def test_gather_of_whole_rows_by_sequence_length_exports_as_gather_d(tmp_path):
    # a bidirectional LSTM over per-sample lengths reverses each sequence with take_along_axis of an index of size 1
    # along the feature axis; it was refused ("only gathers along one axis")
    inputs, expected = inputs_outputs("masked_lstm")  # MindSpore 2.10's outputs
    ms.export(trained_network("masked_lstm"), *[ms.Tensor(value) for value in inputs],
              file_name=str(tmp_path / "lstm"), file_format="MINDIR")
    from sporax.io.mindir.proto import ModelProto

    model = ModelProto()
    model.ParseFromString((tmp_path / "lstm.mindir").read_bytes())
    assert any("GatherD" in node.op_type for node in model.graph.node)
    (out,) = _flat(nn.GraphCell(ms.load(str(tmp_path / "lstm.mindir")))(*[ms.Tensor(value) for value in inputs]))
    np.testing.assert_allclose(out, expected[0], rtol=1e-4, atol=1e-5)


class _CrossAttention(nn.Cell):
    """A target attending over a source of another length, split into heads with the target's own sizes."""

    def __init__(self):
        super().__init__()
        self.q, self.k = nn.Dense(4, 4), nn.Dense(4, 4)

    def construct(self, target, source):
        batch, length, _ = target.shape
        scores = ops.matmul(self.q(target), ops.transpose(self.k(source), (0, 2, 1)))
        return ops.reshape(ops.matmul(ops.softmax(scores, -1), source), (batch, length, 2, 2))


def test_two_sequences_of_their_own_lengths_export(tmp_path):
    # [None, None] inputs are traced with a length each; tied only when the network needs them equal (ids and mask)
    net = _CrossAttention()
    spec = ms.Tensor(shape=[None, None, 4], dtype=ms.float32)
    ms.export(net, spec, spec, file_name=str(tmp_path / "cross"), file_format="MINDIR")
    rng = np.random.default_rng(2)
    target, source = (rng.standard_normal(shape).astype(np.float32) for shape in ((2, 3, 4), (2, 6, 4)))
    want = net(ms.Tensor(target), ms.Tensor(source)).asnumpy()
    got = nn.GraphCell(ms.load(str(tmp_path / "cross.mindir")))(ms.Tensor(target), ms.Tensor(source)).asnumpy()
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    if os.path.exists(_python()):
        (result,) = run_on_mindspore([(tmp_path / "cross.mindir", [target, source], None)], str(tmp_path))
        assert not isinstance(result, str), result
        np.testing.assert_allclose(result[0], want, rtol=1e-5, atol=1e-6)
