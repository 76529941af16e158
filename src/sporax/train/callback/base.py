"""``Callback`` (from ``sporax.callback_protocol``), ``RunContext`` and the callback parameters Model passes
to every hook."""
import numpy as np

from sporax.callback_protocol import Callback
from sporax.core.tensor import Tensor


class CallbackParams(dict):
    """The ``cb_params`` of MindSpore: a dict whose keys read as attributes too."""

    def __getattr__(self, key):
        try:
            return self[key]
        except KeyError:
            raise AttributeError(f"cb_params has no field {key!r} at this point of training; "
                                 f"available: {sorted(self)}") from None

    def __setattr__(self, key, value):
        self[key] = value


# MindSpore's internal name of the callback parameters; scripts that drive callbacks by hand build one.
_InternalCallbackParam = CallbackParams

# The network a hand-driven checkpoint saves when the callback parameters name none (``_set_cur_net``).
_current_network = None


def _set_cur_net(net):
    """Record ``net`` as the network checkpoint callbacks save when ``cb_params`` names no network."""
    global _current_network
    _current_network = net


# MindSpore 2.10's spelling in mindspore.train.callback._callback (checkpoint callbacks subclassed outside it
# call it before saving under GE).
set_cur_net = _set_cur_net


def _get_cur_net():
    """The network recorded by ``_set_cur_net`` (None when none was)."""
    return _current_network


class RunContext:
    """What a hook receives: the training parameters and a way to stop training.

    Args:
        original_args (dict): the callback parameters (``cb_params``).
    """

    def __init__(self, original_args):
        if not isinstance(original_args, dict):
            raise TypeError(f"For 'RunContext', original_args must be a dict, got "
                            f"{type(original_args).__name__}.")
        self._original_args = original_args
        self._stop_requested = False

    def original_args(self):
        """The callback parameters (``cb_params``)."""
        return self._original_args

    def request_stop(self):
        """Ask Model to stop training after the current step."""
        self._stop_requested = True

    def get_stop_requested(self):
        return self._stop_requested


class CallbackList(Callback):
    """Several callbacks called in order, as one."""

    def __init__(self, callbacks):
        if callbacks is None:
            callbacks = []
        elif isinstance(callbacks, Callback):
            callbacks = [callbacks]
        elif not isinstance(callbacks, (list, tuple)):
            raise TypeError(f"The 'callbacks' is not a Callback or a list of Callback: got "
                            f"{type(callbacks).__name__}.")
        callbacks = list(callbacks)
        for callback in callbacks:
            if not isinstance(callback, Callback):
                raise TypeError(f"When the 'callbacks' is a list, the elements in 'callbacks' must be Callback "
                                f"functions: got {type(callback).__name__}.")
        self.callbacks = callbacks

    def __enter__(self):
        for callback in self.callbacks:
            callback.__enter__()
        return self

    def __exit__(self, *error):
        for callback in reversed(self.callbacks):
            callback.__exit__(*error)
        return False


_CallbackManager = CallbackList  # MindSpore's private name for it (its own st tests drive callbacks with it)


def _fan_out(hook):
    def call(self, run_context):
        for callback in self.callbacks:
            getattr(callback, hook)(run_context)

    call.__name__ = hook
    return call


for _hook in ("begin", "epoch_begin", "epoch_end", "step_begin", "step_end", "end",
              "on_train_begin", "on_train_epoch_begin", "on_train_epoch_end", "on_train_step_begin",
              "on_train_step_end", "on_train_end", "on_eval_begin", "on_eval_epoch_begin",
              "on_eval_epoch_end", "on_eval_step_begin", "on_eval_step_end", "on_eval_end"):
    setattr(CallbackList, _hook, _fan_out(_hook))


def loss_value(net_outputs):
    """A float from what the train network returned (a loss Tensor, or a tuple led by it)."""
    if isinstance(net_outputs, (tuple, list)) and net_outputs:
        net_outputs = net_outputs[0]
    if isinstance(net_outputs, Tensor):
        return float(np.mean(net_outputs.asnumpy()))
    if isinstance(net_outputs, (int, float)):
        return float(net_outputs)
    return None


def _handle_loss(loss):
    """The loss a callback logs, as MindSpore's private ``_handle_loss`` gives it (mindone's callbacks import it).

    Unlike ``loss_value``, only a Tensor becomes a float (the mean of its elements); a tuple or list led by a
    Tensor gives that Tensor back unconverted, and anything else comes back as it is.

    Args:
        loss: what the train network returned.

    Outputs:
        float for a Tensor, the leading Tensor for a tuple/list led by one, else ``loss`` itself.

    Example:
        >>> _handle_loss(Tensor([1.0, 2.0, 6.0]))
        3.0
    """
    if isinstance(loss, (tuple, list)):
        # an empty tuple raises IndexError, as on MindSpore
        return loss[0] if isinstance(loss[0], Tensor) else loss
    if isinstance(loss, Tensor):
        return float(np.mean(loss.asnumpy()))
    return loss
