"""``CheckpointConfig`` and ``ModelCheckpoint``: save checkpoints while training."""
import os
import re
import time

from sporax.core.tensor import Tensor
from sporax.io.checkpoint import save_checkpoint
from sporax.train.callback.base import Callback, _get_cur_net


def _check_int(value, name, minimum=0):
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise ValueError(f"For 'CheckpointConfig', {name} must be an int >= {minimum}, got {value!r}.")
    return value


class CheckpointConfig:
    """When and how ModelCheckpoint saves.

    Args:
        save_checkpoint_steps (int): save every this many steps.
        save_checkpoint_seconds (int): or every this many seconds (used when steps is 0).
        keep_checkpoint_max (int): keep at most this many files (the oldest go).
        keep_checkpoint_per_n_minutes (int): or keep one file per this many minutes.
        append_info (list): ``'epoch_num'``, ``'step_num'`` and dicts saved with the parameters.
        enc_key, enc_mode, crc_check, async_save, format: passed to ``save_checkpoint``.
    """

    def __init__(self, save_checkpoint_steps=1, save_checkpoint_seconds=0, keep_checkpoint_max=5,
                 keep_checkpoint_per_n_minutes=0, integrated_save=True, async_save=False,
                 saved_network=None, append_info=None, enc_key=None, enc_mode="AES-GCM",
                 exception_save=False, crc_check=False, remove_redundancy=False, format="ckpt",
                 **kwargs):
        # MindSpore 2.10 keeps None as None; steps and seconds both unset save nothing, not even at the end
        checked = [None if value is None else _check_int(value, name) for value, name in (
            (save_checkpoint_steps, "save_checkpoint_steps"), (save_checkpoint_seconds, "save_checkpoint_seconds"),
            (keep_checkpoint_max, "keep_checkpoint_max"),
            (keep_checkpoint_per_n_minutes, "keep_checkpoint_per_n_minutes"))]
        if not any(checked):
            raise ValueError("For 'CheckpointConfig', the input arguments 'save_checkpoint_steps', "
                             "'save_checkpoint_seconds', 'keep_checkpoint_max' and 'keep_checkpoint_per_n_minutes' "
                             "can't be all None or 0.")
        (self.save_checkpoint_steps, self.save_checkpoint_seconds, self.keep_checkpoint_max,
         self.keep_checkpoint_per_n_minutes) = checked
        # A step interval overrides a time interval, a file count a time-based rotation; MindSpore
        # then reports the overridden setting as None.
        if self.save_checkpoint_steps:
            self.save_checkpoint_seconds = None
        if self.keep_checkpoint_max:
            self.keep_checkpoint_per_n_minutes = None
        elif not self.keep_checkpoint_per_n_minutes:
            self.keep_checkpoint_max = 1
        if format not in ("ckpt", "safetensors"):
            raise ValueError(f"For 'CheckpointConfig', format must be 'ckpt' or 'safetensors', got {format!r}.")
        self.integrated_save = integrated_save
        self.async_save = async_save
        self.saved_network = saved_network
        self.enc_key = enc_key
        self.enc_mode = enc_mode
        self.exception_save = exception_save
        self.crc_check = crc_check
        self.remove_redundancy = remove_redundancy
        self.format = format
        self.map_param_inc = kwargs.get("map_param_inc", False)
        self.enable_redundance = kwargs.get("enable_redundance", False)
        self._append_info = self._check_append_info(append_info)

    @staticmethod
    def _check_append_info(append_info):
        """MindSpore 2.10's checks: a list of 'epoch_num', 'step_num' and at most one dict of scalars/Tensors."""
        if append_info is None or append_info == []:
            return None
        if not isinstance(append_info, list):
            raise TypeError("For 'CheckpointConfig', the type of 'append_info' must be list,"
                            f"but got {type(append_info)}.")
        dicts = 0
        for item in append_info:
            if not isinstance(item, (str, dict)):
                raise TypeError("For 'CheckpointConfig', the type of 'append_info' element must be str or dict,"
                                f"but got {type(item)}.")
            if isinstance(item, str) and item not in ("epoch_num", "step_num"):
                raise ValueError("For 'CheckpointConfig', the value of element in the argument 'append_info' must "
                                 f"be in ['epoch_num', 'step_num'], but got {item}.")
            if isinstance(item, dict):
                dicts += 1
                if dicts > 1:
                    raise TypeError("For 'CheckpointConfig', the element of 'append_info' must has only one dict, "
                                    f"but got {dicts}")
                for key, value in item.items():
                    if not isinstance(key, str) or not isinstance(value, (int, float, bool, str, Tensor)):
                        raise TypeError("For 'CheckpointConfig', the key type of the dict 'append_info' must be "
                                        "string, the value type must be int or float or bool, but got key type "
                                        f"{type(key)}, value type {type(value)}")
        return append_info

    @property
    def append_dict(self):
        """The ``append_info`` entries (``epoch_num`` and ``step_num`` start at 0)."""
        if self._append_info is None:
            return None
        result = {}
        for item in self._append_info:
            if isinstance(item, dict):
                result.update(item)
            else:
                result[item] = 0
        return result

    def get_checkpoint_policy(self):
        return {"save_checkpoint_steps": self.save_checkpoint_steps,
                "save_checkpoint_seconds": self.save_checkpoint_seconds,
                "keep_checkpoint_max": self.keep_checkpoint_max,
                "keep_checkpoint_per_n_minutes": self.keep_checkpoint_per_n_minutes,
                "saved_network": self.saved_network}


