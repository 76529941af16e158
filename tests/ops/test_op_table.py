"""The op test table in float32: every op-table entry's samples through every face it has.

For each entry (``sporax.ops.op_table``) and each float32 sample (``tests/ops/op_table_cases.py`` says which file
checks the rest):

- the functional op in PyNative matches the entry's NumPy reference (computed in float64) within float32's
  tolerance, and compiled (``ms.jit``) on its first samples;
- the Primitive, the Tensor method, the ``mint`` functions (the op's own face, and its PyTorch spellings with
  the sample's settings under their names) and every Cell give exactly the functional op's values (one
  kernel: faces cannot diverge), in PyNative and GRAPH mode.

The faces' checks follow the reference values in this one file: in one worker they reuse the PyNative kernels
the values compiled (an eager kernel per op, dtype, shape and settings: most of the table's time).
"""
import importlib

import numpy as np
import pytest

import sporax as ms
from sporax import context
from sporax.ops import op_table
from sporax.ops import operations
from sporax.ops.operations import grad_ops
from tests.ops.op_table_cases import (CELL_MODULES, ENTRIES, RANDOM_ENTRIES, assert_close, call_op, cases,
                                      check_faces_agree_in_pynative, check_functional_matches_reference, entry_id,
                                      faces_of, float64_of, numpy_of, outputs_of, random_spelled_call, reference_of,
                                      spelled_call, tensors_of)


@pytest.fixture
def graph_mode():
    context.set_context(mode=context.GRAPH_MODE)
    yield
    context.set_context(mode=context.PYNATIVE_MODE)


@pytest.mark.parametrize("entry, dtype", list(cases(("float32",))))
def test_functional_matches_reference(entry, dtype):
    check_functional_matches_reference(entry, dtype)


@pytest.mark.parametrize("entry, dtype", list(cases(("float32",))))
def test_faces_agree_in_pynative(entry, dtype):
    check_faces_agree_in_pynative(entry, dtype)


@pytest.mark.parametrize("entry", ENTRIES, ids=entry_id)
def test_faces_agree_compiled(entry):
    """Every face of the first samples, all in one compiled program (one compile per entry: the compile, not
    the run, is what this table spends its time on)."""
    samples = entry.samples("float32")
    samples = samples[:1] + [sample for sample in samples[1:] if sample.kwargs][:1]
    faces = [faces_of(entry, sample) for sample in samples]
    if entry.writes is None:
        operands = [tensors_of(sample) for sample in samples]

        def every_face(*tensors):
            outputs, start = [], 0
            for sample_faces, sample_operands in zip(faces, operands):
                chunk = tensors[start:start + len(sample_operands)]
                start += len(sample_operands)
                outputs.append(tuple(face(*chunk) for _, face in sample_faces))
            return tuple(outputs)

        every_output = ms.jit(every_face)(*[tensor for sample_operands in operands for tensor in sample_operands])
    else:  # each face overwrites its input: one program per face, each on fresh inputs
        every_output = [tuple(ms.jit(lambda *tensors, face=face: face(*tensors))(*tensors_of(sample))
                              for _, face in sample_faces) for sample, sample_faces in zip(samples, faces)]
    for sample, sample_faces, outputs in zip(samples, faces, every_output):
        eager = [numpy_of(output).dtype for output in outputs_of(call_op(entry, tensors_of(sample), sample.kwargs))]
        reference = reference_of(entry, [float64_of(array) for array in sample.arrays], sample.kwargs)
        for (name, _), output in zip(sample_faces, outputs):
            assert [numpy_of(one).dtype for one in outputs_of(output)] == eager, name
            assert_close(output, reference, "float32", f"{name} compiled, settings {sample.kwargs}")
        compiled = [[numpy_of(one) for one in outputs_of(output)] for output in outputs]
        for (name, _), output in zip(sample_faces[1:], compiled[1:]):
            for one, first in zip(output, compiled[0]):
                np.testing.assert_array_equal(one, first, err_msg=f"{name} compiled differs from the op")


