"""mindspore.numpy calls from MindSpore 2.10's docstring examples; expected values, dtypes and
result types recorded from MindSpore 2.10 on CPU."""
import numpy as np
import pytest

import sporax.numpy as mnp


def _values(tensor, dtype):
    assert str(tensor.dtype) == dtype
    return tensor.asnumpy().tolist()


def test_several_arrays_come_back_as_a_list():
    out = mnp.atleast_1d(mnp.ones((2, 3)), mnp.ones(()), mnp.ones(5))
    assert isinstance(out, list) and [list(x.shape) for x in out] == [[2, 3], [1], [5]]
    assert isinstance(mnp.broadcast_arrays(mnp.ones(2), mnp.ones((2, 2))), list)
    assert isinstance(mnp.indices((2, 3)), list)
    assert isinstance(mnp.histogramdd(mnp.ones((3, 2)))[1], list)
    sparse = mnp.indices((2, 2), sparse=True)
    assert [list(x.shape) for x in sparse] == [[2, 1], [1, 2]] and str(sparse[0].dtype) == "Int32"


def test_size_is_a_python_int():
    x = mnp.arange(10).reshape(2, 5).astype('float32')
    assert mnp.size(x) == 10 and type(mnp.size(x)) is int
    assert mnp.size(x, axis=1) == 5 and mnp.size(x, -1) == 5


def test_repeat_takes_a_list_of_counts():
    x = mnp.array([[1, 2], [3, 4]])
    assert _values(mnp.repeat(x, [1, 2], axis=0), "Int32") == [[1, 2], [3, 4], [3, 4]]
    assert _values(mnp.repeat(x, (1, 2), axis=0), "Int32") == [[1, 2], [3, 4], [3, 4]]


def test_histogram_takes_a_list_of_edges():
    counts, edges = mnp.histogram([1, 2, 1], bins=[0, 1, 2, 3])
    assert _values(counts, "Float32") == [0, 2, 1] and _values(edges, "Int32") == [0, 1, 2, 3]
    counts, edges = mnp.histogram([1, 2, 1], bins=[0, 1.5, 2, 3])
    assert _values(counts, "Float32") == [2, 0, 1] and _values(edges, "Float32") == [0, 1.5, 2, 3]
    counts, _ = mnp.histogram([[1, 2, 1], [1, 0, 1]], bins=[0, 1, 2, 3])
    assert _values(counts, "Float32") == [1, 4, 1]


def test_unravel_index_fortran_order():
    rows, cols = mnp.unravel_index([31, 41, 13], (7, 6), order='F')
    assert _values(rows, "Int32") == [3, 6, 6] and _values(cols, "Int32") == [4, 5, 1]
    rows, cols = mnp.unravel_index([22, 41, 37], (7, 6))
    assert _values(rows, "Int32") == [3, 6, 6] and _values(cols, "Int32") == [4, 5, 1]


def test_integer_copysign_and_polyder_stay_integer():
    assert _values(mnp.copysign(mnp.array([1, -1, -1]), mnp.array([-1, 1, -1])), "Int32") == [-1, 1, -1]
    assert _values(mnp.copysign(mnp.array([1, -1]), mnp.array([-1., 1])), "Int32") == [-1, 1]
    assert _values(mnp.copysign(mnp.array([1., -1]), mnp.array([-1, 1])), "Float32") == [-1, 1]
    assert _values(mnp.polyder([1, 1, 1, 1]), "Int32") == [3, 2, 1]
    assert _values(mnp.polyder([1, 1, 1, 1], 2), "Int32") == [6, 2]
    np.testing.assert_allclose(mnp.polyder(mnp.array([1., 2., 3.])).asnumpy(), [2, 2])


def test_geomspace_values_as_recorded():
    # Recorded on MindSpore 2.10 (float32, bit for bit): start * ratio ** k, so geomspace(1, 256, num=9)
    # (its docstring) gives exact powers of two.
    recorded = [((1, 256, 9, True), [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0]),
                ((1, 100, 5, True), [1.0, 3.1622776985168457, 10.0, 31.622777938842773, 100.00000762939453]),
                ((2, 3, 7, False), [2.0, 2.1192679405212402, 2.2456483840942383, 2.3795652389526367,
                                    2.521468162536621, 2.6718332767486572, 2.831165313720703]),
                ((-1, -1000, 4, True), [-1.0, -10.000000953674316, -100.0000228881836, -1000.0003051757812])]
    for (start, stop, num, endpoint), expected in recorded:
        assert _values(mnp.geomspace(start, stop, num=num, endpoint=endpoint), "Float32") == expected


def test_polymul_keeps_integer_dtype():
    # Recorded on MindSpore 2.10: integer polynomials multiply to Int32, floats stay Float32.
    assert _values(mnp.polymul([3, 1, 2], [2, 5]), "Int32") == [6, 17, 9, 10]
    assert _values(mnp.polymul([1.5, 2], [2, 1]), "Float32") == [3.0, 5.5, 2.0]
    assert _values(mnp.polymul(mnp.array([1, 2], mnp.int32), [3, 4]), "Int32") == [3, 10, 8]


def test_fft_namespace_takes_numpys_argument_names():
    a = mnp.array([1.6243454, -0.6117564, -0.5281718, -1.0729686])
    np.testing.assert_allclose(mnp.fft.fft(a, n=4, axis=-1, norm="backward").asnumpy(),
                               [-0.5885514, 2.1525173 - 0.46121222j, 2.7808986, 2.1525173 + 0.46121222j], rtol=1e-5)
    np.testing.assert_allclose(mnp.fft.hfft(a, n=4, axis=-1).asnumpy(), [-0.12733912, 2.1525173, 2.3196864, 2.1525173],
                               rtol=1e-5)
    assert _values(mnp.fft.irfft(mnp.array([1, 2, 3, 4]), n=6), "Float32") == pytest.approx(
        [2.5, -0.6666667, 0, -0.16666667, 0, -0.6666667], abs=1e-6)
    assert str(mnp.fft.rfft(mnp.array([1, 2, 3, 4])).dtype) == "Complex64"
    assert mnp.fft.ihfft2(mnp.ones((4, 4)), s=(4, 4), axes=(0, 1)).shape == (4, 3)
    shifted = mnp.fft.fftshift(mnp.array([0, 1, 2, 3, 4, -5, -4, -3, -2, -1], dtype=mnp.int32))
    assert _values(shifted, "Int32") == [-5, -4, -3, -2, -1, 0, 1, 2, 3, 4]
    assert _values(mnp.fft.ifftshift(shifted), "Int32") == [0, 1, 2, 3, 4, -5, -4, -3, -2, -1]
    assert _values(mnp.fft.fftfreq(n=4, d=1.0), "Float32") == [0, 0.25, -0.5, -0.25]


def test_fft_ihfftn_is_hfftn_as_in_mindspore():
    # MindSpore 2.10's numpy.fft.ihfftn calls ops.hfftn: a real (4, 4) result, 16 at the origin (its docstring).
    out = mnp.fft.ihfftn(mnp.ones((4, 4)), s=(4, 4), axes=(0, 1), norm="backward")
    assert _values(out, "Float32") == [[16, 0, 0, 0]] + [[0, 0, 0, 0]] * 3
