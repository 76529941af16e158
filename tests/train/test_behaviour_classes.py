"""Issue 13 behaviour classes against MindSpore 2.10 (tests/fixtures/behaviour/behaviour_mindspore.json).

The cases live in tests/fixtures/behaviour/cases.py and ran unchanged on the oracle
(tests/fixtures/behaviour/record.py).
"""
import importlib.util
import json
import os

import pytest

import sporax.compat

HERE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures", "behaviour")
_spec = importlib.util.spec_from_file_location("behaviour_cases", os.path.join(HERE, "cases.py"))
cases = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cases)
RECORDED = json.load(open(os.path.join(HERE, "behaviour_mindspore.json")))


def _close(got, want):
    if isinstance(want, dict):
        assert isinstance(got, dict) and sorted(got) == sorted(want)
        for key in want:
            _close(got[key], want[key])
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want)
        for item, expected in zip(got, want):
            _close(item, expected)
    elif isinstance(want, float):
        assert got == pytest.approx(want, abs=2e-4)
    else:
        assert got == want


@pytest.fixture(scope="module")
def mindspore():
    was_installed = sporax.compat.is_installed()
    sporax.compat.install()
    import mindspore as ms

    yield ms
    if not was_installed:
        sporax.compat.uninstall()


@pytest.mark.parametrize("case", cases.CASES, ids=[case.__name__ for case in cases.CASES])
def test_matches_mindspore(mindspore, case):
    got = case(mindspore)
    want = RECORDED[case.__name__]
    _close(got, want)
