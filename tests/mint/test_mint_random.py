"""mint's samplers: shapes, dtypes, value ranges, and reproducibility under mindspore.set_seed."""
import numpy as np
import pytest

import sporax as ms
from sporax import mint, ops


def _draw():
    ms.set_seed(7)
    return [mint.rand(2, 3), mint.randn((4,)), mint.randint(2, 5, (3, 3)), mint.randint(4, (5,)),
            mint.randperm(6), mint.normal(1.0, 0.1, (1000,)), mint.bernoulli(mint.ones((2, 2)) * 0.5),
            mint.multinomial(ms.Tensor([0.0, 0.0, 1.0]), 2, True), mint.rand_like(mint.ones((2,))),
            mint.randint_like(mint.ones((3,)), 1, 3)]


def test_samplers_shapes_ranges_and_seed():
    first, second = _draw(), _draw()
    for a, b in zip(first, second):
        np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())
    rand, randn, randint, randint_high, randperm, normal, bernoulli, multinomial, rand_like, randint_like = first
    assert rand.shape == (2, 3) and rand.dtype == ms.float32 and 0 <= rand.asnumpy().min() < 1
    assert randn.shape == (4,)
    values = randint.asnumpy()
    assert randint.dtype == ms.int64 and values.min() >= 2 and values.max() < 5
    assert randint_high.asnumpy().max() < 4
    assert sorted(randperm.asnumpy().tolist()) == list(range(6)) and randperm.dtype == ms.int64
    assert abs(float(normal.asnumpy().mean()) - 1.0) < 0.02 and abs(float(normal.asnumpy().std()) - 0.1) < 0.02
    assert set(np.unique(bernoulli.asnumpy()).tolist()) <= {0.0, 1.0}
    assert multinomial.asnumpy().tolist() == [2, 2]
    assert rand_like.shape == (2,)
    assert set(randint_like.asnumpy().tolist()) <= {1, 2}
    assert mint.empty(2, 3).shape == (2, 3) and mint.empty_like(rand).shape == (2, 3)


def test_a_generator_is_refused_by_name_and_multinomial_gives_int64():
    """sporax has one random stream: mint's ``generator`` is refused with the reason; MindSpore 2.10 documents
    mint.multinomial's result as Int64 (ops.multinomial's is Int32)."""
    import pytest

    for sampler, arguments in ((mint.rand, (2,)), (mint.randperm, (3,)), (mint.normal, (0.0, 1.0, (2,)))):
        with pytest.raises(NotImplementedError, match=f"mint.{sampler.__name__}: a 'generator'.*set_seed"):
            sampler(*arguments, generator=object())
    assert mint.multinomial(ms.Tensor([0.5, 0.5]), 2).dtype == ms.int64


@pytest.mark.parametrize("name", ["rand", "randn"])
def test_a_leading_size_tuple_ignores_the_positional_arguments_after_it(name):
    # MindSpore 2.10 (recorded): mint.randn((1, 2, 4, 4, 5), ms.float32) has shape (1, 2, 4, 4, 5);
    # mint.rand((2, 3), ms.float16) is Float32 (rand_ext takes size[0] and drops the rest)
    sample = getattr(mint, name)
    assert sample((1, 2, 4, 4, 5), ms.float32).shape == (1, 2, 4, 4, 5)
    assert sample([2, 3], ms.float16).dtype == ms.float32
    assert sample(2, 3, dtype=ms.float16).dtype == ms.float16


def test_mint_zeros_takes_one_positional_argument():
    # MindSpore 2.10: mint.zeros(size, *, dtype=None), like mint.ones; ops.zeros takes dtype positionally
    with pytest.raises(TypeError, match=r"zeros\(\) takes 1 positional argument but 2 were given"):
        mint.zeros((2, 3), ms.float16)
    assert mint.zeros((2, 3), dtype=ms.float16).dtype == ms.float16
    assert ops.zeros((2, 3), ms.float16).dtype == ms.float16


def test_mint_empty_refuses_arguments_after_a_size_tuple():
    # MindSpore 2.10 (recorded): mint.empty((2, 3), mindspore.float16) -> TypeError "empty() got extra positional args."
    with pytest.raises(TypeError, match=r"empty\(\) got extra positional args"):
        mint.empty((2, 3), ms.float16)
    assert mint.empty((2, 3), dtype=ms.float16).shape == (2, 3) and mint.empty(2, 3).shape == (2, 3)
