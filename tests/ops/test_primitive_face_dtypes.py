"""An entry's ``primitive_check``: a dtype MindSpore 2.10's Primitive refuses on the functional and Primitive faces
while its Tensor method, ``mint`` function and operators (an extended Primitive) compute it. ``ops.add`` of two Bool
operands is Add's TypeError; ``x.add(y)``, ``mint.add``, ``x + y``, ``x += y`` and ``x.add_(y)`` (AddExt) give their
logical or. Values and first lines recorded on MindSpore 2.10 CPU, one case per process (MindSpore caches a failed
Add's dtype check).
"""
import numpy as np
import pytest

import sporax as ms
from sporax import Tensor, mint, ops

ADD_REFUSED = ("For primitive[Add], the input argument[x] must be a type of {Tensor[BFloat16], Tensor[Float16], "
               "Tensor[Float32], Tensor[Float64], Tensor[Int16], Tensor[Int32], Tensor[Int64], Tensor[Int8], "
               "Tensor[UInt16], Tensor[UInt32], Tensor[UInt64], Tensor[UInt8]}, but got Tensor[Bool].")


def _b():
    return Tensor(np.array([True, False, True]))


def _c():
    return Tensor(np.array([True, True, False]))


@pytest.mark.parametrize("call", [lambda: ops.add(_b(), _c()), lambda: ops.add(_b(), True),
                                  lambda: ops.Add()(_b(), _c()), lambda: ops.tensor_add(_b(), _c()),
                                  lambda: ms.jit(ops.add)(_b(), _c())],
                         ids=["ops.add", "ops.add-True", "Add", "tensor_add", "jit"])
def test_primitive_faces_refuse_two_bools(call):
    with pytest.raises(TypeError) as caught:
        call()
    assert str(caught.value).split("\n")[0] == ADD_REFUSED


def _iadd():
    x = _b()
    x += _c()
    return x


@pytest.mark.parametrize("call, expected", [
    (lambda: _b().add(_c()), [True, True, True]),
    (lambda: _b().add(True), [True, True, True]),
    (lambda: _b() + _c(), [True, True, True]),
    (lambda: True + _b(), [True, True, True]),
    (lambda: mint.add(_b(), _c()), [True, True, True]),
    (lambda: mint.add(_b(), True), [True, True, True]),
    (lambda: mint.add(_b(), _c(), alpha=2), [True, True, True]),
    (lambda: mint.add(_b(), _c(), alpha=0), [True, False, True]),
    (lambda: _b().add(_c(), alpha=2), [True, True, True]),
    (lambda: _b().add(_c(), alpha=0), [True, False, True]),
    (_iadd, [True, True, True]),
    (lambda: _b().add_(_c()), [True, True, True]),
], ids=["method", "method-True", "+", "radd", "mint", "mint-True", "mint-alpha2", "mint-alpha0", "method-alpha2",
        "method-alpha0", "+=", "add_"])
def test_method_mint_and_operator_faces_give_bool(call, expected):
    result = call()
    assert result.dtype == ms.bool_
    assert result.asnumpy().tolist() == expected


@pytest.mark.parametrize("call, dtype, expected", [
    (lambda: ops.add(_b(), 1), ms.int64, [2, 1, 2]),
    (lambda: ops.add(_b(), 2.5), ms.float32, [3.5, 2.5, 3.5]),
    (lambda: ops.add(_b(), Tensor(np.array([1, 2, 3], np.int32))), ms.int32, [2, 2, 4]),
    (lambda: ops.add(Tensor(np.array([1, 0, 1], np.int64)), True), ms.int64, [2, 1, 2]),
    (lambda: _b().add(Tensor(np.array([3, 4, 0], np.int32)), alpha=2), ms.int32, [7, 8, 1]),
], ids=["bool+1", "bool+2.5", "bool+int32", "int64+True", "method-alpha-int"])
def test_primitive_faces_keep_mixed_bool_operands(call, dtype, expected):
    result = call()
    assert result.dtype == dtype
    assert result.asnumpy().tolist() == expected
