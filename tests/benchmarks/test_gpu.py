"""The GPU benchmark's sporax worker and its workloads, on tiny shapes on the CPU (CI has no GPU):
the step trains (the loss falls) and the result line carries what the table needs."""
import json
import os
import sys

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
