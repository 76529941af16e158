"""The op-table entries of Python values (the SCALAR rule: ``scalar_add``, ``tuple_getitem``, ``bool_and`` ...).

Each entry's samples through every face it has -- the functional op, its Primitive class where MindSpore has one
(found by its Primitive name, as a MindIR file names it), and the functional op inside a compiled function -- give
exactly the Python reference's value and type; the Primitives of scalars give what MindSpore 2.10's give
(``tests/fixtures/ops/scalar_primitives_mindspore.json``).
"""
import ast
import json
import pathlib
import warnings

import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, ops
from sporax.ops import op_table
from sporax.state.fallback import EagerFallbackWarning

# ops that read a Tensor's values into Python (MindSpore's TensorToList/TensorToScalar)
HOST_READS = {"tensor_to_list", "tensor_to_scalar"}
ENTRIES = [entry for entry in op_table.entries() if entry.dtypes == op_table.SCALAR]
ORACLE = json.loads((pathlib.Path(__file__).resolve().parent.parent / "fixtures" / "ops"
                     / "scalar_primitives_mindspore.json").read_text())


def _faced(value):
    """A sample value as the faces take it: NumPy arrays as Tensors (also inside tuples and lists), the rest as is."""
    if isinstance(value, np.ndarray):
        return Tensor(value)
    if isinstance(value, (tuple, list)):
        return type(value)(_faced(item) for item in value)
    return value


def _arguments(sample):
    return [_faced(value) for value in sample.arrays]


def _assert_same(actual, expected, what):
    if isinstance(actual, Tensor):
        np.testing.assert_array_equal(actual.asnumpy(), expected, err_msg=what)
        assert actual.asnumpy().dtype == np.asarray(expected).dtype, what
        return
    if isinstance(expected, (tuple, list)) and any(isinstance(item, np.ndarray) for item in expected):
        assert type(actual) is type(expected) and len(actual) == len(expected), what
        for index, (one, reference) in enumerate(zip(actual, expected)):
            _assert_same(one, reference, f"{what}, item {index}")
        return
    assert type(actual) is type(expected) and actual == expected, f"{what}: {actual!r}, Python gives {expected!r}"


def _faces(entry, sample):
    """``(name, call)`` of each face on the sample's arguments: the functional op, and the Primitive with the
    sample's settings that are its attributes."""
    faces = [("functional", lambda *arguments: entry.function(*arguments, **sample.kwargs))]
    if entry.primitive:
        primitive = op_table.primitive_named(entry.primitive)
        assert primitive is not None, f"Primitive {entry.primitive} of {entry.name} does not resolve"
        attributes = {attribute: sample.kwargs[parameter] for attribute, parameter, _ in entry.attributes()
                      if parameter in sample.kwargs}
        calls = {name: value for name, value in sample.kwargs.items() if name not in attributes}
        faces.append((entry.primitive, lambda *arguments: primitive(**attributes)(*arguments, *calls.values())))
    return faces


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda entry: entry.name)
def test_faces_give_the_python_value(entry):
    samples = entry.samples("float32")
    assert samples and entry.reference is not None
    for sample in samples:
        expected = entry.reference(*sample.arrays, **sample.kwargs)
        for name, face in _faces(entry, sample):
            _assert_same(face(*_arguments(sample)), expected, f"{name}{sample.arrays}")
    # compiled: Tensors traced, the other values constants of the trace
    sample = samples[0]
    arguments = _arguments(sample)
    tensors = [value for value in arguments if isinstance(value, Tensor)]

    def traced(*traced_tensors):
        values = iter(traced_tensors)
        return entry.function(*[next(values) if isinstance(value, Tensor) else value for value in arguments],
                              **sample.kwargs)

    with warnings.catch_warnings():
        # a Tensor's values read on the host: the compiled function runs eagerly (warned once per function)
        warnings.simplefilter("ignore" if entry.name in HOST_READS else "error", EagerFallbackWarning)
        result = ms.jit(traced)(*tensors)
    _assert_same(result, entry.reference(*sample.arrays, **sample.kwargs), f"compiled {entry.name}")


@pytest.mark.parametrize("name", sorted(ORACLE))
def test_scalar_primitives_match_mindspore(name):
    primitive = op_table.primitive_named(name)()
    for arguments, expected in ORACLE[name]:
        arguments = ast.literal_eval(arguments)
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


def test_a_primitive_declared_by_name_runs_its_entry():
    # MindSpore code builds graph primitives by name (``Primitive("bool_and")``): the op table's entry runs
    from sporax.ops import Primitive

    assert Primitive("ScalarAdd")(2, 3.5) == 5.5
    assert Primitive("bool_and")(True, False) is False
    assert Primitive("TupleGetItem")((4, 5), 1) == 5


def test_bit_and_bit_or_as_mindspore():
    # recorded on MindSpore 2.10 CPU (ops.operations._scalar_ops): a 0-d Int64 Tensor (Bool for two bools); a float
    # is its TypeError
    bit_and, bit_or = op_table.primitive_named("bit_and")(), op_table.primitive_named("bit_or")()
    for result, value, dtype in ((bit_and(3, 5), 1, "Int64"), (bit_or(-3, 5), -3, "Int64"),
                                 (bit_or(True, False), True, "Bool")):
        assert isinstance(result, Tensor) and str(result.dtype) == dtype and result.asnumpy().item() == value
    with pytest.raises(TypeError) as caught:
        bit_and(3.0, 5)
    assert str(caught.value).split("\n")[0] == ("For primitive[bit_and], the input argument[x_dtype] must be a type "
                                                "of {Bool, Int32, Int64}, but got Float32.")


def test_scalar_ops_bool_not_takes_any_value():
    # recorded on MindSpore 2.10 CPU: ops.operations._scalar_ops.bool_not()(v) is ``not v`` (numbers, strings, None);
    # BoolNot (ops.bool_not) takes bools alone
    from sporax.ops.operations import _scalar_ops
    values = (0, 2.5, True, 0.0, 3, "a", None)
    assert [_scalar_ops.bool_not()(value) for value in values] == [True, False, False, True, False, False, True]
    with pytest.raises(TypeError):
        ops.bool_not(3)
