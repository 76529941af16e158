"""Initializers: fan rules, distribution moments, seeds, lazy tensors, names and errors (MindSpore 2.10 rules)."""
import math

import numpy as np
import pytest

import sporax.ops  # noqa: F401
from sporax.core import Tensor, dtype as ms, set_seed
from sporax.core import initializer as init
from sporax.core.initializer import _calculate_fan_in_and_fan_out, initializer, make_array


@pytest.mark.parametrize("shape, fans", [((200, 50), (50, 200)), ((64, 16, 3, 3), (144, 576)), ((64, 16, 3), (48, 192))])
def test_fans(shape, fans):
    assert _calculate_fan_in_and_fan_out(shape) == fans


def test_fans_need_two_dimensions():
    with pytest.raises(ValueError, match="fewer than 2 dimensions"):
        initializer(init.XavierUniform(), (4,)).init_data()


def _draw(initializer_object, shape=(400, 500), dtype=ms.float32):
    return initializer(initializer_object, shape, dtype).asnumpy()


@pytest.mark.parametrize("initializer_object, shape, low, high, std", [
    (init.HeUniform(), (200, 50), -math.sqrt(6 / 50), math.sqrt(6 / 50), math.sqrt(2 / 50)),
    (init.HeUniform(), (64, 16, 3, 3), -math.sqrt(6 / 144), math.sqrt(6 / 144), math.sqrt(2 / 144)),
    (init.XavierUniform(), (200, 50), -math.sqrt(6 / 250), math.sqrt(6 / 250), math.sqrt(2 / 250)),
    (init.Uniform(), (300, 100), -0.07, 0.07, 0.07 / math.sqrt(3)),
    (init.Uniform(scale=2.0), (300, 100), -2.0, 2.0, 2.0 / math.sqrt(3)),
])
def test_uniform_bounds_and_spread(initializer_object, shape, low, high, std):
    values = _draw(initializer_object, shape)
    assert values.min() >= low and values.max() <= high
    assert values.min() < low * 0.98 and values.max() > high * 0.98
    assert abs(values.std() - std) < 0.03 * std
    assert abs(values.mean()) < 0.05 * std


@pytest.mark.parametrize("initializer_object, shape, mean, std", [
    (init.Normal(), (300, 100), 0.0, 0.01),
    (init.Normal(sigma=2.0, mean=1.0), (300, 100), 1.0, 2.0),
    (init.HeNormal(), (200, 50), 0.0, math.sqrt(2 / 50)),
    (init.HeNormal(mode="fan_out"), (200, 50), 0.0, math.sqrt(2 / 200)),
    (init.HeNormal(nonlinearity="tanh"), (200, 50), 0.0, 5 / 3 / math.sqrt(50)),
    (init.XavierNormal(gain=2), (200, 50), 0.0, 2 * math.sqrt(2 / 250)),
])
def test_normal_moments(initializer_object, shape, mean, std):
    values = _draw(initializer_object, shape)
    assert abs(values.mean() - mean) < 0.05 * std + 1e-6
    assert abs(values.std() - std) < 0.03 * std


def test_truncated_normal_uses_absolute_bounds():
    values = _draw(init.TruncatedNormal(sigma=1.0, a=-0.5, b=0.5), (20000,))
    assert values.min() >= -0.5 and values.max() <= 0.5 and abs(values.std() - 0.2819) < 0.01
    small = _draw(init.TruncatedNormal(), (20000,))
    assert abs(small.std() - 0.01) < 0.0005


def test_constants():
    assert _draw(init.One(), (2, 2)).tolist() == [[1, 1], [1, 1]]
    assert _draw(init.Zero(), (3,)).tolist() == [0, 0, 0]
    assert initializer(init.Constant(2.5), (2,), ms.int32).asnumpy().tolist() == [2, 2]
    assert initializer(7, (2,), ms.float16).asnumpy().tolist() == [7, 7]
    assert initializer(init.One(), (2, 2), ms.bool_).asnumpy().all()


def test_identity_dirac_orthogonal_sparse():
    np.testing.assert_array_equal(_draw(init.Identity(), (2, 3)), np.eye(2, 3))
    dirac = _draw(init.Dirac(groups=2), (4, 2, 3))
    expected = np.zeros((4, 2, 3), np.float32)
    expected[0, 0, 1] = expected[1, 1, 1] = expected[2, 0, 1] = expected[3, 1, 1] = 1
    np.testing.assert_array_equal(dirac, expected)
    orthogonal = _draw(init.Orthogonal(), (3, 5))
    np.testing.assert_allclose(orthogonal @ orthogonal.T, np.eye(3), atol=1e-5)
    sparse = _draw(init.Sparse(0.5), (4, 3))
    assert ((sparse == 0).sum(axis=0) == 2).all()
    with pytest.raises(ValueError, match="Identity initializer"):
        initializer(init.Identity(), (2, 3, 4)).init_data()
    with pytest.raises(ValueError, match="divisible by groups"):
        initializer(init.Dirac(groups=3), (4, 2, 3)).init_data()


