"""Surface-distance metrics of segmentations: ``HausdorffDistance``, ``MeanSurfaceDistance``,
``RootMeanSquareDistance``.

Algorithm: both inputs are reduced to the mask of one label (``label_idx``); each mask's surface is
the mask minus its binary erosion (SciPy's ``ndimage``, a dependency of JAX); the distance of every
surface point of one mask to the nearest surface point of the other comes from a distance transform
of the other surface's complement ('euclidean', 'chessboard' or 'taxicab'). The metrics reduce
those distances (maximum or percentile, mean, root mean square), in one or both directions.

Example:
    >>> import numpy as np
    >>> from sporax.train.metrics.surface import HausdorffDistance
    >>> metric = HausdorffDistance()
    >>> metric.update(np.array([[3, 0, 1], [1, 3, 0], [1, 0, 2]]), np.array([[0, 2, 1], [1, 2, 1], [0, 0, 1]]), 0)
    >>> round(metric.eval(), 4)
    1.4142
"""
import numpy as np

from sporax.train.metrics.base import Metric, check_bool, check_choice, rearrange_inputs, to_numpy

_DISTANCE_METRICS = ("euclidean", "chessboard", "taxicab")


def _surface(mask):
    from scipy import ndimage

    return mask ^ ndimage.binary_erosion(mask)


def _distances_to(points_mask, surface_mask, distance_metric):
    """Distance of each True point of ``points_mask`` to the nearest True point of ``surface_mask``."""
    from scipy import ndimage

    if not surface_mask.any():
        return np.full(int(points_mask.sum()), np.inf)
    if distance_metric == "euclidean":
        transform = ndimage.distance_transform_edt(~surface_mask)
    else:
        transform = ndimage.distance_transform_cdt(~surface_mask, metric=distance_metric)
    return np.asarray(transform[points_mask], np.float64)


def _mean(distances):
    return float(distances.mean()) if distances.size else 0.0


class _SurfaceDistance(Metric):
    """Shared input handling: ``update(y_pred, y, label_idx)`` keeps the two surfaces."""

    def __init__(self, distance_metric):
        super().__init__()
        self.distance_metric = check_choice(type(self).__name__, "distance_metric", distance_metric,
                                            _DISTANCE_METRICS)
        self.clear()

    def clear(self):
        """Forget the last inputs."""
        self._pred_surface = None
        self._true_surface = None
        self._is_update = False

    def _masks(self, inputs, crop):
        name = type(self).__name__
        self._check_inputs(inputs, 3, "y_pred, y, label_idx")
        y_pred = to_numpy(inputs[0], name, "y_pred")
        y = to_numpy(inputs[1], name, "y")
        label_idx = inputs[2]
        if isinstance(label_idx, bool) or not isinstance(label_idx, (int, float)):
            raise TypeError(f"For '{name}.update', label_idx must be an int or float, but got "
                            f"{type(label_idx).__name__}.")
        if y_pred.shape != y.shape:
            raise ValueError(f"For '{name}.update', y_pred and y must have the same shape, but got "
                             f"{y_pred.shape} and {y.shape}.")
        pred_mask, true_mask = y_pred == label_idx, y == label_idx
        if crop:
            union = pred_mask | true_mask
            if union.any():
                nonzero = np.nonzero(union)
                box = tuple(slice(int(index.min()), int(index.max()) + 1) for index in nonzero)
                pred_mask, true_mask = pred_mask[box], true_mask[box]
        return pred_mask, true_mask

    @rearrange_inputs
    def update(self, *inputs):
        """Keep the surfaces of one prediction and truth: ``update(y_pred, y, label_idx)``."""
        pred_mask, true_mask = self._masks(inputs, getattr(self, "crop", False))
        if not pred_mask.any() and not true_mask.any():
            raise ValueError(f"For '{type(self).__name__}.update', the label {inputs[2]!r} appears neither in "
                             "y_pred nor in y.")
        self._pred_surface = _surface(pred_mask)
        self._true_surface = _surface(true_mask)
        self._is_update = True

    def _directed(self, forward=True):
        if not self._is_update:
            raise RuntimeError(f"For '{type(self).__name__}.eval', call 'update' before 'eval'.")
        if forward:
            return _distances_to(self._pred_surface, self._true_surface, self.distance_metric)
        return _distances_to(self._true_surface, self._pred_surface, self.distance_metric)


