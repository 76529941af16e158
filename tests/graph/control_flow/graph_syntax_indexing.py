"""Tensor indexing and slice assignment in compiled code: ints, slices, ellipsis, None, bool masks, Tensor
indices, and indices that change inside loops.

One program per name (``nn.Cell`` classes, ``j_`` functions under ``ms.jit``, ``p_`` functions calling
compiled code); test_graph_syntax_modes runs each in GRAPH_MODE and under ``ms.jit`` in PyNative
against MindSpore 2.10's recorded result."""
# flake8: noqa
import numpy as np

import sporax as ms
from sporax import Tensor, nn, ops


class IndexEllipsis(nn.Cell):
    def construct(self, x):
        return x[..., 1], x[0, ...], x[...]


class IndexNoneAxis(nn.Cell):
    def construct(self, x):
        return x[None].shape, x[:, None].shape, x[..., None].shape, x[None, 1].shape


class IndexNegativeStepSlice(nn.Cell):
    def construct(self, x):
        return x[:, ::-1], x[::-1, 1:], x[:, -1:0:-1]


class IndexStepSlice(nn.Cell):
    def construct(self, x):
        return x[:, ::2], x[1:, 1::2]


class IndexIntAndSlice(nn.Cell):
    def construct(self, x):
        return x[1, 1:], x[-1, -1], x[0][2]


class IndexTensorScalar(nn.Cell):
    def construct(self, x):
        i = Tensor(1, ms.int32)
        return x[i], x[:, i]


class IndexTensorVector(nn.Cell):
    def construct(self, x):
        idx = Tensor(np.array([2, 0, 2], np.int32))
        return x[:, idx], x[Tensor(np.array([1, 0], np.int32))]


class IndexListOfInts(nn.Cell):
    def construct(self, x):
        return x[[1, 0]], x[:, [0, 2]]


class IndexBoolMaskRead(nn.Cell):
    def construct(self, x):
        mask = x > 3
        return x[mask]


class IndexBoolList(nn.Cell):
    def construct(self, x):
        return x[[True, False]]


class IndexTupleOfTensors(nn.Cell):
    def construct(self, x):
        rows = Tensor(np.array([0, 1], np.int32))
        cols = Tensor(np.array([2, 0], np.int32))
        return x[rows, cols]


class IndexOutOfRangeTensorRow(nn.Cell):
    def construct(self, x):
        return x[5]


class SetItemInt(nn.Cell):
    def construct(self, x):
        y = x.copy()
        y[0] = 0
        return y


class SetItemSlice(nn.Cell):
    def construct(self, x):
        y = x * 1
        y[:, 1:] = -1
        return y


class SetItemBoolMaskScalar(nn.Cell):
    def construct(self, x):
        y = x * 1
        y[y > 3] = 0
        return y


class SetItemBoolMaskTensor(nn.Cell):
    def construct(self, x):
        y = x * 1
        mask = y < 3
        y[mask] = Tensor(9.0, ms.float32)
        return y


class SetItemEllipsis(nn.Cell):
    def construct(self, x):
        y = x * 1
        y[..., 0] = 7
        return y


class SetItemTensorIndex(nn.Cell):
    def construct(self, x):
        y = x * 1
        y[Tensor(1, ms.int32)] = Tensor(np.array([0, 0, 0], np.float32))
        return y


class SetItemTensorVectorIndex(nn.Cell):
    def construct(self, x):
        y = x * 1
        y[:, Tensor(np.array([0, 2], np.int32))] = 5.0
        return y


class SetItemBroadcastRow(nn.Cell):
    def construct(self, x):
        y = x * 1
        y[:] = Tensor(np.array([1, 2, 3], np.float32))
        return y


class SetItemNegativeStep(nn.Cell):
    def construct(self, x):
        y = x * 1
        y[:, ::-2] = 0
        return y


class SetItemAugmented(nn.Cell):
    def construct(self, x):
        y = x * 1
        y[1] += 10
        y[:, 0] *= 2
        return y


