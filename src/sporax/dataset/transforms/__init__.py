"""``mindspore.dataset.transforms``: general transforms usable on any column."""
from sporax.dataset.transforms.base import TensorOperation
from sporax.dataset.transforms.generic import (Compose, Concatenate, Duplicate, Fill, Mask, OneHot, PadEnd, Plugin,
                                               Relational, Slice, TypeCast, Unique, not_random)
from sporax.dataset.transforms.random_ops import RandomApply, RandomChoice, RandomOrder

PyTensorOperation = TensorOperation

__all__ = ["Compose", "Concatenate", "Duplicate", "Fill", "Mask", "OneHot", "PadEnd", "Plugin", "PyTensorOperation",
           "RandomApply", "RandomChoice", "RandomOrder", "Relational", "Slice", "TensorOperation", "TypeCast", "Unique",
           "not_random"]