def test_variance_scaling():
    values = _draw(init.VarianceScaling(scale=2.0, mode="fan_avg", distribution="uniform"), (200, 50))
    limit = math.sqrt(3 * 2.0 / 125)
    assert values.min() >= -limit and values.max() <= limit
    with pytest.raises(ValueError, match="'mode' must be fan_in, fan_out or fan_avg"):
        init.VarianceScaling(mode="x")


def test_seed_makes_draws_repeat():
    set_seed(7)
    first = _draw(init.Normal(), (5, 5))
    second = _draw(init.Normal(), (5, 5))
    set_seed(7)
    np.testing.assert_array_equal(_draw(init.Normal(), (5, 5)), first)
    assert not np.array_equal(first, second)


def test_initializer_returns_lazy_tensor_filled_on_first_use():
    tensor = initializer("normal", (2, 3))
    assert tensor._array is None and tensor.shape == (2, 3) and tensor.dtype is ms.float32
    assert tensor.asnumpy().shape == (2, 3) and tensor._array is not None


@pytest.mark.parametrize("name, cls", [
    ("normal", init.Normal), ("ones", init.One), ("zeros", init.Zero), ("xavier_uniform", init.XavierUniform),
    ("he_uniform", init.HeUniform), ("truncatedNormal", init.TruncatedNormal), ("uniform", init.Uniform),
    ("HeNormal", init.HeNormal), ("xavier_normal", init.XavierNormal), ("One", init.One),
])
def test_string_names(name, cls):
    tensor = initializer(name, (4, 4))
    assert isinstance(tensor._init[0], cls)


def test_initializer_with_tensor_and_errors():
    source = Tensor([1.0, 2.0])
    assert initializer(source, [2]) is source
    with pytest.raises(ValueError, match="should be same as the argument 'shape'"):
        initializer(source, [3])
    with pytest.raises(ValueError, match="the class corresponding to 'foo' was not found"):
        initializer("foo", [3])
    with pytest.raises(TypeError, match="'initializer'"):
        initializer(None, [3])
    with pytest.raises(ValueError, match="must be positive integer"):
        initializer(init.One(), (2, -1))
    with pytest.raises(ValueError, match="nonlinearity"):
        initializer(init.HeUniform(nonlinearity="foo"), (2, 2)).init_data()


def test_call_fills_numpy_array_and_custom_subclass():
    array = np.zeros((2, 2), np.float32)
    assert init.One()(array) is array and array.sum() == 4

    class Twos(init.Initializer):
        def _initialize(self, arr):
            arr.fill(2)

    assert make_array(Twos(), (3,), ms.float32).tolist() == [2, 2, 2]
    assert Tensor(shape=(2,), dtype=ms.int32, init=Twos()).asnumpy().tolist() == [2, 2]


def test_new_shapes_compile_nothing(caplog):
    """Initializers draw with NumPy: a new weight shape costs no XLA compile (jax.random would)."""
    import logging

    import jax

    make_array(init.Normal(), (3, 3), ms.float32)  # the key-split program compiles once
    jax.config.update("jax_log_compiles", True)
    try:
        with caplog.at_level(logging.DEBUG):
            for shape in [(7, 13), (5, 3, 11), (2, 9, 3, 3)]:
                for name in ("normal", "he_uniform", "xavier_uniform", "truncatedNormal", "zeros"):
                    make_array(name, shape, ms.float32)
                make_array(1.5, shape, ms.float16)
                make_array(init.VarianceScaling(), shape, ms.float32)
    finally:
        jax.config.update("jax_log_compiles", False)
    compiles = [record.getMessage() for record in caplog.records if "Compiling" in record.getMessage()]
    assert compiles == []


def test_truncated_normal_far_tail_and_half_precision():
    values = _draw(init.TruncatedNormal(sigma=1.0, a=3.0, b=3.5), (2000,))
    assert values.min() >= 3.0 and values.max() <= 3.5
    half = initializer(init.Normal(sigma=2.0), (300, 100), ms.float16).asnumpy()
    assert half.dtype == np.float16 and abs(half.astype(np.float32).std() - 2.0) < 0.06


