"""oneDNN's convolution kernels (XLA FFI calls) are what wide convolutions take on x86-64 CPU, unless
switched off. Their values and derivatives are checked against XLA's convolution by the NHWC
convolution and channels-last tests, which run once with them and once with XLA's
(``helpers.convolution_kernel``)."""
import ctypes

import jax
import numpy as np
import pytest

import sporax
from sporax import nn
from sporax.ops.lowering import conv_onednn, onednn, plain_lowering

pytestmark = pytest.mark.skipif(not conv_onednn.available(), reason="oneDNN's convolution kernels are not available here")


def _program(build, x):
    cell = build()  # a new Cell each time: a traced gradient is kept per Cell
    return str(jax.make_jaxpr(lambda a: sporax.grad(lambda t: cell(t).sum())(sporax.Tensor(a))._value)(x))


def test_wide_convolutions_take_the_kernels_unless_switched_off(monkeypatch):
    def conv():
        return nn.Conv2d(16, 8, 3, stride=2, pad_mode="pad", padding=1)
    x = np.random.default_rng(0).standard_normal((2, 16, 9, 9)).astype(np.float32)
    program = _program(conv, x)
    for target in (conv_onednn._FORWARD, conv_onednn._BACKWARD):
        assert target in program
    with plain_lowering():
        assert conv_onednn._FORWARD not in _program(conv, x)
    monkeypatch.setenv("SPORAX_ONEDNN", "off")
    jax.clear_caches()
    try:
        assert not conv_onednn.available()
        assert conv_onednn._FORWARD not in _program(conv, x)
    finally:
        jax.clear_caches()


def test_narrow_convolution_keeps_xla():
    # 3 input channels: the space-to-depth lowering (conv_cpu), not oneDNN
    x = np.ones((2, 3, 8, 8), np.float32)
    assert conv_onednn._FORWARD not in _program(lambda: nn.Conv2d(3, 8, 3, pad_mode="same"), x)


def _numpy_convolution(x, w, strides, pads):
    """NHWC ``x`` with OIHW ``w`` in float64, tap by tap."""
    x = np.pad(x.astype(np.float64), ((0, 0), pads[0], pads[1], (0, 0)))
    out_h = (x.shape[1] - w.shape[2]) // strides[0] + 1
    out_w = (x.shape[2] - w.shape[3]) // strides[1] + 1
    out = np.zeros((x.shape[0], out_h, out_w, w.shape[0]))
    for i in range(w.shape[2]):
        for j in range(w.shape[3]):
            window = x[:, i:i + strides[0] * out_h:strides[0], j:j + strides[1] * out_w:strides[1], :]
            out += window @ w[:, :, i, j].T.astype(np.float64)
    return out


# (x NHWC, w OIHW, strides, pads): uneven padding and strides; a deep layer on a 4x4 image and a strided one into
# a 4x4 image, which take oneDNN's direct JIT kernel instead of its brgemm one (conv_onednn.cc's PrefersDirectJit).
# On AVX2 kernels the weight gradient of these is conv_onednn.cc's GEMM (WeightGradientByGemm). Its batch shares
# (under 16 channels a thread): one image for two threads (a thread with none), and images of more than 2048 windows
# (one a chunk: 2 chunks summed on the second thread); its channel shares (the 32-channel cases, and 33 channels
# split 16 / 17 over images of more than 2048 windows: each thread sums 2 chunks of its channels).
@pytest.mark.parametrize("x_shape, w_shape, strides, pads", [
    ((3, 11, 10, 17), (6, 17, 3, 2), (3, 2), ((2, 0), (0, 1))),
    ((2, 4, 4, 32), (48, 32, 3, 3), (1, 1), ((1, 1), (1, 1))),
    ((2, 8, 8, 32), (48, 32, 3, 3), (2, 2), ((1, 1), (1, 1))),
    ((1, 5, 6, 16), (8, 16, 3, 3), (1, 1), ((1, 1), (1, 1))),
    ((3, 47, 46, 16), (8, 16, 3, 3), (1, 1), ((1, 1), (0, 2))),
    ((2, 46, 46, 33), (8, 33, 3, 3), (1, 1), ((1, 1), (1, 1))),
], ids=["uneven", "tiny_image_direct_jit", "strided_to_tiny_image_direct_jit", "one_image", "chunks_of_one_image",
        "uneven_channel_shares_in_chunks"])
