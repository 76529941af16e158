"""``History`` records losses and metrics per epoch; ``LambdaCallback`` wraps plain functions."""
import numpy as np

from sporax.core.tensor import Tensor
from sporax.train.callback.base import Callback, loss_value

_HOOKS = ("on_train_epoch_begin", "on_train_epoch_end", "on_train_step_begin", "on_train_step_end",
          "on_train_begin", "on_train_end", "on_eval_epoch_begin", "on_eval_epoch_end",
          "on_eval_step_begin", "on_eval_step_end", "on_eval_begin", "on_eval_end")


class History(Callback):
    """Record each epoch's number (``epoch``, MindSpore's ``{"epoch": [...]}``) and its loss and
    metrics (``history``)."""

    def __init__(self):
        self.epoch = {"epoch": []}
        self.history = {}

    def begin(self, run_context):
        self.epoch = {"epoch": []}

    def epoch_end(self, run_context):
        params = run_context.original_args()
        self.epoch["epoch"].append(params["cur_epoch_num"])
        outputs = params.get("net_outputs")
        if isinstance(outputs, (tuple, list)) and outputs and isinstance(outputs[0], Tensor):
            outputs = outputs[0]
        # as MindSpore: a Tensor's mean as a NumPy scalar of its dtype (float32), anything else as it is
        loss = np.mean(outputs.asnumpy()) if isinstance(outputs, Tensor) else loss_value(outputs)
        if loss is not None:
            self.history.setdefault("net_output", []).append(loss)
        for name, value in (params.get("metrics") or {}).items():
            self.history.setdefault(name, []).append(value)


class LambdaCallback(Callback):
    """A callback made of functions, each taking ``run_context``, for any of the 12 hooks."""

    def __init__(self, on_train_epoch_begin=None, on_train_epoch_end=None, on_train_step_begin=None,
                 on_train_step_end=None, on_train_begin=None, on_train_end=None,
                 on_eval_epoch_begin=None, on_eval_epoch_end=None, on_eval_step_begin=None,
                 on_eval_step_end=None, on_eval_begin=None, on_eval_end=None):
        given = locals()
        for hook in _HOOKS:
            function = given[hook]
            if function is not None:
                if not callable(function):
                    raise TypeError(f"For 'LambdaCallback', {hook} must be callable, got {function!r}.")
                setattr(self, hook, function)
