"""export -> load -> GraphCell (fresh process, no network source) and ONNX through onnxruntime."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import sporax as ms
from sporax import nn
from tests.io.fixture_nets import build, fixture_path

NETS = ["mlp", "lenet5", "small_cnn"]


def loaded(name):
    net = build(name)
    ms.load_checkpoint(fixture_path(name + ".ckpt"), net=net)
    return net, np.load(fixture_path(name + "_io.npz"))


def test_graph_runs_in_fresh_process_without_source(tmp_path):
    """Each network's export runs in one fresh process (one interpreter start for all three)."""
    expected = {}
    for name in NETS:
        net, io = loaded(name)
        ms.export(net, ms.Tensor(io["x"]), file_name=str(tmp_path / name), file_format="MINDIR")
        np.save(tmp_path / f"{name}_x.npy", io["x"])
        expected[name] = io["y"]
    script = textwrap.dedent(f"""
        import numpy as np, sys
        import sporax as ms
        for name in {NETS!r}:
            graph = ms.load({str(tmp_path)!r} + f"/{{name}}.mindir")
            out = ms.nn.GraphCell(graph)(ms.Tensor(np.load({str(tmp_path)!r} + f"/{{name}}_x.npy")))
            np.save({str(tmp_path)!r} + f"/{{name}}_y.npy", out.asnumpy())
            assert name not in sys.modules
    """)
    subprocess.run([sys.executable, "-c", script], check=True, cwd=str(tmp_path), timeout=120)
    for name in NETS:
        np.testing.assert_allclose(np.load(tmp_path / f"{name}_y.npy"), expected[name], rtol=1e-5, atol=1e-6,
                                   err_msg=name)


def test_dynamic_batch_and_params_init(tmp_path):
    net, io = loaded("mlp")
    ms.export(net, ms.Tensor(shape=[None, 32], dtype=ms.float32), file_name=str(tmp_path / "mlp"))
    graph = ms.load(str(tmp_path / "mlp.mindir"))
    cell = nn.GraphCell(graph)
    assert [p.name for p in cell.get_parameters()] == [
        "fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias", "fc3.weight", "fc3.bias"]
    x = np.concatenate([io["x"], io["x"][:3]])
    np.testing.assert_allclose(cell(ms.Tensor(x)).asnumpy()[:4], io["y"], rtol=1e-5, atol=1e-6)
    zero_bias = nn.GraphCell(graph, params_init={"fc3.bias": ms.Tensor(np.zeros(1, np.float32))})
    shifted = zero_bias(ms.Tensor(io["x"])).asnumpy()
    np.testing.assert_allclose(shifted, io["y"] - net.fc3.bias.asnumpy(), rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match="does not have"):
        nn.GraphCell(graph, params_init={"nope": ms.Tensor(1.0)})


def test_multiple_outputs_keep_structure(tmp_path):
    class TwoHeads(nn.Cell):
        def __init__(self):
            super().__init__()
            self.a = nn.Dense(3, 2)
            self.b = nn.Dense(3, 1)

        def construct(self, x):
            return self.a(x), (self.b(x), x)

    net = TwoHeads()
    x = ms.Tensor(np.random.default_rng(0).standard_normal((4, 3)).astype(np.float32))
    ms.export(net, x, file_name=str(tmp_path / "two"))
    first, (second, same) = nn.GraphCell(ms.load(str(tmp_path / "two.mindir")))(x)
    np.testing.assert_allclose(first.asnumpy(), net.a(x).asnumpy(), rtol=1e-6)
    np.testing.assert_allclose(second.asnumpy(), net.b(x).asnumpy(), rtol=1e-6)
    np.testing.assert_array_equal(same.asnumpy(), x.asnumpy())


@pytest.mark.parametrize("name", NETS)
def test_onnx_matches_in_onnxruntime(name, tmp_path):
    onnxruntime = pytest.importorskip("onnxruntime", reason="onnxruntime is not installed")
    net, io = loaded(name)
    ms.export(net, ms.Tensor(io["x"]), file_name=str(tmp_path / name), file_format="ONNX")
    session = onnxruntime.InferenceSession(str(tmp_path / (name + ".onnx")))
    (y,) = session.run(None, {"input_0": io["x"]})
    np.testing.assert_allclose(y, io["y"], rtol=1e-5, atol=1e-6)


def test_export_errors(tmp_path):
    net = nn.Dense(3, 2)
    with pytest.raises(ValueError, match="file_format"):
        ms.export(net, ms.ops.ones((1, 3), ms.float32), file_name=str(tmp_path / "x"), file_format="PB")
    with pytest.raises(NotImplementedError, match="AIR"):
        ms.export(net, ms.ops.ones((1, 3), ms.float32), file_name=str(tmp_path / "x"), file_format="AIR")
    with pytest.raises(ValueError, match="mindir"):
        ms.load(str(tmp_path / "x.onnx"))
    bad = tmp_path / "bad.mindir"
    bad.write_bytes(b"\x3a\x99\x01")
    with pytest.raises(RuntimeError, match="bad.mindir: byte 0"):  # MindSpore 2.10: "Load MindIR failed."
        ms.load(str(bad))
    assert not os.path.exists(tmp_path / "x.mindir")


