"""The op-table entries of Python values (the SCALAR rule: ``scalar_add``, ``tuple_getitem``, ``bool_and`` ...).

Each entry's samples through every face it has -- the functional op, its Primitive class where MindSpore has one
(found by its Primitive name, as a MindIR file names it), and the functional op inside a compiled function -- give
exactly the Python reference's value and type; the Primitives of scalars give what MindSpore 2.10's give
(``tests/fixtures/ops/scalar_primitives_mindspore.json``).
"""
import json
import pathlib

import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, ops
from sporax.ops import op_table

ENTRIES = [entry for entry in op_table.entries() if entry.dtypes == op_table.SCALAR]
ORACLE = json.loads((pathlib.Path(__file__).resolve().parent.parent / "fixtures" / "ops"
                     / "scalar_primitives_mindspore.json").read_text())


def _arguments(sample):
    """A sample's arguments as the faces take them: NumPy arrays as Tensors (``shape_``'s input), the rest as is."""
    return [Tensor(value) if isinstance(value, np.ndarray) else value for value in sample.arrays]


def _assert_same(actual, expected, what):
    if isinstance(actual, Tensor):
        np.testing.assert_array_equal(actual.asnumpy(), expected, err_msg=what)
        assert actual.asnumpy().dtype == np.asarray(expected).dtype, what
        return
    assert type(actual) is type(expected) and actual == expected, f"{what}: {actual!r}, Python gives {expected!r}"


def _faces(entry):
    faces = [("functional", entry.function)]
    if entry.primitive:
        primitive = op_table.primitive_named(entry.primitive)
        assert primitive is not None, f"Primitive {entry.primitive} of {entry.name} does not resolve"
        faces.append((entry.primitive, primitive()))
    return faces


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda entry: entry.name)
def test_faces_give_the_python_value(entry):
    samples = entry.samples("float32")
    assert samples and entry.reference is not None
    for sample in samples:
        expected = entry.reference(*sample.arrays, **sample.kwargs)
        for name, face in _faces(entry):
            _assert_same(face(*_arguments(sample), **sample.kwargs), expected, f"{name}{sample.arrays}")
    # compiled: Tensors traced, the other values constants of the trace
    sample = samples[0]
    arguments = _arguments(sample)
    tensors = [value for value in arguments if isinstance(value, Tensor)]

    def traced(*traced_tensors):
        values = iter(traced_tensors)
        return entry.function(*[next(values) if isinstance(value, Tensor) else value for value in arguments],
                              **sample.kwargs)

    _assert_same(ms.jit(traced)(*tensors), entry.reference(*sample.arrays, **sample.kwargs), f"compiled {entry.name}")


@pytest.mark.parametrize("name", sorted(ORACLE))
def test_scalar_primitives_match_mindspore(name):
    primitive = op_table.primitive_named(name)()
    for arguments, expected in ORACLE[name]:
        try:
            result = primitive(*arguments)
        except Exception as error:  # the oracle records the error type
            outcome = [type(error).__name__]
        else:
            outcome = ["ok", repr(result), type(result).__name__]
        assert outcome == expected, f"{name}{tuple(arguments)}"


def test_errors_name_the_op():
    with pytest.raises(ValueError, match="scalar_floordiv"):
        op_table.primitive_named("ScalarFloorDiv")()(1, 0)
    with pytest.raises(TypeError, match="bool_and"):
        ops.bool_and(1, True)
    with pytest.raises(TypeError, match="tuple_len"):
        op_table.primitive_named("sequence_len")()(3)
