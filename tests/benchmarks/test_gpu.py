"""The GPU benchmark's sporax worker and its workloads, on tiny shapes on the CPU (CI has no GPU):
the step trains (the loss falls) and the result line carries what the table needs."""
import json
import os
import sys
import types

import numpy as np
import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                                "benchmarks"))
import gpu  # noqa: E402
import gpu_models  # noqa: E402


@pytest.mark.slow  # compiles a two-layer GPT-2 step: ~10-25 s on 2 cores
def test_sporax_worker_trains_gpt2_in_bfloat16_mixed_precision(capsys):
    gpu.worker("sporax-graph", "gpt2_b8_bf16", steps=4, rounds=1, small=True)
    line = [text for text in capsys.readouterr().out.splitlines() if text.startswith("RESULT ")][-1]
    result = json.loads(line[len("RESULT "):])
    assert "error" not in result, result
    assert result["last_loss"] < result["first_loss"]
    assert len(result["step_ms"]) == 1 and result["step_ms"][0] > 0


@pytest.mark.slow  # compiles the two-layer GPT-2 step in both modes: ~30-60 s on 2 cores
def test_pynative_contender_reaches_graphs_losses(capsys):
    results = {}
    for contender in ("sporax-graph", "sporax-pynative"):
        gpu.worker(contender, "gpt2_b8_bf16", steps=2, rounds=1, small=True)
        line = [text for text in capsys.readouterr().out.splitlines() if text.startswith("RESULT ")][-1]
        results[contender] = json.loads(line[len("RESULT "):])
        assert "error" not in results[contender], results[contender]
    graph, pynative = results["sporax-graph"], results["sporax-pynative"]
    assert pynative["first_loss"] == graph["first_loss"]
    assert pynative["last_loss"] == pytest.approx(graph["last_loss"], rel=2e-2)  # bfloat16 steps, other fusion


def test_workloads_name_model_batch_and_dtype():
    for name, (model, batch, dtype) in gpu_models.WORKLOADS.items():
        assert name.startswith(model) and f"_b{batch}" in name
        assert dtype == ("bfloat16" if name.endswith("bf16") else "float32")


class _Parameter(np.ndarray):
    grad = None


class _State(dict):
    """PyTorch's optimizer state, keyed by the parameter itself (a NumPy array is not hashable: its id)."""

    def __getitem__(self, parameter):
        return self.setdefault(id(parameter), {})


class _Optimizer:
    def __init__(self, groups, defaults):
        self.param_groups = [dict(defaults, **group) for group in groups]
        self.state = _State()


class _LayerNorm:
    def __init__(self, *parameters):
        self._parameters = parameters

    def parameters(self):
        return iter(self._parameters)


def _add_(tensors, others, alpha=1.0):
    for index, tensor in enumerate(tensors):
        tensor += alpha * (others[index] if isinstance(others, list) else others)


def _numpy_torch():
    """The few PyTorch calls ``torch_adam_weight_decay`` makes, on NumPy arrays (PyTorch is not installed here)."""
    def mul_(tensors, factor):
        for tensor in tensors:
            tensor *= factor

    def addcmul_(tensors, left, right, value):
        for tensor, a, b in zip(tensors, left, right):
            tensor += value * a * b
    return types.SimpleNamespace(
        optim=types.SimpleNamespace(Optimizer=_Optimizer), nn=types.SimpleNamespace(LayerNorm=_LayerNorm),
        no_grad=lambda: (lambda function: function), zeros_like=np.zeros_like, _foreach_mul_=mul_,
        _foreach_add_=_add_, _foreach_addcmul_=addcmul_, _foreach_sqrt=lambda tensors: [np.sqrt(t) for t in tensors],
        _foreach_div=lambda tensors, others: [t / o for t, o in zip(tensors, others)])


def test_pytorch_contender_updates_as_mindspores_adam_weight_decay():
    # sporax's nn.AdamWeightDecay follows MindSpore 2.10's step for step (a two-layer GPT-2, 64 steps, float32,
    # same initial weights: losses equal to 1e-4 relative; benchmarks/gpu_measured.md, session 15).
    import sporax as ms

    rng = np.random.default_rng(0)
    names = ("dense.weight", "dense.bias", "norm.gamma", "norm.beta")
    initial = [rng.standard_normal(shape).astype(np.float32) for shape in ((3, 4), (3,), (4,), (4,))]
    steps = [[rng.standard_normal(value.shape).astype(np.float32) for value in initial] for _ in range(3)]
    weights = [ms.Parameter(ms.Tensor(value.copy()), name=name) for value, name in zip(initial, names)]
    optimizer = ms.nn.AdamWeightDecay(weights, 1e-2, weight_decay=0.1)
    parameters = [value.copy().view(_Parameter) for value in initial]
    network = types.SimpleNamespace(parameters=lambda: iter(parameters),
                                    modules=lambda: iter([_LayerNorm(*parameters[2:])]))
    contender = gpu_models.torch_adam_weight_decay(_numpy_torch(), network, 1e-2, weight_decay=0.1)
    for gradients in steps:
        optimizer(tuple(ms.Tensor(gradient) for gradient in gradients))
        for parameter, gradient in zip(parameters, gradients):
            parameter.grad = gradient
        contender.step()
    for weight, parameter in zip(weights, parameters):
        np.testing.assert_allclose(np.asarray(parameter), weight.asnumpy(), rtol=1e-5, atol=1e-7)
    assert not np.allclose(np.asarray(parameters[2]), initial[2])  # the norms moved, without decay