def test_onnx_export_of_a_graph_mode_network(tmp_path):
    # the network compiles itself inside the export trace: the state its compiled call lifts (the RNG
    # key) must be owned by that trace
    onnxruntime = pytest.importorskip("onnxruntime", reason="onnxruntime is not installed")

    class Sin(nn.Cell):
        def construct(self, x):
            return ms.ops.sin(x) * 2

    x = np.array([-1, -0.5, 0, 0.5, 1], np.float32)
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        net = Sin()
        expect = net(ms.Tensor(x)).asnumpy()
        ms.export(net, ms.Tensor(x), file_name=str(tmp_path / "sin"), file_format="ONNX")
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    session = onnxruntime.InferenceSession(str(tmp_path / "sin.onnx"))
    (out,) = session.run(None, {session.get_inputs()[0].name: x})
    np.testing.assert_allclose(out, np.sin(x) * 2, rtol=1e-6)
    np.testing.assert_allclose(out, expect, rtol=1e-6)



def test_mindspore_onnx_export_names_inputs_and_outputs(tmp_path):
    # mindspore.onnx.export (MindSpore 2.10's docstring example: input_names=['input1'], output_names=['output1'])
    onnxruntime = pytest.importorskip("onnxruntime", reason="onnxruntime is not installed")
    from sporax.io.onnx_export import export  # noqa: PLC0415 - needs the optional onnx package

    net = nn.Dense(4, 3)
    x = np.arange(8, dtype=np.float32).reshape(2, 4)
    export(net, ms.Tensor(x), file_name=str(tmp_path / "dense"), input_names=["input1"], output_names=["output1"])
    session = onnxruntime.InferenceSession(str(tmp_path / "dense.onnx"))
    assert [i.name for i in session.get_inputs()] == ["input1"] and [o.name for o in session.get_outputs()] == [
        "output1"]
    np.testing.assert_allclose(session.run(["output1"], {"input1": x})[0], net(ms.Tensor(x)).asnumpy(), rtol=1e-5)
    with pytest.raises(ValueError, match="'input_names' must be a list of 1 str"):
        export(net, ms.Tensor(x), file_name=str(tmp_path / "bad"), input_names=["a", "b"])
    with pytest.raises(NotImplementedError, match="dynamic_axes"):
        export(net, ms.Tensor(x), file_name=str(tmp_path / "bad"), dynamic_axes={"input1": [0]})

def test_onnx_export_without_onnx_names_the_package(tmp_path, monkeypatch):
    # None in sys.modules makes `import onnx` fail as it does where the package is not installed.
    monkeypatch.setitem(sys.modules, "onnx", None)
    monkeypatch.delitem(sys.modules, "sporax.io.onnx_export", raising=False)
    monkeypatch.delitem(sys.modules, "sporax.io.onnx_ops", raising=False)
    with pytest.raises(ImportError, match="needs the 'onnx' package: pip install onnx"):
        ms.export(nn.Dense(2, 1), ms.Tensor(np.ones((1, 2), np.float32)), file_name=str(tmp_path / "net"),
                  file_format="ONNX")
    assert not list(tmp_path.iterdir())


class _TransposedConvs(nn.Cell):
    def __init__(self):
        super().__init__()
        self.a = nn.Conv1dTranspose(2, 3, 4, stride=2, pad_mode="pad", padding=1, has_bias=True)
        self.b = nn.Conv2dTranspose(3, 1, 3, stride=2, pad_mode="same")

    def construct(self, x):
        return self.b(self.a(x).reshape(1, 3, 2, -1))


def test_transposed_convolutions_are_written(tmp_path):
    # MindSpore 2.10's output for these weights (linspace(-1, 1) per parameter); MELGAN's export.py writes
    # Conv1dTranspose layers (it raised "transposed ... convolutions cannot be written" before).
    net = _TransposedConvs()
    for parameter in net.get_parameters():
        parameter.set_data(ms.Tensor(np.linspace(-1, 1, parameter.size, dtype=np.float32).reshape(parameter.shape)))
    x = ms.Tensor(np.linspace(-2, 3, 12, dtype=np.float32).reshape(1, 2, 6))
    recorded = np.array([
        -0.592885, -0.251748, -1.933718, -1.368197, -2.605047, -1.269687, -1.722104, -0.437823, -0.89024, -0.448769,
        0.065673, 0.492551, 0.430526, 0.771663, 1.054424, 0.596534, 1.225905, 0.596534, 2.05412, 1.47218,
        2.940711, 1.47218, 3.841897, 2.347826, 1.167528, 2.167224, 5.896017, 3.98419, 7.596231, 3.655823,
        9.471573, 5.735482, 11.025845, 5.407115, 11.843113, 6.080268, 1.689267, 2.347826, 5.629674, 3.223472,
        6.370325, 3.223472, 7.417452, 4.099118, 8.085133, 4.099119, 7.393737, 2.960778],
        np.float32).reshape(1, 1, 4, 12)
    np.testing.assert_allclose(net(x).asnumpy(), recorded, rtol=1e-5, atol=1e-5)
    ms.export(net, x, file_name=str(tmp_path / "convt"), file_format="MINDIR")
    out = nn.GraphCell(ms.load(str(tmp_path / "convt.mindir")))(x).asnumpy()
    np.testing.assert_allclose(out, recorded, rtol=1e-5, atol=1e-5)