class SetItemNone(nn.Cell):
    def construct(self, x):
        y = x * 1
        y[None, 0] = 3
        return y


class SetItemShapeMismatch(nn.Cell):
    def construct(self, x):
        y = x * 1
        y[0] = Tensor(np.array([1, 2], np.float32))
        return y


class SetItemListIndex(nn.Cell):
    def construct(self, x):
        y = x * 1
        y[[0, 1], [1, 2]] = 0
        return y


class IndexInForLoop(nn.Cell):
    def construct(self, x):
        s = x[0] * 0
        for i in range(2):
            s = s + x[i]
        return s


class IndexTensorInWhileLoop(nn.Cell):
    def construct(self, x):
        i = Tensor(0, ms.int32)
        s = x[0] * 0
        while i < 2:
            s = s + x[i]
            i = i + 1
        return s


class SetItemInForLoop(nn.Cell):
    def construct(self, x):
        y = x * 1
        for i in range(3):
            y[:, i] = y[:, i] * (i + 1)
        return y


class SetItemInTensorIf(nn.Cell):
    def construct(self, x):
        y = x * 1
        if x.sum() > 10:
            y[0, 0] = 100
        else:
            y[0, 0] = -100
        return y


class IndexColumnLoopStack(nn.Cell):
    def construct(self, x):
        cols = []
        for j in range(x.shape[1] - 1, -1, -1):
            cols.append(x[:, j])
        return ops.stack(cols, axis=1)


class IndexSliceWithShapeVars(nn.Cell):
    def construct(self, x):
        n = x.shape[1] // 2
        return x[:, :n], x[:, n:]


class IndexSliceTensorBounds(nn.Cell):
    def construct(self, x):
        start = Tensor(1, ms.int32)
        return x[:, start:]


class IndexScalarTensorItem(nn.Cell):
    def construct(self, x):
        v = x[1, 2]
        return v, v.shape, float(v)


class IndexOneHotLikeMask(nn.Cell):
    def construct(self, x):
        mask = ops.zeros_like(x) > 0
        mask[0, 1] = True
        return ops.select(mask, x, ops.zeros_like(x))


class IndexChained(nn.Cell):
    def construct(self, x):
        return x[1][::-1][0], x[:, 1:][0]


class IndexEllipsisNoneMixed(nn.Cell):
    def construct(self, x):
        return x[None, ..., 0].shape, x[..., None, 1]


class IndexBoolScalarTrue(nn.Cell):
    def construct(self, x):
        return x[True].shape, x[False].shape


class IndexMaskedFill(nn.Cell):
    def construct(self, x):
        return x.masked_fill(x > 2, 0.0)


class IndexGatherTakeAlong(nn.Cell):
    def construct(self, x):
        idx = Tensor(np.array([[0], [2]], np.int32))
        return ops.gather_elements(x, 1, idx)


class IndexWhereNonzero(nn.Cell):
    def construct(self, x):
        return ops.where(x > 3, x, -x)


class IndexArgmaxThenIndex(nn.Cell):
    def construct(self, x):
        i = x.sum(axis=1).argmax()
        return x[i]


class SetItemWithListValue(nn.Cell):
    def construct(self, x):
        y = x * 1
        y[0] = [7.0, 8.0, 9.0]
        return y


class SetItemTupleOfSlices(nn.Cell):
    def construct(self, x):
        y = x * 1
        y[0:1, 1:3] = Tensor(np.array([[0, 0]], np.float32))
        return y


@ms.jit
def j_setitem_rows_loop(x):
    y = ops.zeros_like(x)
    for i in range(2):
        y[i] = x[1 - i]
    return y


@ms.jit
def j_index_tensor_from_arg(x):
    i = (x[0, 0] > 0).astype(ms.int32)
    return x[i]


@ms.jit
def j_setitem_tensor_mask_from_arg(x):
    y = x.copy()
    y[x == x.max()] = -1.0
    return y