def test_library_registered_initializer_matches_mindspore(monkeypatch):
    """A library's own Initializer, named by `_register` and filled by `_init_random_uniform`/`_assignment`
    (mindchemistry's e3 initializers), draws MindSpore's values; a taken name keeps its built-in class.
    Values recorded from MindSpore 2.10 (np.random.seed(3) then the three draws in order)."""
    monkeypatch.setattr(init, "_INITIALIZER_ALIAS", dict(init._INITIALIZER_ALIAS))

    @init._register("halfu")
    class HalfUniform(init.Initializer):
        def __init__(self, scale=1.0):
            super().__init__(scale=scale)
            self.scale = scale

        def _initialize(self, arr):
            init._assignment(arr, init._init_random_uniform(0.0, self.scale, arr.shape))

    @init._register()
    class Uniform(init.Initializer):  # noqa: F811 - same name as the built-in: the name stays the built-in's
        def _initialize(self, arr):
            arr.fill(7)

    np.random.seed(3)
    np.testing.assert_allclose(initializer("halfuniform", [2, 3], ms.float32).asnumpy(),
                               [[0.27186325192451477, 0.49697282910346985, 0.3867376744747162],
                                [0.20661361515522003, 0.9100462794303894, 0.16159717738628387]], rtol=1e-6)
    np.testing.assert_allclose(initializer("HalfU", [4], ms.float32).asnumpy(),
                               [0.9824928045272827, 0.48087021708488464, 0.15147161483764648, 0.6831479668617249],
                               rtol=1e-6)
    np.testing.assert_allclose(initializer(HalfUniform(2.0), [3], ms.float64).asnumpy(),
                               [0.9727605581283569, 1.5656960010528564, 0.2102840691804886], rtol=1e-6)
    np.testing.assert_allclose(initializer("uniform", [3], ms.float32).asnumpy(),
                               [-0.0017839475767686963, 0.06499017775058746, 0.02214369922876358], rtol=1e-5)


def test_private_random_helpers_match_mindspore():
    """`_init_random_normal`/`_init_truncated_normal` return float32 NumPy draws of MindSpore's stream, and
    `_assignment` fills 0-d and n-d arrays in place (values recorded from MindSpore 2.10, np.random.seed(5))."""
    np.random.seed(5)
    normal = init._init_random_normal(1.0, 2.0, (3,))
    assert normal.dtype == np.float32
    np.testing.assert_allclose(normal, [-0.019931744784116745, 4.585175514221191, -0.17832404375076294], rtol=1e-5)
    init._init_random_normal(1.0, 2.0, (3,))  # the recording drew twice: each call takes one seed
    np.testing.assert_allclose(init._init_truncated_normal(-1.0, 1.0, 0.0, 1.0, [2, 2]),
                               [[0.36553770303726196, 0.9820757508277893], [0.7736586928367615, -0.6383225321769714]],
                               rtol=1e-5)
    scalar, matrix = np.zeros((), np.float32), np.zeros((2, 2), np.float32)
    assert init._assignment(scalar, 2.5) is scalar and scalar == 2.5
    init._assignment(matrix, np.arange(4.0).reshape(2, 2))
    np.testing.assert_array_equal(matrix, [[0.0, 1.0], [2.0, 3.0]])
    with pytest.raises(ValueError, match="sigma"):
        init._init_random_normal(0.0, -1.0, (2,))


def test_fill_initializers_called_on_a_parameter_leave_it_unchanged_as_mindspore():
    # MindSpore 2.10 (recorded): Constant(0.0)(parameter), One()(parameter) and Zero()(parameter) return None and
    # the Parameter keeps its values (its fill is out of place); mindocr's SVTR head calls zeros_(m.bias) so.
    from sporax import Parameter, Tensor
    from sporax.common.initializer import Constant, One, TruncatedNormal, Zero
    parameter = Parameter(Tensor(np.full((2, 2), 5.0, np.float32)), name="w")
    for init in (Constant(value=0.0), One(), Zero()):
        assert init(parameter) is None
        np.testing.assert_array_equal(parameter.asnumpy(), np.full((2, 2), 5.0, np.float32))
    array = np.full((3,), 5.0, np.float32)
    Constant(value=2.0)(array)  # a NumPy array is filled in place
    np.testing.assert_array_equal(array, np.full((3,), 2.0, np.float32))
    with pytest.raises(TypeError):
        TruncatedNormal(0.02)(parameter)  # MindSpore raises TypeError here too
