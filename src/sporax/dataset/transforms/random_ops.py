"""Transforms that choose at random which other transforms to apply."""
from sporax.dataset.transforms.base import (TensorOperation, apply_chain, check_transforms_list,
                                            random_generator, unpack)


class RandomApply(TensorOperation):
    """Apply the whole list of transforms with probability ``prob``, else pass the row through."""

    random = True

    def __init__(self, transforms, prob=0.5):
        self.transforms = check_transforms_list("RandomApply", transforms)
        if isinstance(prob, bool) or not isinstance(prob, (int, float)):
            raise TypeError(f"RandomApply: prob must be of type float, but got {type(prob).__name__}.")
        if not 0.0 <= prob <= 1.0:
            raise ValueError(f"RandomApply: Input prob is not within the required interval of [0.0, 1.0], got {prob}.")
        self.prob = prob

    def __call__(self, *columns):
        if random_generator().random() < self.prob:
            columns = apply_chain(self.transforms, columns)
        return unpack(columns)


class RandomChoice(TensorOperation):
    """Apply one transform picked uniformly at random from the list."""

    random = True

    def __init__(self, transforms):
        self.transforms = check_transforms_list("RandomChoice", transforms)

    def __call__(self, *columns):
        index = min(int(random_generator().random() * len(self.transforms)), len(self.transforms) - 1)
        return unpack(apply_chain([self.transforms[index]], columns))


class RandomOrder(TensorOperation):
    """Apply every transform of the list, in a random order."""

    random = True

    def __init__(self, transforms):
        self.transforms = check_transforms_list("RandomOrder", transforms)

    def __call__(self, *columns):
        order = random_generator().permutation(len(self.transforms))
        return unpack(apply_chain([self.transforms[i] for i in order], columns))
