"""Callbacks that watch a monitored value per epoch: EarlyStopping, ReduceLROnPlateau."""
import numpy as np

from sporax import log
from sporax.core.parameter import Parameter
from sporax.core.tensor import Tensor
from sporax.state import parameter_storage
from sporax.train.callback.base import Callback, loss_value


class _Monitor(Callback):
    """Track the best value of ``monitor`` ('loss', or an evaluation metric such as 'eval_loss') and
    the epochs waited (``wait``) towards ``patience``."""

    def __init__(self, name, monitor, mode, min_delta, patience, verbose):
        if mode not in ("auto", "min", "max"):
            raise ValueError(f"mode should be 'auto', 'min' or 'max', but got {mode}.")
        if not isinstance(monitor, str):
            raise TypeError(f"For '{name}', monitor must be a str, got {type(monitor).__name__}.")
        if mode == "auto":
            mode = "max" if "acc" in monitor else "min"
        self._name = name
        self.monitor = monitor
        self.mode = mode
        self.min_delta = abs(min_delta) if mode == "max" else -abs(min_delta)
        self.patience = patience
        self.verbose = verbose
        self.wait = 0
        self.best = self._initial_best()

    def is_improvement(self, current, reference):
        if self.mode == "max":
            return current - self.min_delta > reference
        return current - self.min_delta < reference

    def _initial_best(self):
        return -np.inf if self.mode == "max" else np.inf

    def _value(self, params):
        candidates = {"loss": loss_value(params.get("net_outputs"))}
        for key, value in (params.get("eval_results") or params.get("metrics") or {}).items():
            candidates[key] = value
            candidates.setdefault("eval_" + key, value)
        value = candidates.get(self.monitor)
        if value is None:
            # MindSpore warns and lets training go on (its EarlyStopping example monitors 'acc' with no
            # validation dataset); the epoch is then not counted.
            log.warning(
                f"{self._name}: the monitored value {self.monitor!r} is not available; available: "
                f"{sorted(k for k, v in candidates.items() if v is not None)}. Evaluation metrics "
                "exist when training runs through Model.fit with a validation dataset.")
            return None
        return float(np.mean(value))


class EarlyStopping(_Monitor):
    """Stop training when ``monitor`` has not improved for ``patience`` epochs.

    Args:
        monitor (str): 'loss' or an evaluation metric ('eval_loss', 'eval_accuracy' ...).
        min_delta (float): smallest change that counts as an improvement.
        patience (int): epochs without improvement before stopping.
        mode (str): 'min', 'max' or 'auto' (max for accuracies).
        baseline (float): a value the monitor must beat.
        restore_best_weights (bool): put back the weights of the best epoch when stopping.
    """

    def __init__(self, monitor="eval_loss", min_delta=0, patience=0, verbose=False, mode="auto",
                 baseline=None, restore_best_weights=False):
        super().__init__("EarlyStopping", monitor, mode, min_delta, patience, verbose)
        self.baseline = baseline
        self.restore_best_weights = restore_best_weights
        self.best_weights_param_dict = None
        self.stopped_epoch = 0

    def on_train_begin(self, run_context):
        self.wait = 0
        self.stopped_epoch = 0
        self.best = self.baseline if self.baseline is not None else self._initial_best()
        self.best_weights_param_dict = None

    def on_train_epoch_end(self, run_context):
        params = run_context.original_args()
        current = self._value(params)
        if current is None:
            return
        network = params.get("train_network") or params.get("network")
        self.wait += 1
        if self.is_improvement(current, self.best):
            self.best = current
            if self.restore_best_weights and network is not None:
                self.best_weights_param_dict = {p.name: p._value for p in network.get_parameters()}
            if self.baseline is None or self.is_improvement(current, self.baseline):
                self.wait = 0
        if self.wait >= self.patience:
            self.stopped_epoch = params["cur_epoch_num"]
            run_context.request_stop()
            if self.restore_best_weights and self.best_weights_param_dict is not None:
                for parameter in network.get_parameters():
                    if parameter.name in self.best_weights_param_dict:
                        parameter.set_data(Tensor._wrap(self.best_weights_param_dict[parameter.name]))

    def on_train_end(self, run_context):
        if self.stopped_epoch > 0 and self.verbose:
            print(f"Epoch {self.stopped_epoch:05d}: early stopping", flush=True)


class ReduceLROnPlateau(_Monitor):
    """Multiply the learning rate by ``factor`` when ``monitor`` stops improving.

    Args:
        monitor (str): 'loss' or an evaluation metric ('eval_loss' ...).
        factor (float): multiplier in (0, 1).
        patience (int): epochs without improvement before reducing.
        min_delta (float), cooldown (int), min_lr (float), mode (str): as in EarlyStopping, plus
            the epochs to wait after a reduction and the lowest learning rate.
    """

    def __init__(self, monitor="eval_loss", factor=0.1, patience=10, verbose=False, mode="auto",
                 min_delta=1e-4, cooldown=0, min_lr=0):
        super().__init__("ReduceLROnPlateau", monitor, mode, min_delta, patience, verbose)
        if not 0 < factor < 1:
            raise ValueError(f"The input value must be in range of (0.0, 1.0), but got {factor} with type "
                             f"'{type(factor).__name__}'.\nFor 'ReduceLROnPlateau', the argument 'factor'.")
        self.factor = factor
        self.cooldown = cooldown
        self.min_lr = min_lr
        self.cooldown_counter = 0

    def on_train_begin(self, run_context):
        self.cooldown_counter = 0
        self.wait = 0
        self.best = self._initial_best()

    def on_train_epoch_end(self, run_context):
        params = run_context.original_args()
        current = self._value(params)
        if current is None:
            return
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            self.wait = 0
        if self.is_improvement(current, self.best):
            self.best = current
            self.wait = 0
        elif self.cooldown_counter <= 0:
            self.wait += 1
            if self.wait >= self.patience:
                self._reduce(params)
                self.cooldown_counter = self.cooldown
                self.wait = 0

    def _reduce(self, params):
        optimizer = params.get("optimizer")
        learning_rate = getattr(optimizer, "learning_rate", None)
        if not isinstance(learning_rate, Parameter) or learning_rate.ndim != 0:
            raise TypeError("ReduceLROnPlateau needs an optimizer with a fixed float learning rate; "
                            "a schedule or per-step list already decides the rate itself.")
        old = float(learning_rate.asnumpy())
        if old > self.min_lr:
            new = max(old * self.factor, self.min_lr)
            parameter_storage.update(learning_rate, Tensor(np.float32(new)))  # MindSpore assigns
            if self.verbose:
                print(f"Epoch {params['cur_epoch_num']:05d}: ReduceLROnPlateau reducing learning rate "
                      f"to {np.float32(new)!s}.", flush=True)