class ModelCheckpoint(Callback):
    """Save the train network's parameters as ``{prefix}-{epoch}_{step}.ckpt`` while training.

    Args:
        prefix (str): file name prefix; if files with it already exist, ``prefix_1``, ``prefix_2`` ...
        directory (str): where to save; the current directory when None.
        config (CheckpointConfig): the saving policy.
    """

    def __init__(self, prefix="CKP", directory=None, config=None):
        if callable(prefix):
            raise ValueError("For 'ModelCheckpoint', sporax takes a str prefix, not a callable one.")
        if not isinstance(prefix, str) or not prefix or "/" in prefix:
            raise ValueError("For 'ModelCheckpoint', the argument 'prefix' for checkpoint file name is invalid, it "
                             f"must be callable or string that does not contain '/', but got {prefix}.")
        if config is not None and not isinstance(config, CheckpointConfig):
            raise TypeError("For 'ModelCheckpoint', the type of argument 'config' should be 'CheckpointConfig', "
                            f"but got {type(config)}.")
        self._directory = os.path.abspath(directory if directory is not None else os.getcwd())
        os.makedirs(self._directory, exist_ok=True)  # as MindSpore: made here, even if nothing is ever saved
        self._config = config or CheckpointConfig()
        self._prefix = self._free_prefix(prefix)
        self._saved = []
        self._last_triggered_step = 0
        self._last_save_time = time.time()
        self._last_kept_time = time.time()
        self._latest_ckpt_file_name = None
        # MindSpore's members that checkpoint callbacks subclassing this one read (mindpet's
        # TrainableParamsCheckPoint overrides _save_ckpt and keeps its files through _manager).
        self._manager = CheckpointManager("safetensors" if self._config.format == "safetensors" else "ckpt")
        self._append_dict = self._config.append_dict or {}
        self._append_epoch_num = self._append_dict.get("epoch_num", 0)
        self._append_step_num = self._append_dict.get("step_num", 0)
        self._need_flush_from_cache = False  # sporax Parameters have no device-side cache to flush

    def _free_prefix(self, prefix):
        """MindSpore never overwrites an earlier run's files: it picks ``prefix_N`` instead."""
        if not os.path.isdir(self._directory):
            return prefix
        names = os.listdir(self._directory)
        candidate, number = prefix, 0
        while any(re.match(re.escape(candidate) + r"-\d+_\d+\.", name) for name in names):
            number += 1
            candidate = f"{prefix}_{number}"
        return candidate

    @property
    def latest_ckpt_file_name(self):
        return self._latest_ckpt_file_name

    def step_end(self, run_context):
        self._save_ckpt(run_context.original_args())

    def end(self, run_context):
        self._save_ckpt(run_context.original_args(), force_to_save=True)

    def _check_save_ckpt(self, cb_params, force_to_save):
        """Whether a checkpoint is due: every save_checkpoint_steps steps (or seconds), or when forced."""
        config = self._config
        if config.save_checkpoint_steps:
            return force_to_save or cb_params["cur_step_num"] - self._last_triggered_step >= config.save_checkpoint_steps
        if config.save_checkpoint_seconds:
            return force_to_save or time.time() - self._last_save_time >= config.save_checkpoint_seconds
        return False

    def _flush_from_cache(self, cb_params):
        """MindSpore copies cached embedding tables to the host before saving; sporax keeps none."""

    def _save_ckpt(self, cb_params, force_to_save=False):
        """Save a checkpoint when one is due (MindSpore's hook; subclasses override it to save other data)."""
        if cb_params["cur_step_num"] == self._last_triggered_step:
            return
        if self._check_save_ckpt(cb_params, force_to_save):
            self._save(cb_params)

    def _save(self, params):
        config = self._config
        step = params["cur_step_num"]
        batch_num = params.get("batch_num") or 1
        step_in_epoch = (step - 1) % batch_num + 1
        suffix = "safetensors" if config.format == "safetensors" else "ckpt"
        path = os.path.join(self._directory, f"{self._prefix}-{params['cur_epoch_num']}_{step_in_epoch}.{suffix}")
        append = config.append_dict
        if append is not None:
            if "epoch_num" in append:
                append["epoch_num"] = int(params["cur_epoch_num"])
            if "step_num" in append:
                append["step_num"] = int(step)
        network = (config.saved_network or params.get("train_network") or params.get("network")
                   or _get_cur_net())
        os.makedirs(self._directory, exist_ok=True)  # ModelCheckpoint makes its directory; save_checkpoint does not
        save_checkpoint(network, path, integrated_save=config.integrated_save, async_save=config.async_save,
                        append_dict=append, enc_key=config.enc_key, enc_mode=config.enc_mode,
                        crc_check=config.crc_check, format=config.format)
        self._last_triggered_step = step
        self._last_save_time = time.time()
        self._latest_ckpt_file_name = path
        params["latest_ckpt_file"] = path
        params["last_save_ckpt_step"] = step
        self._rotate(path)

    def _rotate(self, path):
        """Keep the newest ``keep_checkpoint_max`` files, or one file per N minutes plus the newest."""
        config = self._config
        if config.keep_checkpoint_max:
            self._saved.append(path)
            while len(self._saved) > config.keep_checkpoint_max:
                self._remove(self._saved.pop(0))
            return
        for old in self._saved:
            self._remove(old)
        self._saved = [path]
        now = time.time()
        if now - self._last_kept_time >= config.keep_checkpoint_per_n_minutes * 60:
            self._last_kept_time = now
            self._saved = []  # this one stays for good

    @staticmethod
    def _remove(path):
        try:
            os.remove(path)
        except FileNotFoundError:
            pass