def test_kernel_matches_xla_and_numpy(x_shape, w_shape, strides, pads):
    rng = np.random.default_rng(1)
    x = rng.standard_normal(x_shape).astype(np.float32)
    w = rng.standard_normal(w_shape).astype(np.float32)
    got, pullback = jax.vjp(lambda x, w: conv_onednn.conv(x, w, strides, pads), x, w)
    expected, expected_pullback = jax.vjp(lambda x, w: conv_onednn._reference(x, w, strides, pads), x, w)
    np.testing.assert_allclose(np.asarray(got), np.asarray(expected), rtol=1e-5, atol=1e-4)
    np.testing.assert_allclose(np.asarray(got), _numpy_convolution(x, w, strides, pads), rtol=1e-5, atol=1e-4)
    cotangent = rng.standard_normal(expected.shape).astype(np.float32)
    for got_grad, expected_grad in zip(pullback(cotangent), expected_pullback(cotangent)):
        np.testing.assert_allclose(np.asarray(got_grad), np.asarray(expected_grad), rtol=1e-5, atol=1e-4)


def test_a_traced_convolution_has_its_primitives_made_in_the_background():
    # Shapes no other test uses, uneven in every dimension (a key in the wrong order would not be found).
    strides, pads = (1, 2), ((1, 0), (0, 1))
    traced = jax.ShapeDtypeStruct((1, 7, 5, 24), np.float32), jax.ShapeDtypeStruct((8, 24, 3, 2), np.float32)
    jax.make_jaxpr(lambda x, w: conv_onednn.conv(x, w, strides, pads))(*traced)  # traced, never run
    onednn.in_background(lambda: None).result()  # the preparation thread has done what was queued before
    assert conv_onednn._prepare(conv_onednn.prepare(traced[0].shape, traced[1].shape, strides, pads)) == 0
    # The kernel's own call (no preparation) makes its primitives under the same key; a new shape gives 1.
    x, w = np.ones((1, 6, 5, 24), np.float32), np.ones((8, 24, 3, 2), np.float32)
    np.asarray(conv_onednn._convolution(strides, pads)(x, w))
    key = (1, 24, 6, 5, 8, 3, 2, 1, 2, 1, 0, 0, 1)
    assert conv_onednn._prepare(key) == 0
    assert conv_onednn._prepare((1, 24, 6, 5, 8, 3, 3, 1, 2, 1, 0, 0, 1)) == 1
    # A symbolic batch (jax.export) has no key: its first call makes the primitives.
    assert conv_onednn.prepare(jax.export.symbolic_shape("b, 7, 5, 24"), (8, 24, 3, 2), strides, pads) is None


def _on_host(symbol, operands, result_shapes, strides, pads):
    """``symbol`` (a host entry point of conv_onednn.cc) on NumPy arrays."""
    function = getattr(onednn.library(), symbol)
    function.restype = ctypes.c_int64
    operands = [np.ascontiguousarray(operand, np.float32) for operand in operands]
    results = [np.full(shape, np.nan, np.float32) for shape in result_shapes]
    shapes = [np.array(operand.shape, np.int64) for operand in operands[:2]]
    attributes = np.array([*strides, *pads[0], *pads[1]], np.int64)
    pointers = [operands[0], shapes[0], operands[1], shapes[1], *operands[2:], attributes, *results]
    assert function(*[ctypes.c_void_p(array.ctypes.data) for array in pointers]) == 0
    return results


def test_the_host_entry_points_compute_what_the_kernels_compute_in_xla():
    # Uneven in every dimension, strided and unevenly padded, no shape another test uses.
    strides, pads = (2, 1), ((1, 0), (2, 1))
    rng = np.random.default_rng(3)
    x = rng.standard_normal((3, 9, 7, 16)).astype(np.float32)  # NHWC
    w = rng.standard_normal((12, 16, 3, 2)).astype(np.float32)  # OIHW
    convolution = conv_onednn._convolution(strides, pads)
    y, pullback = jax.vjp(convolution, x, w)
    dy = rng.standard_normal(y.shape).astype(np.float32)
    dx, dw = pullback(dy)
    (host_y,) = _on_host("SporaxConvForwardHost", [x, w], [y.shape], strides, pads)
    host_dx, host_dw = _on_host("SporaxConvBackwardHost", [x, w, dy], [x.shape, w.shape], strides, pads)
    # the same primitives on the same data: the same bits
    np.testing.assert_array_equal(host_y, np.asarray(y))
    np.testing.assert_array_equal(host_dx, np.asarray(dx))
    np.testing.assert_array_equal(host_dw, np.asarray(dw))
    # and the convolution it stands for (XLA's, in float64 through NumPy's promotion)
    np.testing.assert_allclose(host_y, np.asarray(conv_onednn._reference(x.astype(np.float64), w.astype(np.float64),
                                                                         strides, pads)), rtol=1e-4, atol=1e-4)


