"""Tensor.resize pads with zeros; Tensor.argmax/argmin_with_value over all elements."""
import numpy as np

import sporax as ms


def test_resize_cuts_or_pads_with_zeros():
    # MindSpore 2.10's Tensor.resize docstring example and more shapes, recorded on MindSpore 2.10 (CPU).
    x = ms.Tensor(np.array([[1, 2, 3], [4, 5, 6]], np.float32))
    assert x.resize(3, 3).asnumpy().tolist() == [[1, 2, 3], [4, 5, 6], [0, 0, 0]]
    assert x.resize(2, 2).asnumpy().tolist() == [[1, 2], [3, 4]]
    assert x.resize(2, 2, 2).asnumpy().tolist() == [[[1, 2], [3, 4]], [[5, 6], [0, 0]]]
    assert x.shape == (2, 3)
    integers = ms.Tensor(np.array([[1, 2], [3, 4]], np.int32)).resize(5)
    assert integers.asnumpy().tolist() == [1, 2, 3, 4, 0] and integers.dtype == ms.int32


def test_resize_in_graph_mode():
    resize = ms.jit(lambda t: t.resize((2, 4)))
    assert resize(ms.Tensor(np.arange(1, 7, dtype=np.float32))).asnumpy().tolist() == [[1, 2, 3, 4], [5, 6, 0, 0]]


def test_with_value_over_all_elements_is_a_scalar_pair():
    # MindSpore 2.10 (CPU): axis=None gives shape () values and indices even with keep_dims=True.
    x = ms.tensor([[9, 3, 4, 5], [5, 2, 7, 4], [8, 1, 3, 6]])
    values, indices = x.argmax_with_value(axis=None, keep_dims=True)
    assert values.shape == () and indices.shape == () and (values.item(), indices.item()) == (9, 0)
    values, indices = x.argmin_with_value(axis=None)
    # MindSpore 2.10 (CPU) gives the value 1 but reports index 0 over all elements; sporax gives the
    # flat position NumPy's argmin gives.
    assert values.item() == 1 and indices.item() == int(np.argmin(x.asnumpy())) == 9
    assert indices.dtype == ms.int64
    values, indices = x.argmax_with_value(axis=1, keep_dims=True)
    assert values.asnumpy().tolist() == [[9], [7], [8]] and indices.asnumpy().tolist() == [[0], [2], [0]]
