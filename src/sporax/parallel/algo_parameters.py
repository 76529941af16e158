"""Strategy-search and cost-model settings (``set_algo_parameters``, ``_cost_model_context``).

MindSpore's AUTO_PARALLEL search reads these; in sporax XLA's sharding propagation decides, so
the values are validated and stored for code that sets and reads them back.

Example:
    >>> from sporax.parallel import algo_parameters
    >>> algo_parameters.set_algo_parameters(elementwise_op_strategy_follow=True)
    >>> algo_parameters.get_algo_parameters("elementwise_op_strategy_follow")
    True
"""


class _Settings:
    """A table of named settings with typed defaults: set (validated), get, reset."""

    def __init__(self, defaults):
        self.defaults = dict(defaults)
        self.values = dict(defaults)

    def set(self, kwargs):
        for key, value in kwargs.items():
            if key not in self.defaults:
                raise ValueError(f"Set context keyword {key} is not recognized!")
            expected = type(self.defaults[key])
            if expected is bool and not isinstance(value, bool) or \
                    expected is not bool and (isinstance(value, bool) or not isinstance(value, (int, float))):
                raise TypeError(f"The parameter '{key}' must be {expected.__name__}, "
                                f"but got {type(value).__name__}.")
            self.values[key] = expected(value)

    def get(self, key):
        if key not in self.values:
            raise ValueError(f"Get context keyword {key} is not recognized!")
        return self.values[key]

    def reset(self):
        self.values = dict(self.defaults)


_algo = _Settings({"fully_use_devices": False, "elementwise_op_strategy_follow": False,
                   "enable_algo_approxi": False, "algo_approxi_epsilon": 0.1,
                   "tensor_slice_align_enable": False, "tensor_slice_align_size": 16})
_cost_model = _Settings({
    "device_memory_capacity": 17179869184.0, "costmodel_alpha": 1.0, "costmodel_beta": 400.0,
    "costmodel_gamma": 0.001, "costmodel_communi_threshold": 2048.0, "costmodel_communi_const": 3072.0,
    "costmodel_communi_bias": 1024.0, "run_phase": 0, "costmodel_allreduce_fusion_algorithm": 0,
    "costmodel_allreduce_fusion_times": 0, "costmodel_allreduce_fusion_tail_percent": 0.1,
    "costmodel_allreduce_fusion_tail_time": 0.1, "costmodel_allreduce_fusion_allreduce_inherent_time": 0.1,
    "costmodel_allreduce_fusion_allreduce_bandwidth": 0.1,
    "costmodel_allreduce_fusion_computation_time_parameter": 0.1,
})


def set_algo_parameters(**kwargs):
    """Store strategy-search parameters (``mindspore.parallel.set_algo_parameters``)."""
    _algo.set(kwargs)


def get_algo_parameters(attr_key):
    """Return a strategy-search parameter."""
    return _algo.get(attr_key)


def reset_algo_parameters():
    """Restore the strategy-search parameters to their defaults."""
    _algo.reset()


def set_cost_model_context(**kwargs):
    """Store cost-model settings (``mindspore.parallel._cost_model_context.set_cost_model_context``)."""
    _cost_model.set(kwargs)


def get_cost_model_context(attr_key):
    """Return a cost-model setting."""
    return _cost_model.get(attr_key)


def reset_cost_model_context():
    """Restore the cost-model settings to their defaults."""
    _cost_model.reset()


_multi_subgraphs = [False]


def _set_multi_subgraphs(multi_subgraph=True):
    """Mark the compiled graph as holding several subgraphs (MindSpore's AUTO_PARALLEL hint; stored
    for ``_get_multi_subgraphs``: XLA compiles the whole step as one program either way)."""
    _multi_subgraphs[0] = bool(multi_subgraph)


def _get_multi_subgraphs():
    """Return the flag ``_set_multi_subgraphs`` stored (default False)."""
    return _multi_subgraphs[0]


_rp_matmul_mem_coef = [None]


def _set_rp_matmul_mem_coef(coef):
    """Store the recompute-MatMul memory coefficient of MindSpore's cost model (read by nothing here:
    XLA plans memory itself), as MindSpore accepts it and returns None."""
    _rp_matmul_mem_coef[0] = coef


__all__ = ["set_algo_parameters", "get_algo_parameters", "reset_algo_parameters", "set_cost_model_context",
           "get_cost_model_context", "reset_cost_model_context"]
