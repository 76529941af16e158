"""ops.kernel (Hybrid DSL) and ops.Custom(func_type='hybrid') against MindSpore 2.10's recorded direct-call
values (tests/fixtures/api/hybrid.npz), in PyNative and GRAPH mode, with gradients against analytic forms and
finite differences."""
import os
import sys

import numpy as np
import pytest

import sporax as ms
from sporax import nn, ops
from sporax.ops import kernel

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "fixtures", "api"))
from record_hybrid import A, B, INPUTS, P, V, build, run  # noqa: E402  (mindspore only when run as a script)

ORACLE = np.load(os.path.join(HERE, "..", "fixtures", "api", "hybrid.npz"))
KERNELS = build(kernel)


def _outputs(result):
    return [np.asarray(r.asnumpy() if isinstance(r, ms.Tensor) else r)
            for r in (result if isinstance(result, tuple) else (result,))]


def _check(name, results):
    keys = [name] if len(results) == 1 else [f"{name}_{i}" for i in range(len(results))]
    for key, got in zip(keys, results):
        assert got.dtype == ORACLE[key].dtype, key
        np.testing.assert_allclose(got, ORACLE[key], rtol=2e-6, atol=1e-6, err_msg=key)


def test_direct_call_matches_oracle():
    got = run(KERNELS)
    assert sorted(got) == sorted(ORACLE)
    for key in ORACLE:
        assert got[key].dtype == ORACLE[key].dtype, key
        np.testing.assert_allclose(got[key], ORACLE[key], rtol=2e-6, atol=1e-6, err_msg=key)


def test_direct_call_writes_numpy_inputs_in_place_and_leaves_module_globals_alone():
    v = V.copy()
    out = KERNELS["in_place"](v)
    assert out is v
    np.testing.assert_allclose(v, V * V + 1.0, rtol=1e-6)
    for name in ("output_tensor", "allocate", "sin", "parallel"):
        assert name not in globals()


@pytest.mark.parametrize("name", sorted(INPUTS))
def test_custom_hybrid_pynative(name):
    op = ops.Custom(KERNELS[name], func_type="hybrid")
    inputs = [ms.Tensor(x.copy()) for x in INPUTS[name]]
    _check(name, _outputs(op(*inputs)))
    # Tensors are values: the DSL's in-place write lands in the output, never in the caller's input
    np.testing.assert_array_equal(inputs[0].asnumpy(), INPUTS[name][0])


@pytest.mark.parametrize("name", ["docs_outer", "loops", "grid_casts", "two_outputs", "in_place"])
def test_custom_hybrid_graph_mode(name):
    op = ops.Custom(KERNELS[name], func_type="hybrid")

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.op = op

        def construct(self, *xs):
            return self.op(*xs)

    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        _check(name, _outputs(Net()(*[ms.Tensor(x.copy()) for x in INPUTS[name]])))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    jitted = ms.jit(lambda *xs: op(*xs))
    _check(name, _outputs(jitted(*[ms.Tensor(x.copy()) for x in INPUTS[name]])))


def test_given_out_shape_and_dtype_are_used():
    op = ops.Custom(KERNELS["docs_outer"], out_shape=lambda a, b: a, out_dtype=ms.float32, func_type="hybrid")
    np.testing.assert_allclose(op(ms.Tensor(A), ms.Tensor(B)).asnumpy(), ORACLE["docs_outer"], rtol=2e-6)
    as_pyfunc = ops.Custom(KERNELS["docs_outer"], out_shape=[4, 4], out_dtype=ms.float32, func_type="pyfunc")
    np.testing.assert_allclose(as_pyfunc(ms.Tensor(A), ms.Tensor(B)).asnumpy(), ORACLE["docs_outer"], rtol=2e-6)


