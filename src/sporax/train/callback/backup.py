"""``BackupAndRestore``: resume an interrupted training from a backup checkpoint.

The train network is saved to ``<backup_dir>/backup.ckpt`` every ``save_freq`` epochs; a training
that begins while that file exists loads it first (so a restarted script continues from the last
backup); at the end of training the file is deleted unless ``delete_checkpoint=False``.
"""
import os

from sporax.io import load_checkpoint, save_checkpoint
from sporax.train.callback.base import Callback


class BackupAndRestore(Callback):
    """Back the train network up every ``save_freq`` epochs and restore it when training restarts.

    Args:
        backup_dir (str): folder of the backup file ``backup.ckpt`` (created if missing).
        save_freq (Union[str, int]): ``"epoch"`` (every epoch) or a positive number of epochs.
        delete_checkpoint (bool): delete the backup when training ends. Default: ``True``.

    Example:
        >>> from sporax.train import BackupAndRestore
        >>> callback = BackupAndRestore("./backup", save_freq=2)
    """

    def __init__(self, backup_dir, save_freq="epoch", delete_checkpoint=True):
        super().__init__()
        if not isinstance(backup_dir, str):
            raise TypeError(f"For 'BackupAndRestore', backup_dir must be a str, but got {type(backup_dir).__name__}.")
        if save_freq == "epoch":
            save_freq = 1
        elif isinstance(save_freq, bool) or not isinstance(save_freq, int) or save_freq <= 0:
            raise ValueError(f"For 'BackupAndRestore', save_freq must be 'epoch' or a positive int, "
                             f"but got {save_freq!r}.")
        if not isinstance(delete_checkpoint, bool):
            raise TypeError(f"For 'BackupAndRestore', delete_checkpoint must be a bool, "
                            f"but got {type(delete_checkpoint).__name__}.")
        os.makedirs(backup_dir, exist_ok=True)
        self.backup_file = os.path.join(os.path.realpath(backup_dir), "backup.ckpt")
        self.save_freq = save_freq
        self.delete_checkpoint = delete_checkpoint

    def on_train_begin(self, run_context):
        if os.path.exists(self.backup_file):
            load_checkpoint(self.backup_file, net=run_context.original_args().train_network)

    def on_train_epoch_end(self, run_context):
        params = run_context.original_args()
        if params.cur_epoch_num % self.save_freq == 0:
            save_checkpoint(params.train_network, self.backup_file)

    def on_train_end(self, run_context):
        if self.delete_checkpoint and os.path.exists(self.backup_file):
            os.remove(self.backup_file)
