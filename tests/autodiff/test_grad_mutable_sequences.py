"""Gradients with respect to a ``mutable`` tuple, list or dict of Tensors: the cases of
tests/fixtures/autodiff/mutable_sequence_cases.py ran unchanged on MindSpore 2.10
(record_mutable_sequence_grads.py) and run here on sporax.

GRAPH_MODE differentiates the sequence element by element (its gradient is a tuple, or a list, of the
elements' gradients, nested containers and dicts alike); PyNative, as MindSpore's, gives it no gradient.
"""
import importlib.util
import json
import os

import pytest

import sporax as ms

HERE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures", "autodiff")
_spec = importlib.util.spec_from_file_location("mutable_sequence_cases",
                                               os.path.join(HERE, "mutable_sequence_cases.py"))
cases = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cases)
with open(os.path.join(HERE, "mutable_sequence_grads.json")) as _handle:
    RECORDED = json.load(_handle)


@pytest.mark.parametrize("mode", ["graph", "pynative"])
def test_mutable_sequence_gradients_pynative_graph_parity(mode):
    ms.set_context(mode=ms.GRAPH_MODE if mode == "graph" else ms.PYNATIVE_MODE)
    try:
        for name, case in cases.cases(ms).items():
            assert cases.encode(ms, case()) == RECORDED[mode][name], f"{mode}: {name}"
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
