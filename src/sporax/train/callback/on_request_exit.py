"""``OnRequestExit``: save the network when the training process is asked to exit (a signal).

MindSpore 2.10's behaviour, reproduced: ``on_train_begin`` installs a handler for ``sig`` and, when
``<directory>/rank_<device_id>/<file_name>_train.ckpt`` exists, loads it into the train network
(a restarted job resumes). The handler only marks the request; when training ends after one, the
train network is saved there as a checkpoint (``save_ckpt``) and a MINDIR (``save_mindir``).
During evaluation a request stops the loop at the next step. With ``MS_ENABLE_GRACEFUL_EXIT=1``
(or ``config_file`` holding ``{"GracefulExit": 1}``) a network that has a ``graceful_exit``
Parameter is stopped at the next step end and saved with its epoch/step counters.
"""
import json
import os
import signal
import threading

from sporax.core import context
from sporax.core.tensor import Tensor
from sporax.io import export, load_checkpoint, save_checkpoint
from sporax.train.callback.base import Callback


class OnRequestExit(Callback):
    """Save checkpoint/MINDIR files when the process receives ``sig`` (default SIGTERM).

    Args:
        save_ckpt (bool): save a checkpoint. Default: ``True``.
        save_mindir (bool): export a MINDIR. Default: ``True``.
        file_name (str): the files' stem (``<file_name>_train``/``_eval``). Default: ``'Net'``.
        directory (str): the parent folder (a ``rank_<device_id>`` folder is made in it). Default: ``'./'``.
        config_file (str): a JSON file whose ``"GracefulExit": 1`` requests the exit. Default: ``None``.
        sig (int): the signal to catch; not SIGKILL. Default: ``signal.SIGTERM``.

    Example:
        >>> from sporax.train import OnRequestExit
        >>> callback = OnRequestExit(file_name="LeNet", directory="./ckpt")  # doctest: +SKIP
    """

    def __init__(self, save_ckpt=True, save_mindir=True, file_name="Net", directory="./", config_file=None,
                 sig=signal.SIGTERM):
        super().__init__()
        for name, value, kind in (("save_ckpt", save_ckpt, bool), ("save_mindir", save_mindir, bool),
                                  ("sig", sig, int)):
            if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
                raise TypeError(f"For 'OnRequestExit', the '{name}' must be {kind.__name__}, but got "
                                f"{type(value).__name__}.")
        if hasattr(signal, "SIGKILL") and sig == signal.SIGKILL:
            raise ValueError("Not support send exit request by signal SIGKILL.")
        self.save_ckpt, self.save_mindir, self.sig = save_ckpt, save_mindir, sig
        self.exit = False
        self.lock = threading.Lock()
        self.save_path = directory
        self.key = "GracefulExit"
        self.remote_config_file = config_file
        self.use_graceful = os.environ.get("MS_ENABLE_GRACEFUL_EXIT") == "1"
        self.stop_train = False
        self.need_do_step_end = False
        if save_ckpt or save_mindir:
            self.train_name, self.eval_name = self._get_save_path(file_name)

    def _get_save_path(self, file_name):
        root = os.getcwd() if self.save_path is None else self.save_path
        folder = os.path.join(root, f"rank_{context.get_context('device_id')}")
        os.makedirs(folder, exist_ok=True)
        return os.path.join(folder, f"{file_name}_train"), os.path.join(folder, f"{file_name}_eval")

    def _handle_signal(self, signum, frame):
        self.exit = True

    def _save(self, network, name, inputs, append_dict=None):
        if self.save_ckpt:
            save_checkpoint(network, name, append_dict=append_dict)
        if self.save_mindir and inputs is not None:
            export(network, *inputs, file_name=name, file_format="MINDIR")

    def _load_if_saved(self, network, *names):
        for name in names:
            if os.path.isfile(f"{name}.ckpt"):
                load_checkpoint(f"{name}.ckpt", net=network)
                return

    def on_train_begin(self, run_context):
        signal.signal(self.sig, self._handle_signal)
        if self.save_ckpt:
            self._load_if_saved(run_context.original_args().train_network, self.train_name)

    def on_train_step_begin(self, run_context):
        with self.lock:
            if not self.use_graceful or not (self._check_config_info() or self.exit):
                return

            for _, param in run_context.original_args().train_network.parameters_and_names():
                if param.name == "graceful_exit":
                    param.set_data(Tensor(True))
                    self.need_do_step_end = True
                    break

    def on_train_step_end(self, run_context):
        with self.lock:
            if self.stop_train or not self.need_do_step_end:
                return
            params = run_context.original_args()
            network = params.train_network
            flags = [p for _, p in network.parameters_and_names() if p.name == "graceful_exit"]
            if flags and bool(flags[0].asnumpy()):
                append = {"epoch_num": params.cur_epoch_num, "step_num": params.cur_step_num,
                          "batch_num": params.batch_num}
                if params.get("optimizer") is not None:
                    append["global_step"] = int(params.optimizer.global_step.asnumpy().reshape(-1)[0])
                self._save(network, self.train_name, params.get("train_dataset_element"), append)
                run_context.request_stop()
                self.stop_train = True

    on_train_epoch_end = on_train_step_end

    def on_train_end(self, run_context):
        if self.exit:
            params = run_context.original_args()
            self._save(params.train_network, self.train_name, params.get("train_dataset_element"))

    def on_eval_begin(self, run_context):
        signal.signal(self.sig, self._handle_signal)
        if self.save_ckpt:
            self._load_if_saved(run_context.original_args().eval_network, self.eval_name, self.train_name)

    def on_eval_step_end(self, run_context):
        if self.exit:
            run_context.request_stop()

    def on_eval_end(self, run_context):
        if self.exit:
            params = run_context.original_args()
            self._save(params.eval_network, self.eval_name, params.get("eval_dataset_element"))

    def _check_config_info(self):
        if self.remote_config_file is None or not os.path.exists(self.remote_config_file):
            return False
        with open(self.remote_config_file, "r", encoding="utf-8") as f:
            try:
                config = json.load(f)
            except json.JSONDecodeError:
                return False
        return config.get(self.key) == 1
