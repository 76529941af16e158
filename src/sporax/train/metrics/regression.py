"""Error and loss metrics: MAE, MSE, Loss."""
import numpy as np

from sporax.train.metrics.base import Metric, rearrange_inputs


class _ErrorMetric(Metric):
    def __init__(self):
        super().__init__()
        self.clear()

    def clear(self):
        self._error_sum = 0.0
        self._samples_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        self._check_inputs(inputs, 2)
        y_pred, y = self._convert_data(inputs[0]), self._convert_data(inputs[1])
        if y_pred.size != y.size:
            raise ValueError(f"For '{type(self).__name__}.update', predictions and labels must have the "
                             f"same number of elements, got shapes {y_pred.shape} and {y.shape}.")
        # MindSpore takes each batch's errors and their sum in the inputs' own dtype (float32 rounding
        # shows in the result: MAE of [0.1, 0.5] vs [0.3, 0.2] is 0.25, not 0.2500000037) and
        # accumulates the batch sums in float64
        difference = y.reshape(y_pred.shape) - y_pred
        self._error_sum += float(self._error(difference).sum())
        self._samples_num += y.shape[0] if y.ndim else 1

    def eval(self):
        if self._samples_num == 0:
            raise self._no_samples()
        return np.float64(self._error_sum / self._samples_num)  # MindSpore 2.10 returns numpy.float64


class MAE(_ErrorMetric):
    """Mean absolute error: sum |y_pred - y| / number of samples."""

    @staticmethod
    def _error(difference):
        return np.abs(difference)


class MSE(_ErrorMetric):
    """Mean squared error: sum (y_pred - y)^2 / number of samples."""

    @staticmethod
    def _error(difference):
        return difference * difference


class Loss(Metric):
    """Average of the loss values passed to ``update``."""

    def __init__(self):
        super().__init__()
        self.clear()

    def clear(self):
        self._sum_loss = 0.0
        self._total_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        self._check_inputs(inputs, 1, "the loss")
        loss = self._convert_data(inputs[0])
        if loss.ndim > 1:
            raise ValueError(f"For 'Loss.update', the loss must be 0-D or 1-D, got shape {loss.shape}.")
        self._sum_loss += float(np.mean(loss))
        self._total_num += 1

    def eval(self):
        if self._total_num == 0:
            raise self._no_samples()
        return np.float64(self._sum_loss / self._total_num)
