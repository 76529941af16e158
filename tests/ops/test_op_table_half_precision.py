"""The op test table in half precision: each entry's first float16 sample (bfloat16: the slow set) matches the
NumPy reference within the dtype's tolerance, and every face gives exactly the functional op's values in
PyNative. Rounding is what these dtypes add; the settings and shapes are covered in float32
(``test_op_table.py``), and float16 kernels are not float32's, so this file needs no other file's kernels.
"""
import pytest

from tests.ops.op_table_cases import cases, check_faces_agree_in_pynative, check_functional_matches_reference


@pytest.mark.parametrize("entry, dtype", list(cases(("float16", "bfloat16"))))
def test_functional_matches_reference(entry, dtype):
    check_functional_matches_reference(entry, dtype)


@pytest.mark.parametrize("entry, dtype", list(cases(("float16",))))
def test_faces_agree_in_pynative(entry, dtype):
    check_faces_agree_in_pynative(entry, dtype)
