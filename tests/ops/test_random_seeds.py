"""The ``seed`` argument of the random ops: MindSpore 2.10's errors for a bad one, and large seeds.

The error types and words were recorded on MindSpore 2.10 (CPU): ``ops.shuffle(x, seed=-3)`` raises
"ValueError: For 'shuffle', the 'seed' must be int and must >= 0, but got '-3' with type 'int'.", and so on
for every functional random op; ``bernoulli`` and ``randperm`` also take -1; ``2**40`` is a valid seed.
(MindSpore's tests/st/ops/cpu/test_random_shuffle.py checks the shuffle errors.)
"""
import numpy as np
import pytest

from sporax import ops
from sporax.core import dtype as mstype
from sporax.core import random_state
from sporax.core.tensor import Tensor

X = Tensor(np.random.default_rng(0).random((3, 4)).astype(np.float32))

# op name -> call with a seed (the ops whose seed MindSpore 2.10 checks as a non-negative int)
NON_NEGATIVE = {
    "shuffle": lambda s: ops.shuffle(X, seed=s),
    "multinomial": lambda s: ops.multinomial(X, 2, seed=s),
    "standard_normal": lambda s: ops.standard_normal((2, 3), seed=s),
    "uniform": lambda s: ops.uniform((2, 3), Tensor(0.0), Tensor(1.0), seed=s),
    "random_poisson": lambda s: ops.random_poisson(Tensor(np.array([2, 2]), mstype.int32), Tensor([1.0]), seed=s),
    "laplace": lambda s: ops.laplace((2, 3), Tensor(0.0), Tensor(1.0), seed=s),
    "normal": lambda s: ops.normal((2, 3), Tensor(0.0), Tensor(1.0), seed=s),
    "choice_with_mask": lambda s: ops.choice_with_mask(Tensor(np.array([[True, False]])), 2, seed=s),
    "randint": lambda s: ops.randint(0, 5, (2, 3), seed=s),
    "rand": lambda s: ops.rand(2, 3, seed=s),
    "randn_like": lambda s: ops.randn_like(X, seed=s),
    "dropout": lambda s: ops.dropout(X, 0.5, True, seed=s),
}


@pytest.mark.parametrize("name", sorted(NON_NEGATIVE))
def test_seed_must_be_a_non_negative_int(name):
    call = NON_NEGATIVE[name]
    with pytest.raises(ValueError, match=f"For '{name}', the 'seed' must be int and must >= 0, but got '-3' "
                                         "with type 'int'"):
        call(-3)
    with pytest.raises(ValueError, match="got '-1'"):
        call(-1)
    with pytest.raises(TypeError, match=f"For '{name}', the 'seed' must be int, but got 'float'"):
        call(1.6)
    with pytest.raises(TypeError, match=f"For '{name}', the 'seed' must be int and must >= 0, but got 'True' "
                                        "with type 'bool'"):
        call(True)


@pytest.mark.parametrize("name", sorted(NON_NEGATIVE))
def test_a_seed_beyond_32_bits_draws(name):
    # MindSpore 2.10 draws with seed=2**40 (JAX folds 32 bits at a time)
    NON_NEGATIVE[name](2 ** 40)


def test_a_seed_beyond_32_bits_is_its_own_stream():
    # its high bits count: 2**40 + 1 does not repeat seed 1's draws, and repeats its own
    random_state.set_seed(3)
    low = ops.rand(4, seed=1).asnumpy()
    random_state.set_seed(3)
    high = ops.rand(4, seed=2 ** 40 + 1).asnumpy()
    random_state.set_seed(3)
    np.testing.assert_array_equal(ops.rand(4, seed=2 ** 40 + 1).asnumpy(), high)
    assert not np.array_equal(low, high)


def test_bernoulli_and_randperm_also_take_minus_one():
    # MindSpore 2.10: bernoulli(seed=-1) and randperm(4, seed=-1) draw; -3 is a ValueError, 1.6 a TypeError
    ops.bernoulli(X, 0.5, seed=-1)
    assert sorted(ops.randperm(4, seed=-1).asnumpy().tolist()) == [0, 1, 2, 3]
    for call in (lambda s: ops.bernoulli(X, 0.5, seed=s), lambda s: ops.randperm(4, seed=s)):
        with pytest.raises(ValueError, match="-3"):
            call(-3)
        with pytest.raises(TypeError, match="seed"):
            call(1.6)
        with pytest.raises(TypeError, match="seed"):
            call(True)


def test_candidate_samplers_word_seed_errors_as_their_primitives():
    classes = Tensor(np.array([[1, 7], [0, 4]]), mstype.int64)
    with pytest.raises(ValueError, match="LogUniformCandidateSampler.*the argument 'seed' must >= 0, but got -3"):
        ops.log_uniform_candidate_sampler(classes, 2, 5, True, 5, seed=-3)
    with pytest.raises(TypeError, match="UniformCandidateSampler.*the type of 'seed' should be 'int', but got type "
                                        "'float'"):
        ops.uniform_candidate_sampler(Tensor(np.array([[1], [3]]), mstype.int64), 1, 3, False, 4, seed=1.6)


def test_multinomial_with_replacement_takes_a_negative_seed_but_not_a_float():
    # MindSpore 2.10: seed=-3 draws; seed=1.6 raises "the input[seed] must be int, but got <class 'float'>"
    probabilities = Tensor([[0.0, 1.0]])
    assert ops.multinomial_with_replacement(probabilities, -3, 0, 2, True).asnumpy().tolist() == [[1, 1]]
    with pytest.raises(TypeError, match="input\\[seed\\] must be int, but got <class 'float'>"):
        ops.multinomial_with_replacement(probabilities, 1.6, 0, 2, True)


def test_shuffle_takes_a_tensor_only():
    # MindSpore 2.10: ops.shuffle(2, seed=3) raises TypeError (RandomShuffle's input_x must be a Tensor)
    with pytest.raises(TypeError, match="shuffle"):
        ops.shuffle(2, seed=3)
    assert sorted(ops.shuffle(Tensor([1, 2, 3]), seed=3).asnumpy().tolist()) == [1, 2, 3]
