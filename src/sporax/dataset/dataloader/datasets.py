"""The map-style and iterable-style dataset bases of ``mindspore.dataset.dataloader`` and TensorDataset."""
from typing import Generic, Iterable, Iterator, TypeVar

_T_co = TypeVar("_T_co", covariant=True)


class Dataset(Generic[_T_co]):
    """Base of a map-style dataset: a subclass defines ``__getitem__`` (and ``__len__`` for samplers).

    Examples:
        >>> from mindspore.dataset.dataloader import Dataset
        >>> class MapStyleDataset(Dataset):
        ...     def __init__(self, data):
        ...         self.data = data
        ...     def __getitem__(self, index):
        ...         return self.data[index]
        ...     def __len__(self):
        ...         return len(self.data)
    """

    def __getitem__(self, index) -> _T_co:
        raise NotImplementedError(f"{self.__class__.__name__} must implement __getitem__ method.")


class IterableDataset(Dataset[_T_co], Iterable[_T_co]):
    """Base of an iterable-style dataset: a subclass defines ``__iter__``.

    With ``DataLoader(num_workers=N)`` every worker iterates its own ``iter(dataset)``; the dataset
    splits the stream by ``get_worker_info()`` (``id``, ``num_workers``) so workers do not repeat samples.
    """

    def __iter__(self) -> Iterator[_T_co]:
        raise NotImplementedError(f"{self.__class__.__name__} must implement __iter__ method.")


class TensorDataset(Dataset):
    """Samples are rows of the given tensors: item ``i`` is ``(tensors[0][i], tensors[1][i], ...)``.

    Args:
        tensors (Tensor): tensors sharing their first dimension.

    Raises:
        ValueError: the tensors' first dimensions differ.
    """

    def __init__(self, *tensors) -> None:
        super().__init__()
        if any(tensor.shape[0] != tensors[0].shape[0] for tensor in tensors):
            raise ValueError("All tensors must have the same size in the first dimension.")
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(tensor[index] for tensor in self.tensors)

    def __len__(self) -> int:
        return self.tensors[0].shape[0]
