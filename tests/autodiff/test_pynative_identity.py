"""PyNative gradients hand the function the caller's very Tensors (issue 23, point 2).

The cases (tests/fixtures/autodiff/pynative_identity_cases.py) ran unchanged on MindSpore 2.10
(record_pynative_identity.py wrote pynative_identity.json); here they run on sporax and must give the
same values: ``a is x``, ``id(a)``, a dict keyed by the Tensor, a hook registered on the input inside the
function (it stays on the caller's Tensor and runs once more on each later call).
"""
import importlib.util
import json
import os

import pytest

import sporax.compat

HERE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures", "autodiff")
_spec = importlib.util.spec_from_file_location("pynative_identity_cases",
                                               os.path.join(HERE, "pynative_identity_cases.py"))
cases = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cases)
with open(os.path.join(HERE, "pynative_identity.json")) as _handle:
    RECORDED = json.load(_handle)


@pytest.fixture(scope="module")
def mindspore():
    was_installed = sporax.compat.is_installed()
    sporax.compat.install()
    import mindspore as alias

    alias.set_context(mode=alias.PYNATIVE_MODE)
    yield alias
    if not was_installed:
        sporax.compat.uninstall()


@pytest.mark.parametrize("case", cases.CASES, ids=lambda case: case.__name__)
def test_pynative_input_identity_matches_mindspore(case, mindspore):
    assert case(mindspore) == RECORDED[case.__name__]["result"]
