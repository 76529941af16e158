"""``compare`` and ``show``: two pipelines compared, or one printed, by their serialized JSON."""
import json
import logging

from sporax.dataset.engine.serializer_deserializer import serialize

_LOG = logging.getLogger("sporax.dataset")


def compare(pipeline1, pipeline2):
    """Whether two pipelines are built the same (same nodes, arguments and operations).

    Args:
        pipeline1 (Dataset): the last node of one pipeline.
        pipeline2 (Dataset): the last node of the other.

    Returns:
        bool, True when their serialized forms are equal.

    Examples:
        >>> import sporax.dataset as ds
        >>> a = ds.NumpySlicesDataset([1, 2, 3], shuffle=False).batch(2)
        >>> b = ds.NumpySlicesDataset([1, 2, 3], shuffle=False).batch(2)
        >>> ds.compare(a, b)
        True
    """
    return serialize(pipeline1) == serialize(pipeline2)


def show(dataset, indentation=2):
    """Log the pipeline ending at ``dataset`` as JSON (logger ``sporax.dataset``, level INFO).

    Args:
        dataset (Dataset): the last node of the pipeline.
        indentation (int, optional): JSON indentation; None writes one line. Default 2.

    Examples:
        >>> import logging, sporax.dataset as ds
        >>> logging.basicConfig(level=logging.INFO)
        >>> ds.show(ds.NumpySlicesDataset([1, 2, 3]).batch(2))  # doctest: +SKIP
    """
    _LOG.info(json.dumps(serialize(dataset), indent=indentation))
