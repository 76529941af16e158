"""``mindspore.dataset.dataloader``: MindSpore 2.10's PyTorch-style DataLoader, Dataset and Sampler API.

Pure Python over NumPy: samples come from the user's dataset, indices from the samplers, and
``default_collate`` turns batches into Tensors (the Tensor type is registered by ``sporax``).
"""
from sporax.dataset.dataloader.collation import default_collate, default_convert
from sporax.dataset.dataloader.datasets import Dataset, IterableDataset, TensorDataset
from sporax.dataset.dataloader.loader import DataLoader
from sporax.dataset.dataloader.samplers import (
    BatchSampler, DistributedSampler, RandomSampler, Sampler, SequentialSampler,
)
from sporax.dataset.dataloader.workers import get_worker_info

__all__ = [
    "BatchSampler",
    "DataLoader",
    "Dataset",
    "DistributedSampler",
    "IterableDataset",
    "RandomSampler",
    "Sampler",
    "SequentialSampler",
    "TensorDataset",
    "default_collate",
    "default_convert",
    "get_worker_info",
]