class CheckpointManager:
    """The checkpoint files of one prefix in a directory, as MindSpore's ModelCheckpoint keeps them.

    Args:
        format (str): 'ckpt' or 'safetensors', the file suffix managed.
    """

    def __init__(self, format="ckpt"):
        self._ckpoint_filelist = []
        self._format = format

    @property
    def ckpoint_filelist(self):
        return self._ckpoint_filelist

    @property
    def ckpoint_num(self):
        return len(self._ckpoint_filelist)

    def update_ckpoint_filelist(self, directory, prefix):
        """Re-read ``directory``: the files ``{prefix}-{epoch}_{step}.{format}``."""
        pattern = re.compile(re.escape(prefix) + r"-[^a-zA-Z]*\." + re.escape(self._format) + "$")
        self._ckpoint_filelist = [os.path.join(directory, name) for name in os.listdir(directory)
                                  if pattern.match(name)]

    def remove_ckpoint_file(self, file_name):
        """Delete ``file_name`` and forget it."""
        ModelCheckpoint._remove(file_name)
        if file_name in self._ckpoint_filelist:
            self._ckpoint_filelist.remove(file_name)

    def remove_oldest_ckpoint_file(self):
        """Delete the least recently written file."""
        if self._ckpoint_filelist:
            self.remove_ckpoint_file(min(self._ckpoint_filelist, key=os.path.getmtime))

    def keep_one_ckpoint_per_minutes(self, minutes, cur_time):
        """Of the files written in the last ``minutes`` before ``cur_time``, keep only the oldest."""
        recent = [name for name in self._ckpoint_filelist if cur_time - os.path.getmtime(name) < 60 * minutes]
        if recent:
            oldest = min(recent, key=os.path.getmtime)
            for name in recent:
                if name != oldest:
                    self.remove_ckpoint_file(name)
