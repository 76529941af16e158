"""Dataset callbacks: hooks a ``map`` calls as rows pass through it (``map(callbacks=[...])``)."""
import threading

from sporax.callback_protocol import Callback
from sporax.dataset.core import config


class DSRunContext:
    """Where the pipeline is: epoch and step numbers (steps count rows through the map, from 1)."""

    def __init__(self):
        self.cur_epoch_num = 0
        self.cur_step_num_in_epoch = 0
        self.cur_step_num = 0


class DSCallback:
    """Base class of dataset callbacks; override the ``ds_*`` hooks you need.

    Args:
        step_size (int): call the step hooks every ``step_size`` rows. Default: 1.
    """

    def __init__(self, step_size=1):
        if isinstance(step_size, bool) or not isinstance(step_size, int) or step_size < 1:
            raise ValueError(f"DSCallback: step_size must be a positive int, but got {step_size!r}.")
        self.step_size = step_size

    def ds_begin(self, ds_run_context):
        """Called once, before the first row of the first epoch."""

    def ds_epoch_begin(self, ds_run_context):
        """Called before each epoch."""

    def ds_epoch_end(self, ds_run_context):
        """Called after each epoch."""

    def ds_step_begin(self, ds_run_context):
        """Called before every ``step_size``-th row."""

    def ds_step_end(self, ds_run_context):
        """Called after every ``step_size``-th row."""


class WaitedDSCallback(Callback, DSCallback):
    """A dataset callback that waits for the training loop: the pipeline's step ``n`` (and
    epoch ``n``) hooks run only after training finished step ``n - 1`` (epoch ``n - 1``).

    Override ``sync_epoch_begin(train_run_context, ds_run_context)`` and
    ``sync_step_begin(train_run_context, ds_run_context)``; pass the object both to ``map``
    (``callbacks=``) and to ``Model.train`` (``callbacks=``). A wait longer than
    ``dataset.config.get_callback_timeout()`` seconds is given up so a pipeline never hangs.
    """

    def __init__(self, step_size=1):
        DSCallback.__init__(self, step_size)
        self._step_event = threading.Event()
        self._epoch_event = threading.Event()
        self._train_context = None
        self._released = False

    def sync_epoch_begin(self, train_run_context, ds_run_context):
        """Called before each pipeline epoch after 1, once training finished the previous one."""

    def sync_step_begin(self, train_run_context, ds_run_context):
        """Called before each pipeline step after 1, once training finished the previous one."""

    # -- training side -----------------------------------------------------------------------
    def step_end(self, run_context):
        self._train_context = run_context
        self._step_event.set()

    def epoch_end(self, run_context):
        self._train_context = run_context
        self._epoch_event.set()

    def end(self, run_context):
        self._released = True
        self._step_event.set()
        self._epoch_event.set()

    # -- pipeline side ------------------------------------------------------------------------
    def _wait(self, event):
        if not self._released:
            event.wait(config.get_callback_timeout())
        event.clear()

    def ds_epoch_begin(self, ds_run_context):
        if ds_run_context.cur_epoch_num > 1:
            self._wait(self._epoch_event)
            self.sync_epoch_begin(self._train_context, ds_run_context)

    def ds_step_begin(self, ds_run_context):
        if ds_run_context.cur_step_num > 1:
            self._wait(self._step_event)
            self.sync_step_begin(self._train_context, ds_run_context)


def run_callbacks(callbacks, blocks, epoch, state):
    """Yield ``blocks`` unchanged, calling the callbacks' hooks for the rows they hold.

    ``state`` is a dict the map node keeps across epochs ({"total": steps so far, "begun": bool}).
    """
    context = DSRunContext()
    context.cur_step_num = state["total"]
    if not state["begun"]:
        state["begun"] = True
        for callback in callbacks:
            callback.ds_begin(context)
    context.cur_epoch_num = epoch + 1
    for callback in callbacks:
        callback.ds_epoch_begin(context)
    for block in blocks:
        # Row by row, so a waiting callback holds back only the rows after the current one.
        for i in range(block.n):
            context.cur_step_num_in_epoch += 1
            context.cur_step_num += 1
            due = [c for c in callbacks if (context.cur_step_num_in_epoch - 1) % c.step_size == 0]
            for callback in due:
                callback.ds_step_begin(context)
            for callback in due:
                callback.ds_step_end(context)
            yield block.slice(i, i + 1)
    state["total"] = context.cur_step_num
    for callback in callbacks:
        callback.ds_epoch_end(context)
