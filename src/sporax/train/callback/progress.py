"""``ProgressBar``: a tqdm bar per epoch showing step, loss and throughput (a sporax addition)."""
from tqdm.auto import tqdm

from sporax.train.callback.base import Callback, loss_value


class ProgressBar(Callback):
    """Show a progress bar for each training epoch with the loss and steps per second.

    Args:
        leave (bool): keep each finished epoch's bar on screen.
        file: where to draw (default: standard error).
    """

    def __init__(self, leave=True, file=None):
        self.leave = leave
        self.file = file
        self._bar = None
        self._last_step = 0

    def on_train_epoch_begin(self, run_context):
        params = run_context.original_args()
        total = params.get("batch_num")
        self._bar = tqdm(total=total, desc=f"epoch {params['cur_epoch_num']}/{params.get('epoch_num', '?')}",
                         unit="step", leave=self.leave, file=self.file, dynamic_ncols=True)
        self._last_step = params["cur_step_num"]

    def on_train_step_end(self, run_context):
        if self._bar is None:
            return
        params = run_context.original_args()
        self._bar.update(params["cur_step_num"] - self._last_step)
        self._last_step = params["cur_step_num"]
        loss = loss_value(params.get("net_outputs"))
        if loss is not None:
            self._bar.set_postfix(loss=f"{loss:.4f}", refresh=False)

    def on_train_epoch_end(self, run_context):
        if self._bar is not None:
            metrics = run_context.original_args().get("metrics")
            if metrics:
                self._bar.set_postfix({k: round(v, 4) if isinstance(v, float) else v for k, v in metrics.items()})
            self._bar.close()
            self._bar = None

    def on_train_end(self, run_context):
        self.on_train_epoch_end(run_context)
