"""ops.CustomOpBuilder: a C++ operator written against MindSpore's extension API (tests/ops/custom_cpp/) is
compiled with the system compiler and pybind11, and its results checked against NumPy in PyNative and GRAPH
mode. Skipped where no C++ compiler or no pybind11 is installed."""
import os
import shutil

import numpy as np
import pytest

import sporax as ms
from sporax import nn, ops

pytest.importorskip("pybind11")
if not (os.environ.get("CXX") or shutil.which("c++") or shutil.which("g++") or shutil.which("clang++")):
    pytest.skip("no C++ compiler", allow_module_level=True)

SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "custom_cpp", "scale_ops.cpp")
X = np.arange(12, dtype=np.float32).reshape(4, 3) / 4 - 1
Y = np.linspace(-1, 1, 12, dtype=np.float32).reshape(4, 3)


@pytest.fixture(scope="module")
def my_ops(tmp_path_factory):
    build_dir = tmp_path_factory.mktemp("kernel_meta")
    ops.CustomOpBuilder._loaded_ops.pop("scale_ops", None)
    # -O0: the test checks values, not speed, and compiles in half the time
    return ops.CustomOpBuilder("scale_ops", [SOURCE], backend="CPU", cflags="-O0", build_dir=str(build_dir)).load()


def test_pynative_values(my_ops):
    out = my_ops.scale_add(ms.Tensor(X), ms.Tensor(Y), 2.5)
    assert isinstance(out, ms.Tensor) and out.dtype == ms.float32
    np.testing.assert_allclose(out.asnumpy(), 2.5 * X + Y, rtol=1e-6)
    sums, maxima = my_ops.row_stats(ms.Tensor(X))
    np.testing.assert_allclose(sums.asnumpy(), X.sum(1), rtol=1e-6)
    np.testing.assert_array_equal(maxima.asnumpy(), X.max(1))
    squares = my_ops.square_int(ms.Tensor(np.array([1, -2, 3], np.int32)))
    assert squares.dtype == ms.int32
    np.testing.assert_array_equal(squares.asnumpy(), [1, 4, 9])
    assert my_ops.describe(ms.Tensor(X)) == (12, [3, 1], True)


def test_tensor_api(my_ops):
    got = [t.asnumpy() for t in my_ops.api_check(ms.Tensor(X))]
    expected = [np.ones((2, 2), np.float32), np.zeros(3, np.int32), np.array([1.5, 2.5]), np.array(7),
                X.reshape(-1), X.astype(np.float64), X[2:], np.tile(X, (1, 2)), X[:, [2, 0]],
                np.repeat(X, 2, axis=0), X.reshape(3, -1)]
    assert len(got) == len(expected)
    for index, (value, reference) in enumerate(zip(got, expected)):
        assert value.dtype == reference.dtype and value.shape == reference.shape, index
        np.testing.assert_array_equal(value, reference, err_msg=str(index))


def test_graph_mode_and_jit(my_ops):
    class Net(nn.Cell):
        def construct(self, x, y):
            sums, maxima = my_ops.row_stats(my_ops.scale_add(x, y, 2.0))
            return sums * 2, maxima

    expected = 2.0 * X + Y
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        sums, maxima = Net()(ms.Tensor(X), ms.Tensor(Y))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_allclose(sums.asnumpy(), expected.sum(1) * 2, rtol=1e-6)
    np.testing.assert_allclose(maxima.asnumpy(), expected.max(1), rtol=1e-6)
    jitted = ms.jit(lambda x: my_ops.square_int(x) + 1)
    np.testing.assert_array_equal(jitted(ms.Tensor(np.array([2, -3], np.int32))).asnumpy(), [5, 10])


def test_gradient_through_the_operator_is_zero_as_in_mindspore(my_ops):
    # MindSpore 2.10 (CPU) gives ms.grad of a PyboostRunner operator zeros: it has no backward
    loss = lambda x: my_ops.scale_add(x, ms.Tensor(Y), 2.0).sum() + (x * x).sum()
    np.testing.assert_allclose(ms.grad(loss)(ms.Tensor(X)).asnumpy(), 2 * X, rtol=1e-6)
    np.testing.assert_allclose(ms.jit(ms.grad(loss))(ms.Tensor(X)).asnumpy(), 2 * X, rtol=1e-6)


def test_load_is_cached_and_build_reuses_the_library(my_ops):
    assert ops.CustomOpBuilder("scale_ops", [SOURCE]).load() is my_ops
    built = os.path.getmtime(my_ops.__file__)
    again = ops.CustomOpBuilder("scale_ops", [SOURCE], backend="CPU", cflags="-O0",
                                build_dir=os.path.dirname(my_ops.__file__)).build()
    assert again == my_ops.__file__ and os.path.getmtime(again) == built


def test_errors(tmp_path):
    with pytest.raises(NotImplementedError, match="Ascend"):
        ops.CustomOpBuilder("x_ops", [SOURCE], backend="Ascend")
    with pytest.raises(NotImplementedError, match="enable_atb"):
        ops.CustomOpBuilder("x_ops", [SOURCE], enable_atb=True)
    # MindSpore 2.10 (recorded): a missing source or op_def file is a FileNotFoundError of load(), not of the
    # construction ("[Errno 2] No such file or directory: './no_such.cpp'"; op_def: "File not found: ...")
    missing = ops.CustomOpBuilder("x_ops", [str(tmp_path / "missing.cpp")])
    with pytest.raises(FileNotFoundError, match="missing.cpp"):
        missing.load()
    with pytest.raises(FileNotFoundError, match="op_def file.*nodef.yaml"):
        ops.CustomOpBuilder("x_ops", [str(tmp_path / "missing.cpp")], op_def=str(tmp_path / "nodef.yaml")).build()
    with pytest.raises(TypeError, match="unexpected keyword"):
        ops.CustomOpBuilder("x_ops", [SOURCE], optimise=True)
    broken = tmp_path / "broken.cpp"
    broken.write_text("int f() { return undefined_name; }\n")
    with pytest.raises(RuntimeError, match="undefined_name"):
        ops.CustomOpBuilder("broken_ops", [str(broken)], build_dir=str(tmp_path)).build()


def test_exported_by_ops_operations_too():
    # MindSpore 2.10: mindspore.ops.operations.CustomOpBuilder is mindspore.ops.CustomOpBuilder
    from sporax import ops  # noqa: PLC0415
    from sporax.ops import operations  # noqa: PLC0415

    assert operations.CustomOpBuilder is ops.CustomOpBuilder