def test_automatic_gradient_matches_analytic():
    op = ops.Custom(KERNELS["docs_outer"], func_type="hybrid")
    weights = np.arange(16, dtype=np.float32).reshape(4, 4) / 10
    loss = lambda a, b: (op(a, b) * ms.Tensor(weights)).sum()
    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        grad_fn = ms.grad(loss, grad_position=(0, 1))
        grad_a, grad_b = grad_fn(ms.Tensor(A), ms.Tensor(B)) if mode == ms.PYNATIVE_MODE else \
            ms.jit(grad_fn)(ms.Tensor(A), ms.Tensor(B))
        # c[i, j] = sum_k sin(2 a[i, k] b[k, j])
        cos = np.cos(2 * A[:, :, None] * B[None, :, :]) * weights[:, None, :]
        np.testing.assert_allclose(grad_a.asnumpy(), (cos * 2 * B[None, :, :]).sum(2), rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(grad_b.asnumpy(), (cos * 2 * A[:, :, None]).sum(0), rtol=1e-5, atol=1e-5)


def _finite_difference(function, x, eps=1e-3):
    grad = np.zeros_like(x)
    for index in np.ndindex(x.shape):
        step = np.zeros_like(x)
        step[index] = eps
        grad[index] = (function(x + step) - function(x - step)) / (2 * eps)
    return grad


@pytest.mark.parametrize("name", ["loops", "grid_casts", "two_outputs"])
def test_automatic_gradient_matches_finite_differences(name):
    x = INPUTS[name][0].astype(np.float64)
    first = lambda value: _outputs(KERNELS[name](value))[0]
    weights = np.linspace(0.5, 1.5, first(x).size).reshape(first(x).shape)
    op = ops.Custom(KERNELS[name], func_type="hybrid")
    got = ms.grad(lambda t: (op(t)[0] * ms.Tensor(weights)).sum())(ms.Tensor(x)).asnumpy()
    np.testing.assert_allclose(got, _finite_difference(lambda v: (first(v) * weights).sum(), x),
                               rtol=1e-4, atol=1e-5)


def test_bprop_replaces_the_automatic_gradient():
    def bprop(a, b, out, dout):
        return dout * 3.0, dout * 0.0

    op = ops.Custom(KERNELS["docs_outer"], func_type="hybrid", bprop=bprop)
    grad_a = ms.grad(lambda a, b: op(a, b).sum())(ms.Tensor(A), ms.Tensor(B))
    np.testing.assert_allclose(grad_a.asnumpy(), np.full([4, 4], 3.0, np.float32))


@kernel
def _value_branch(x):
    y = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        if x[i] > 0.0:
            y[i] = x[i]
    return y


@kernel
def _while_loop(x):
    y = output_tensor(x.shape, x.dtype)
    while True:
        y[0] = x[0]
    return y


@kernel
def _foreign_call(x):
    y = output_tensor(x.shape, x.dtype)
    for i in range(x.shape[0]):
        y[i] = np.sin(x[i])
    return y


def test_errors():
    with pytest.raises(TypeError, match="decorated by ops.kernel"):
        ops.Custom(lambda x: x, func_type="hybrid")
    with pytest.raises(TypeError, match="while"):
        ops.Custom(_while_loop, func_type="hybrid")
    with pytest.raises(ValueError, match="intrinsics"):
        ops.Custom(_foreign_call, func_type="hybrid")
    with pytest.raises(ValueError, match="func_type"):
        ops.Custom(KERNELS["loops"], func_type="cuda")
    with pytest.raises(TypeError, match="compile_attrs"):
        kernel(compile_attrs=[1])
    op = ops.Custom(_value_branch, func_type="hybrid")
    np.testing.assert_allclose(op(ms.Tensor(V)).asnumpy(), np.maximum(V, 0))
    with pytest.raises(TypeError, match="bprop"):
        ms.grad(lambda t: op(t).sum())(ms.Tensor(V))


def test_kernel_attributes():
    doc = KERNELS["doc_example"]
    assert doc.ms_kernel_flag is True and doc.__name__ == "doc_example"
    assert doc.compile_attrs == '{"test1": true, "test3": 12}'
    assert doc.reg_info == {"op_name": "outer", "target": "CPU"}
    np.testing.assert_allclose(KERNELS["loops"](P)[0], ORACLE["loops_0"], rtol=2e-6)


def test_ms_kernel_is_the_deprecated_name_of_kernel():
    from sporax.ops import ms_kernel
    from sporax.ops.operations import kernel as operations_kernel

    assert operations_kernel is kernel
    legacy = build(ms_kernel)["docs_outer"]
    assert legacy.ms_kernel_flag is True
    np.testing.assert_allclose(legacy(A, B), ORACLE["docs_outer"], rtol=2e-6)


@kernel
def _gather(table, idx):
    y = output_tensor(idx.shape, table.dtype)
    total = output_tensor((), table.dtype)
    for i in range(idx.shape[0]):
        y[i] = table[idx[i]] * 2.0
        total[()] = total[()] + table[idx[i]]
    return y, total


def test_value_dependent_indices_and_scalar_tensors():
    table = np.array([1.0, -2.0, 3.0, 0.5], np.float32)
    idx = np.array([3, 0, 3, 2, -1], np.int32)
    op = ops.Custom(_gather, func_type="hybrid")
    y, total = op(ms.Tensor(table), ms.Tensor(idx))
    np.testing.assert_allclose(y.asnumpy(), table[idx] * 2.0)
    assert total.shape == () and np.isclose(total.asnumpy(), table[idx].sum())
    weights = np.arange(1, 6, dtype=np.float32)
    grad = ms.grad(lambda t, i: (op(t, i)[0] * ms.Tensor(weights)).sum() + op(t, i)[1] * 10)(
        ms.Tensor(table), ms.Tensor(idx))
    expected = np.zeros(4, np.float32)
    np.add.at(expected, idx, weights * 2.0 + 10)
    np.testing.assert_allclose(grad.asnumpy(), expected)
