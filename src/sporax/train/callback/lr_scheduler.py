"""``LearningRateScheduler``: set the optimizer's learning rate from a function after every step."""
import math

import numpy as np

from sporax.core.parameter import Parameter
from sporax.core.tensor import Tensor
from sporax.state import parameter_storage
from sporax.train.callback.base import Callback


class LearningRateScheduler(Callback):
    """Change the learning rate at the end of every step to ``learning_rate_function(lr, cur_step_num)``.

    Args:
        learning_rate_function (Callable): takes the current rate (a float) and the step number
            (counted from 1 over the whole training) and returns the new rate.

    Example:
        >>> from sporax.train import LearningRateScheduler
        >>> scheduler = LearningRateScheduler(lambda lr, step: lr * 0.9 if step % 2 == 0 else lr)
    """

    def __init__(self, learning_rate_function):
        super().__init__()
        self.learning_rate_function = learning_rate_function

    def step_end(self, run_context):
        params = run_context.original_args()
        learning_rate = getattr(params.get("optimizer"), "learning_rate", None)
        if not isinstance(learning_rate, Parameter) or learning_rate.ndim != 0:
            raise TypeError("LearningRateScheduler needs an optimizer with a fixed float learning rate "
                            "(a Parameter); a schedule or per-step list already decides the rate itself.")
        rate = float(learning_rate.asnumpy())
        new_rate = self.learning_rate_function(rate, params.cur_step_num)
        if not math.isclose(rate, new_rate, rel_tol=1e-10):
            parameter_storage.update(learning_rate, Tensor(np.float32(new_rate)))  # MindSpore assigns
