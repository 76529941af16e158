"""``mindspore.boost.AutoBoost``: the process-wide boost configuration ``Model(boost_level=...)`` applies.

As in MindSpore 2.10, ``AutoBoost`` is a singleton whose level and settings are fixed by the first
construction in the process: later constructions (a second ``Model`` with another ``boost_level``) return
the same object unchanged. Level O1 turns on ``less_bn`` and ``grad_freeze``; O2 adds ``adasum`` (which
only acts in data-parallel jobs of 16 or more devices); an unknown level counts as O0.
"""
import copy
import threading

from sporax.nn.boost.gradient_freeze import GradientFreeze
from sporax.nn.boost.less_batch_normalization import LessBN
from sporax.nn.wrap.boost_processes import OptimizerProcess, ParameterProcess

__all__ = ["AutoBoost"]

_MODES = ("auto", "manual", "enable_all", "disable_all")
_FUNCTIONS = ("less_bn", "grad_freeze", "adasum", "grad_accumulation", "dim_reduce", "loss_scale_group")
_LEVELS = {"O0": (), "O1": ("less_bn", "grad_freeze"), "O2": ("less_bn", "grad_freeze", "adasum")}

# The settings a boost_config_dict section may hold, and the attribute each sets (the section applies only
# when its function is on, or it is 'common').
_SETTINGS = {"fn_flag": "_fn_flag", "gc_flag": "_gc_flag", "param_groups": "_param_groups",
             "freeze_type": "_freeze_type", "freeze_p": "_freeze_p", "total_steps": "_total_steps",
             "device_number": "device_number", "gradient_split_groups": "gradient_groups",
             "grad_accumulation_step": "grad_accumulation_step", "rho": "rho", "gamma": "gamma", "alpha": "alpha",
             "sigma": "sigma", "n_components": "n_components", "pca_mat_path": "pca_mat_path",
             "weight_load_dir": "weight_load_dir", "timeout": "timeout"}


class AutoBoost:
    """The boost configuration of this process (a singleton).

    Args:
        level (str): 'O0', 'O1' or 'O2' (anything else: 'O0'). Default: 'O0'.
        boost_config_dict (dict): ``{"boost": {"mode": ..., <function>: bool}, <function or 'common'>:
            {<setting>: value}}``; mode 'auto' follows ``level``, 'manual' the dict's flags, 'enable_all' and
            'disable_all' switch every function. Default: ''.

    Raises:
        ValueError: the mode is not one of 'auto', 'manual', 'enable_all', 'disable_all'.
    """

    _instance_lock = threading.Lock()
    _instance = None

    def __new__(cls, *args, **kwargs):
        with AutoBoost._instance_lock:
            if AutoBoost._instance is None:
                AutoBoost._instance = object.__new__(cls)
                AutoBoost._instance.level = None
                AutoBoost._instance.boost_config_dict = None
        return AutoBoost._instance

    def __init__(self, level="O0", boost_config_dict=""):
        if self.level is not None:  # configured by the first construction in the process
            return
        level = level if level in _LEVELS else "O0"
        self.boost_config_dict = boost_config_dict
        self._fn_flag, self._gc_flag = True, True
        self._param_groups, self._freeze_type, self._freeze_p, self._total_steps = 10, 1, 0.7, 65536
        self.gradient_groups, self.device_number, self.grad_accumulation_step = None, 8, 1
        self.rho, self.gamma, self.alpha, self.sigma, self.n_components = 0.55, 0.9, 0.001, 0.4, 32
        self.pca_mat_path = self.weight_load_dir = self.local_pca_mat_path = None
        self.timeout = 1800
        self.boost_config = self._get_configuration(level, boost_config_dict)
        self._param_processer = ParameterProcess()
        self.level = level

    def _get_configuration(self, level, boost_config_dict):
        config = {function: function in _LEVELS[level] for function in _FUNCTIONS}
        if not boost_config_dict:
            return config
        mode = boost_config_dict.get("boost", {}).get("mode", "auto")
        if mode not in _MODES:
            raise ValueError(f"The boost mode must be in {list(_MODES)}, but got {mode}")
        if mode == "manual":
            config.update((key, value) for key, value in boost_config_dict["boost"].items() if key in config)
        elif mode in ("enable_all", "disable_all"):
            config = dict.fromkeys(config, mode == "enable_all")
        for section, settings in boost_config_dict.items():
            if section == "common" or config.get(section):
                for key, value in settings.items():
                    if key == "gradient_split_groups" and not isinstance(value, (list, int)):
                        raise ValueError(f"gradient_groups `{value}` is not in (list, int)")
                    if key in _SETTINGS:
                        setattr(self, _SETTINGS[key], copy.copy(value))
        return config

    def network_auto_process_train(self, network, optimizer):
        """``(network, optimizer)`` with the enabled boost functions applied for training.

        Args:
            network (Cell): the training network.
            optimizer (Optimizer): its optimizer.
        """
        if self.boost_config.get("dim_reduce"):
            raise NotImplementedError("mindspore.boost dim_reduce (DimReduce) is not implemented in sporax: it "
                                      "needs the PCA matrices MindSpore computes from saved checkpoints.")
        if self.boost_config.get("less_bn"):
            network = LessBN(network, fn_flag=self._fn_flag)
            process = OptimizerProcess(optimizer)
            groups = self._param_processer.assign_parameter_group(network.trainable_params(), self.gradient_groups)
            process.origin_params = ParameterProcess.generate_group_params(groups, process.origin_params)
            if self._gc_flag:
                process.add_grad_centralization(network)
            optimizer = process.generate_new_optimizer()
        if self.boost_config.get("grad_freeze"):
            freeze = GradientFreeze(self._param_groups, self._freeze_type, self._freeze_p, self._total_steps)
            network, optimizer = freeze.freeze_generate(network, optimizer)
        if self.boost_config.get("adasum"):
            optimizer.adasum = True
        return network, optimizer

    def network_auto_process_eval(self, network):
        """``network`` with the enabled boost functions applied for evaluation.

        Args:
            network (Cell): the evaluation network.
        """
        if self.boost_config.get("less_bn") and not self.boost_config.get("dim_reduce"):
            return LessBN(network)
        return network
