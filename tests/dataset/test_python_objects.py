"""Dict-valued dataset columns and int64 output arrays, against reprs recorded from MindSpore 2.10."""
import json
import os

import pytest

import sporax.dataset as ds
from tests.dataset.python_object_cases import CASES

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "..", "fixtures", "dataset", "python_objects_oracle.json")) as _f:
    ORACLE = json.load(_f)


@pytest.mark.parametrize("case", CASES, ids=[case.__name__ for case in CASES])
def test_python_object_columns_match_mindspore(case):
    assert case(ds) == ORACLE[case.__name__]
