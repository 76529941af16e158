"""``Dice`` and ``CosineSimilarity``: overlap and similarity of prediction arrays.

Example:
    >>> import numpy as np
    >>> from sporax.train.metrics.overlap import Dice
    >>> metric = Dice(smooth=1e-5)
    >>> metric.update(np.array([[0.2, 0.5], [0.3, 0.1]]), np.array([[0, 1], [1, 0]]))
    >>> round(metric.eval(), 4)
    0.3347
"""
import numpy as np

from sporax.train.metrics.base import Metric, check_bool, check_choice, rearrange_inputs, to_numpy


class Dice(Metric):
    """The Dice coefficient ``2|X∩Y| / (|X|² + |Y|² + smooth)`` of each batch.

    As in MindSpore, each ``update`` adds one batch's coefficient and the batch size, so ``eval``
    returns the sum of the batch coefficients divided by the number of samples seen.

    Args:
        smooth (float): added to the denominator against division by zero; > 0. Default: 1e-5.

    Inputs (``update``):
        - **y_pred** - predictions, (N, ...).
        - **y** - ground truth of the same shape.
    """

    def __init__(self, smooth=1e-5):
        super().__init__()
        if isinstance(smooth, bool) or not isinstance(smooth, (int, float)) or smooth <= 0:
            raise ValueError(f"For 'Dice', 'smooth' must be a float > 0, but got {smooth!r}.")
        self.smooth = float(smooth)
        self.clear()

    def clear(self):
        """Reset the accumulated coefficient and sample count."""
        self._dice_coeff_sum = 0.0
        self._samples_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        """Add the coefficient of one batch: ``update(y_pred, y)``."""
        self._check_inputs(inputs, 2)
        y_pred = to_numpy(inputs[0], "Dice", "y_pred").astype(np.float64)
        y = to_numpy(inputs[1], "Dice", "y").astype(np.float64)
        if y_pred.shape != y.shape:
            raise ValueError(f"For 'Dice.update', y_pred and y must have the same shape, but got "
                             f"{y_pred.shape} and {y.shape}.")
        self._samples_num += y.shape[0] if y.ndim else 1
        intersection = np.dot(y_pred.reshape(-1), y.reshape(-1))
        union = np.dot(y_pred.reshape(-1), y_pred.reshape(-1)) + np.dot(y.reshape(-1), y.reshape(-1))
        self._dice_coeff_sum += 2 * float(intersection) / (float(union) + self.smooth)

    def eval(self):
        """The accumulated coefficient divided by the number of samples (float)."""
        if self._samples_num == 0:
            raise self._no_samples()
        return self._dice_coeff_sum / float(self._samples_num)


_SIMILARITIES = ("dot", "cosine")
_REDUCTIONS = ("none", "sum", "mean")


class CosineSimilarity(Metric):
    """The pairwise similarity matrix of the rows of the last ``update``'s (N, D) input.

    Args:
        similarity (str): 'cosine' (normalised rows) or 'dot'. Default: 'cosine'.
        reduction (str): 'none' (the N x N matrix), 'sum' or 'mean' (over each row). Default: 'none'.
        zero_diagonal (bool): set the diagonal (each row with itself) to 0. Default: True.

    Inputs (``update``):
        - **inputs** - (N, D) array; each update replaces the previous one.
    """

    def __init__(self, similarity="cosine", reduction="none", zero_diagonal=True):
        super().__init__()
        self.similarity = check_choice("CosineSimilarity", "similarity", similarity, _SIMILARITIES)
        self.reduction = check_choice("CosineSimilarity", "reduction", reduction, _REDUCTIONS)
        self.zero_diagonal = check_bool("CosineSimilarity", "zero_diagonal", zero_diagonal)
        self.clear()

    def clear(self):
        """Forget the last input."""
        self.sqr_mtx_res = 0
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs):
        """Compute the similarity matrix of ``inputs`` (N, D)."""
        self._check_inputs(inputs, 1, None)
        matrix = to_numpy(inputs[0], "CosineSimilarity", "inputs")
        if matrix.ndim != 2:
            raise ValueError(f"For 'CosineSimilarity.update', the input must be 2-D (N, D), but got shape "
                             f"{matrix.shape}.")
        if self.similarity == "cosine":
            matrix = matrix / np.linalg.norm(matrix, axis=1, keepdims=True)
        self.sqr_mtx_res = np.dot(matrix, matrix.T)
        self._is_update = True

    def eval(self):
        """The similarity matrix, or its row sums/means (NumPy array)."""
        if not self._is_update:
            raise RuntimeError("For 'CosineSimilarity.eval', call 'update' before 'eval'.")
        result = self.sqr_mtx_res
        if self.zero_diagonal:
            np.fill_diagonal(result, 0)
        if self.reduction == "mean":
            return np.mean(result, axis=-1)
        if self.reduction == "sum":
            return np.sum(result, axis=-1)
        return result
