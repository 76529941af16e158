"""The op test table's gradients and dtype rules, for every op-table entry (``tests/ops/op_table_cases.py``):

- the gradient matches central finite differences of the reference (float64, random directions);
- the dtype rule holds: integer inputs are refused by float-only ops, naming the op, or computed
  in Float32 by ``TO_FLOAT``/``PROMOTED_TO_FLOAT`` ops; Bool inputs are refused by number ops; other ops compute
  integers as integers (an integer or Bool result: ``sum`` widens to Int64, ``all`` gives Bool);
  two-operand (``BINARY``) ops promote Tensors and Python numbers as MindSpore does.
"""
import dataclasses
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor
from sporax.core import dtype as mstype
from sporax.ops import op_table
from sporax.ops.sparse_operands import SPARSE_ARRAYS
from tests.ops.op_table_cases import (ANSWER, ENTRIES, call_op, dtypes_of, entry_id, float64_of, numpy_of,
                                      reference_of, tensor_of)


def _directional_difference(function, arrays, directions, step=1e-6):
    plus = function(*[array + step * direction for array, direction in zip(arrays, directions)])
    minus = function(*[array - step * direction for array, direction in zip(arrays, directions)])
    return (plus - minus) / (2 * step)


# An op MindSpore computes in narrower floats alone (``lerp``: no Float64) has no float64 samples: test_dtype_refusals
# checks its gradient in Float32.
@pytest.mark.parametrize("entry", [entry for entry in ENTRIES if entry.grad_check and entry.samples("float64")],
                         ids=entry_id)
def test_gradient_matches_finite_differences(entry):
    """Gradients w.r.t. every float input (integer inputs, such as indices, are held fixed), of both samples
    in one compiled, differentiated program (one compile per entry)."""
    generator = np.random.default_rng(0)
    checks = []  # per sample: its float64 arrays, the float inputs' positions, the output weights, the directions
    for sample in entry.samples("float64")[:2]:
        arrays = [float64_of(array) for array in sample.arrays]
        wrt = [index for index, array in enumerate(arrays) if array.dtype.kind == "f"]
        weights = generator.standard_normal(np.shape(reference_of(entry, arrays, sample.kwargs)))
        directions = [[generator.standard_normal(arrays[index].shape) for index in wrt] for _ in range(2)]
        checks.append((sample, arrays, wrt, weights, directions))

    def loss(*tensors):
        total, start = 0, 0
        for sample, arrays, _, weights, _ in checks:
            total = total + (call_op(entry, tensors[start:start + len(arrays)], sample.kwargs) * Tensor(weights)).sum()
            start += len(arrays)
        return total

    positions, start = [], 0
    for _, arrays, wrt, _, _ in checks:
        positions += [start + index for index in wrt]
        start += len(arrays)
    # Compiled: the PyNative backward pass dispatches (and compiles) each of its operations on its own, which was
    # a third of the whole op table's time; the kernel's gradient is the same JAX derivative either way.
    gradients = ms.jit(ms.grad(loss, grad_position=tuple(positions)))(
        *[Tensor(array) for _, arrays, _, _, _ in checks for array in arrays])
    gradients = list(gradients) if isinstance(gradients, tuple) else [gradients]
    for sample, arrays, wrt, weights, directions in checks:
        sample_gradients, gradients = gradients[:len(wrt)], gradients[len(wrt):]

        def reference_loss(*floats):
            values = list(arrays)
            for index, value in zip(wrt, floats):
                values[index] = value
            return float(np.sum(reference_of(entry, values, sample.kwargs) * weights))

        for direction in directions:
            numeric = _directional_difference(reference_loss, [arrays[index] for index in wrt], direction)
            analytic = sum(float(np.sum(numpy_of(gradient) * one))
                           for gradient, one in zip(sample_gradients, direction))
            assert analytic == pytest.approx(numeric, rel=1e-5, abs=1e-6), (
                f"d {entry.name}: autodiff {analytic} vs finite differences {numeric}, settings {sample.kwargs}")