def _cell_cases():
    for entry in ENTRIES:
        for spec in entry.cells:
            yield pytest.param(entry, spec, id=f"{spec.namespace}.{spec.name}")


@pytest.mark.parametrize("mode", ["pynative", "graph"])
@pytest.mark.parametrize("entry, spec", list(_cell_cases()))
def test_cells_agree_with_their_op(entry, spec, mode, request):
    if mode == "graph":
        request.getfixturevalue("graph_mode")
    cell_class = getattr(importlib.import_module(CELL_MODULES[spec.namespace]), spec.name)
    defaults = dict(spec.params)
    settings = (spec.to_op(**defaults) if spec.to_op else defaults)
    for dtype in ("float32",) if mode == "graph" else ("float32", "float16"):
        sample = entry.samples(dtype)[0]
        cell = cell_class()
        actual = numpy_of(cell(*tensors_of(sample)))
        expected = numpy_of(call_op(entry, tensors_of(sample), settings))
        np.testing.assert_array_equal(actual, expected, err_msg=f"{spec.namespace}.{spec.name} ({mode}, {dtype})")
        reference = reference_of(entry, [float64_of(array) for array in sample.arrays], settings, dtype)
        assert_close(actual, reference, dtype, f"{spec.namespace}.{spec.name} vs NumPy")



def test_every_primitive_name_resolves_to_its_entry():
    for entry in op_table.entries():
        if entry.primitive and entry.dtypes != op_table.SCALAR:  # not exported by ``mindspore.ops`` (ScalarAdd)
            primitive = op_table.primitive_named(entry.primitive)
            if primitive is None:  # an internal Primitive (Rolling): user classes of its name run the entry
                assert not hasattr(ms.ops, entry.primitive) and op_table.PRIMITIVES[entry.primitive] is entry
                continue
            # backward kernels (``LogitGrad``) are MindSpore's ``ops.operations._grad_ops``, not ``ops``; generated
            # classes MindSpore keeps in ``ops.auto_generate`` only (``Outer``) are ``ops.operations`` here
            exported = getattr(ms.ops, entry.primitive, None)
            if exported is None:
                exported = getattr(operations, entry.primitive, None)
            assert primitive is (exported if exported is not None else getattr(grad_ops, entry.primitive))
            sample = entry.samples("float32")[0] if entry.samples else None
            if sample is not None and not sample.kwargs and entry.random is None:
                instance = primitive()
                assert instance.name == entry.primitive and repr(instance).startswith(f"Prim[{entry.primitive}]")
                for output, expected in zip(outputs_of(instance(*tensors_of(sample))),
                                            outputs_of(call_op(entry, tensors_of(sample), {}))):
                    np.testing.assert_array_equal(numpy_of(output), numpy_of(expected))


def test_a_name_is_declared_once():
    def twice(x):
        return x

    op_table.op(inputs="x")(twice)
    try:
        with pytest.raises(ValueError, match="'twice' is declared twice"):
            op_table.op(inputs="x")(twice)
    finally:
        del op_table.TABLE["twice"]



def test_every_entry_has_samples():
    """An entry without samples would be left out of every check of the table without a word."""
    assert [entry.name for entry in op_table.entries() if not callable(entry.samples)] == []


@pytest.mark.parametrize("entry", [entry for entry in ENTRIES + RANDOM_ENTRIES if entry.spellings], ids=entry_id)
def test_every_spelling_takes_a_sample(entry):
    """Each PyTorch spelling of the entry is one of the faces some sample runs through (the table's checks)."""
    spelled = random_spelled_call if entry.random is not None else spelled_call
    for row in entry.spellings:
        assert any(spelled(entry, row, sample) is not None for sample in entry.samples("float32")), (
            f"no sample of ops.{entry.name} can be spelled as {row.namespaces[0]}.{row.name}: add one whose "
            "settings the spelling passes on")
