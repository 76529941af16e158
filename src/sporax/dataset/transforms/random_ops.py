"""Transforms that choose at random which other transforms to apply.

Under a set dataset seed they draw as MindSpore 2.10: RandomApply and RandomChoice from their own
``std::mt19937`` streams (``eager_words``), RandomOrder with Python's ``random.shuffle`` of its list.
"""
import random as python_random

from sporax.dataset.core import config
from sporax.dataset.core.random import eager_words, nested_operations, python_operation
from sporax.dataset.engine.sampler_order import below, canonical
from sporax.dataset.transforms.base import (PythonOperation, TensorOperation, apply_chain, check_transforms_list,
                                            random_generator, unpack)


class RandomApply(TensorOperation):
    """Apply the whole list of transforms with probability ``prob``, else pass the row through."""

    random = True
    mindspore_draws = True

    def __init__(self, transforms, prob=0.5):
        self.transforms = check_transforms_list("RandomApply", transforms)
        if isinstance(prob, bool) or not isinstance(prob, (int, float)):
            raise TypeError(f"RandomApply: prob must be of type float, but got {type(prob).__name__}.")
        if not 0.0 <= prob <= 1.0:
            raise ValueError(f"RandomApply: Input prob is not within the required interval of [0.0, 1.0], got {prob}.")
        self.prob = prob

    def __call__(self, *columns):
        words = eager_words(self)  # MindSpore: uniform_real_distribution<double>(0, 1) <= prob
        if (canonical(words) <= self.prob) if words is not None else random_generator().random() < self.prob:
            with nested_operations():
                columns = apply_chain(self.transforms, columns)
        return unpack(columns)


class RandomChoice(TensorOperation):
    """Apply one transform picked uniformly at random from the list."""

    random = True
    mindspore_draws = True

    def __init__(self, transforms):
        self.transforms = check_transforms_list("RandomChoice", transforms)

    def __call__(self, *columns):
        words = eager_words(self)
        if words is not None:
            index = below(words, len(self.transforms))
        else:
            index = min(int(random_generator().random() * len(self.transforms)), len(self.transforms) - 1)
        with nested_operations():
            return unpack(apply_chain([self.transforms[index]], columns))


class RandomOrder(PythonOperation, TensorOperation):
    """Apply every transform of the list, in a random order."""

    random = True
    mindspore_draws = True

    def __init__(self, transforms):
        self.transforms = check_transforms_list("RandomOrder", transforms)

    def __call__(self, *columns):
        if config.seed_was_set():
            # MindSpore's RandomOrder is Python: random.shuffle of its own list, in place, call after call
            python_random.shuffle(self.transforms)
            with python_operation():
                return unpack(apply_chain(self.transforms, columns))
        order = random_generator().permutation(len(self.transforms))
        return unpack(apply_chain([self.transforms[i] for i in order], columns))