@pytest.mark.parametrize("entry", [entry for entry in ENTRIES if entry.inputs], ids=entry_id)  # windows take none
def test_dtype_rule(entry):
    sample = entry.samples("float32")[0]
    if entry.primitive_check is not None:
        # the rule of the Tensor method and mint faces (``extended``); the Primitive's narrower check, made by the
        # functional op and the Primitive, is tested in test_dtype_refusals / test_common_dtype_refusals
        entry = dataclasses.replace(entry, function=entry.extended)
    # Index and mask inputs keep their dtype (an index or a mask of another dtype is refused).
    kept = [(entry.input_dtypes or {}).get(name) in (op_table.INDEX, op_table.MASK) for name in entry.inputs]
    integers = [tensor_of(array) if keep else tensor_of(_each(array, lambda item: np.round(item * 3).astype(np.int32)))
                for keep, array in zip(kept, sample.arrays)]
    booleans = [tensor_of(array) if keep else tensor_of(_each(array, lambda item: item > 0))
                for keep, array in zip(kept, sample.arrays)]
    if entry.dtypes in (op_table.FLOAT, op_table.INEXACT, op_table.COMPLEX):
        with pytest.raises(TypeError, match=entry.name):
            call_op(entry, integers, sample.kwargs)
    elif entry.dtypes in (op_table.TO_FLOAT, op_table.PROMOTED_TO_FLOAT) and any(
            callable(rule) for rule in (entry.input_dtypes or {}).values()):
        # a reader of its own takes some integer dtypes only (lgamma: Int32, not Bool): test_dtype_refusals
        assert all(dtype == ms.float32 for dtype in dtypes_of(lambda: call_op(entry, integers, sample.kwargs)))
    elif entry.dtypes in (op_table.TO_FLOAT, op_table.PROMOTED_TO_FLOAT):
        assert all(dtype == ms.float32 for dtype in dtypes_of(lambda: call_op(entry, integers, sample.kwargs)))
        assert all(dtype == ms.float32 for dtype in dtypes_of(lambda: call_op(entry, booleans, sample.kwargs)))
    elif entry.dtypes == op_table.CREATION:  # no Tensor input: the dtype asked for, Float32 by default
        for sample in entry.samples("float32"):
            expected = sample.kwargs.get("dtype") or ms.float32
            assert all(dtype == expected for dtype in dtypes_of(lambda: call_op(entry, [], sample.kwargs)))
    elif entry.dtypes == op_table.TO_FLOAT64:  # double precision whatever the input
        assert all(dtype == ms.float64 for dtype in dtypes_of(lambda: call_op(entry, integers, sample.kwargs)))
        assert all(dtype == ms.float64 for dtype in dtypes_of(lambda: call_op(entry, booleans, sample.kwargs)))
    elif entry.dtypes == op_table.SPECTRAL:
        with pytest.raises(TypeError, match=entry.name):
            call_op(entry, booleans, sample.kwargs)
        for dtype in dtypes_of(lambda: call_op(entry, integers, sample.kwargs)):
            assert dtype in (ms.float32, ms.complex64), f"{entry.name} made {dtype} of Int32"
    elif entry.name in FLOAT_COMMON:
        with pytest.raises(TypeError, match=entry.primitive):
            call_op(entry, integers, sample.kwargs)
    elif entry.dtypes in (op_table.BINARY, op_table.BINARY_TO_FLOAT):
        expected = _binary_result(entry, sample, ms.float32 if entry.dtypes == op_table.BINARY_TO_FLOAT else ms.int32)
        assert dtypes_of(lambda: call_op(entry, integers, sample.kwargs)) == [expected]
    else:
        if entry.dtypes == op_table.NUMBER:
            # a reader of its own may raise MindSpore's RuntimeError instead (mean: test_dtype_refusals)
            own_reader = any(callable(rule) for rule in (entry.input_dtypes or {}).values())
            with pytest.raises((TypeError, RuntimeError) if own_reader else TypeError, match=entry.name):
                call_op(entry, booleans, sample.kwargs)
        for dtype in dtypes_of(lambda: call_op(entry, integers, sample.kwargs)):
            if isinstance(dtype, tuple):  # a dtype answer (``ops.dtype``): the integers' own
                assert dtype == (ANSWER, ms.int32), f"{entry.name} answered {dtype[1]} for Int32"
                continue
            numpy_dtype = dtype if isinstance(dtype, np.dtype) else np.dtype(mstype.dtype_to_nptype(dtype))
            assert numpy_dtype.kind in "biu", f"{entry.name} made integers {dtype}"