def test_window_larger_than_the_input_gives_xla_empty_result():
    x = sporax.Tensor(np.ones((1, 16, 3, 3), np.float32))
    assert nn.Conv2d(16, 4, 5, pad_mode="valid")(x).shape == (1, 4, 0, 0)
    assert not conv_onednn.applies(np.ones((1, 3, 3, 16), np.float32), np.ones((4, 16, 5, 5), np.float32),
                                   (1, 1), ((0, 0), (0, 0)))


_EXIT_SCRIPT = """
import numpy as np
import sporax as ms
from sporax import nn
ms.set_context(mode=ms.GRAPH_MODE)
net = nn.SequentialCell([nn.Conv2d(3, 64, 3), nn.ReLU(), nn.Conv2d(64, 64, 3), nn.ReLU(), nn.Conv2d(64, 64, 3)])
x = ms.Tensor(np.ones((4, 3, 64, 64), np.float32))
net(x).asnumpy()
for _ in range(60):
    net(x)  # dispatched asynchronously, never read: still running when the script ends
print("done")
"""


def _assert_script_prints_done(script, **environment):
    """Runs ``script`` in a fresh Python on this tree's sources with ``environment`` added."""
    import os
    import subprocess
    import sys
    source = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))), "src")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300,
                            env=dict(os.environ, PYTHONPATH=source, JAX_PLATFORMS="cpu", **environment))
    assert (result.returncode, result.stdout.strip()) == (0, "done"), result.stderr[-3000:]


@pytest.mark.slow
def test_a_process_ending_while_kernels_still_run_exits_cleanly():
    # ResNet's predict.py times 100 model.predict calls and ends without reading them: the process died of
    # SIGSEGV (status 139, or -11 here) after printing its result, a oneDNN call running in XLA's thread
    # while the C++ libraries were torn down. Now the exit waits for the running call and stops the rest.
    _assert_script_prints_done(_EXIT_SCRIPT)


_ONE_THREAD_SCRIPT = """
import jax, numpy as np
from sporax.ops.lowering import conv_onednn
assert conv_onednn.available()  # builds or loads the kernels and registers their handlers
rng = np.random.default_rng(1)
args = ((1, 1), ((1, 1), (1, 1)))
for channels in (16, 40):  # on AVX2 kernels and two threads: the weight gradient's batch shares, its channel shares
    x = rng.standard_normal((2, 6, 6, channels)).astype(np.float32)
    w = rng.standard_normal((24, channels, 3, 3)).astype(np.float32)
    cotangent = rng.standard_normal((2, 6, 6, 24)).astype(np.float32)
    got = jax.vjp(lambda x, w: conv_onednn.conv(x, w, *args), x, w)[1](cotangent)
    expected = jax.vjp(lambda x, w: conv_onednn._reference(x, w, *args), x, w)[1](cotangent)
    for a, b in zip(got, expected):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-5, atol=1e-4)
print("done")
"""


@pytest.mark.slow
def test_backward_on_a_one_thread_team_runs_its_parts_in_turn():
    # conv_onednn.cc runs backward-data and backward-weights side by side only on a two-thread OpenMP team (the
    # test machines'); with OMP_NUM_THREADS=1 the other path runs both, one after the other, on the team.
    _assert_script_prints_done(_ONE_THREAD_SCRIPT, OMP_NUM_THREADS="1")


@pytest.mark.slow
def test_backward_with_avx2_kernels_runs_its_parts_in_turn_on_the_team():
    # Where oneDNN runs AVX2 kernels (no AVX-512, or ONEDNN_MAX_CPU_ISA below it) conv_onednn.cc makes the
    # backward primitives for the whole two-thread team and runs them one after the other; values as XLA's.
    _assert_script_prints_done(_ONE_THREAD_SCRIPT, OMP_NUM_THREADS="2", ONEDNN_MAX_CPU_ISA="AVX2")