class HausdorffDistance(_SurfaceDistance):
    """The Hausdorff distance between the surfaces of a predicted and a true segmentation.

    Args:
        distance_metric (str): 'euclidean', 'chessboard' or 'taxicab'. Default: 'euclidean'.
        percentile (float): report this percentile (0-100) of the distances instead of the
            maximum. Default: None.
        directed (bool): only from the prediction to the truth. Default: False.
        crop (bool): crop both masks to the bounding box of their union first. Default: True.

    Inputs (``update``):
        - **y_pred** - the predicted label array.
        - **y** - the true label array of the same shape.
        - **label_idx** - the label whose masks are compared.
    """

    def __init__(self, distance_metric="euclidean", percentile=None, directed=False, crop=True):
        if percentile is not None and (isinstance(percentile, bool) or not isinstance(percentile, (int, float))
                                       or not 0 <= percentile <= 100):
            raise ValueError(f"For 'HausdorffDistance', 'percentile' must be a number in [0, 100] or None, "
                             f"but got {percentile!r}.")
        self.percentile = percentile
        self.directed = check_bool("HausdorffDistance", "directed", directed)
        self.crop = check_bool("HausdorffDistance", "crop", crop)
        super().__init__(distance_metric)

    def _reduce(self, distances):
        if distances.size == 0:
            return 0.0
        if self.percentile is None:
            return float(distances.max())
        return float(np.percentile(distances, self.percentile))

    def eval(self):
        """The distance (float)."""
        forward = self._reduce(self._directed(True))
        if self.directed:
            return forward
        return max(forward, self._reduce(self._directed(False)))


class _SymmetricSurfaceDistance(_SurfaceDistance):
    """Surface distances with a ``symmetric`` switch (one or both directions)."""

    def __init__(self, symmetric=False, distance_metric="euclidean"):
        self.symmetric = check_bool(type(self).__name__, "symmetric", symmetric)
        super().__init__(distance_metric)


class MeanSurfaceDistance(_SymmetricSurfaceDistance):
    """The mean distance from the predicted surface to the true one (or the average of both ways).

    Args:
        symmetric (bool): average the two directed mean distances. Default: False.
        distance_metric (str): 'euclidean', 'chessboard' or 'taxicab'. Default: 'euclidean'.

    Inputs (``update``): as ``HausdorffDistance``.
    """


    def eval(self):
        """The mean surface distance (float)."""
        forward = self._directed(True)
        if not self.symmetric:
            return _mean(forward)
        backward = self._directed(False)
        return (_mean(forward) + _mean(backward)) / 2


class RootMeanSquareDistance(_SymmetricSurfaceDistance):
    """The root-mean-square distance between the predicted and the true surfaces.

    As MindSpore 2.10 computes it: with ``symmetric=True`` the square root of the average of the two
    directed mean squared distances; with ``symmetric=False`` the directed mean squared distance
    (prediction to truth) itself, without the square root.

    Args:
        symmetric (bool): use both directions. Default: False.
        distance_metric (str): 'euclidean', 'chessboard' or 'taxicab'. Default: 'euclidean'.

    Inputs (``update``): as ``HausdorffDistance``.
    """


    def eval(self):
        """The root-mean-square surface distance (float)."""
        forward = _mean(self._directed(True) ** 2)
        if not self.symmetric:
            return forward
        return float(np.sqrt((forward + _mean(self._directed(False) ** 2)) / 2))