def _each(array, change):
    """``change`` of an array, or of each array of a tuple of them, or of a sparse operand's values."""
    if isinstance(array, SPARSE_ARRAYS):
        return array.with_values(change(array.values))
    return tuple(_each(item, change) for item in array) if isinstance(array, tuple) else change(array)


def _binary_result(entry, sample, dtype):
    """``dtype``, or Bool for a predicate (comparisons, logical ops: the NumPy reference gives bool)."""
    predicate = np.asarray(entry.reference(*[float64_of(array) for array in sample.arrays])).dtype == np.bool_
    return ms.bool_ if predicate else dtype


BINARY_ENTRIES = [entry for entry in ENTRIES if entry.dtypes in (op_table.BINARY, op_table.BINARY_TO_FLOAT)]
# MindSpore 2.10's TruncateMod refuses an Int64 common dtype (tests/ops/test_common_dtype_refusals.py)
NO_INT64 = {"truncate_mod"}
# The float common dtypes MindSpore 2.10's Hypot, Zeta and Xdivy take (tests/ops/test_common_dtype_refusals.py)
FLOAT_COMMON = {"hypot": ("Float32", "Float64"), "zeta": ("Float32", "Float64"),
                "xdivy": ("Float16", "Float32", "Float64"),
                "addcdiv": ("Float16", "Float32", "Float64", "Int64")}  # (not binary: its Int32 is refused)
# Binary entries whose two Tensors must share one dtype (MindSpore 2.10: "For primitive[Zeta], the input type must be
# same."); a Python number beside a Tensor still lifts its kind
ONE_DTYPE = {"heaviside", "zeta"}


@pytest.mark.parametrize("entry", BINARY_ENTRIES, ids=entry_id)
def test_binary_promotion(entry):
    """A Python number lifts only the kind, a Tensor the width (checked on MindSpore 2.10 with add, mul,
    maximum, remainder, pow, equal; integer true division gives Float32)."""
    sample = entry.samples("float32")[0]
    first, second = sample.arrays
    if first.dtype.kind in "iu":  # an integer-only op: a Python float would be refused
        assert dtypes_of(lambda: entry.function(Tensor(first.astype(np.int8)), Tensor(second))) == [ms.int32]
        assert dtypes_of(lambda: entry.function(Tensor(first.astype(np.int8)), 2)) == [ms.int8]
        return
    whole = np.round(first * 3).astype(np.int32)
    floating = entry.dtypes == op_table.BINARY_TO_FLOAT
    cases = [((Tensor(whole), 2.5), ms.float32),
             ((Tensor(first.astype(np.float16)), 2.0), ms.float16),
             ((Tensor(first.astype(np.float16)), Tensor(second)), ms.float32),
             ((Tensor(whole), Tensor(whole.astype(np.int64))), ms.float32 if floating else ms.int64)]
    if entry.name in NO_INT64:
        cases = cases[:-1]
    if entry.name in ONE_DTYPE:
        for operands, _ in cases:
            if all(isinstance(operand, Tensor) for operand in operands):
                with pytest.raises(TypeError, match=rf"For primitive\[{entry.primitive}\], the input type must be same"):
                    entry.function(*operands)
        cases = [(operands, expected) for operands, expected in cases
                 if not all(isinstance(operand, Tensor) for operand in operands)]
    if entry.name in FLOAT_COMMON:  # the other common dtypes are refused
        for operands, expected in cases:
            if str(expected) not in FLOAT_COMMON[entry.name]:
                with pytest.raises(TypeError, match=entry.primitive):
                    entry.function(*operands)
        cases = [(operands, expected) for operands, expected in cases if str(expected) in FLOAT_COMMON[entry.name]]
    for operands, expected in cases:
        result = dtypes_of(lambda: entry.function(*operands))
        assert result == [_binary_result(entry, sample, expected)], (entry.name, operands, result)

