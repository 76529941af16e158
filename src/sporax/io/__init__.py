"""Files: MindSpore ``.ckpt`` checkpoints, safetensors, export/load of compiled graphs, ONNX."""
from sporax.io.checkpoint import load_checkpoint, load_param_into_net, save_checkpoint
from sporax.io.checkpoint import _get_merged_param_data, _load_dismatch_prefix_params, _update_param
from sporax.io.export import Graph, export, load
from sporax.io.checkpoint_async import load_checkpoint_async

# MindSpore's mindspore.train.serialization (served by this module) also exports the distributed
# checkpoint functions; they live in sporax.parallel, imported on first use (io sits below it).
_DISTRIBUTED = ("build_searched_strategy", "load_distributed_checkpoint", "merge_sliced_parameter")
# and two that live in the packages above, served the same way: name -> module
_ABOVE = {"get_ckpt_path_with_strategy": "sporax.parallel.replicas",
          "export_split_mindir": "sporax.train.ascend_services"}


def __getattr__(name):
    if name in _DISTRIBUTED:
        import sporax.parallel

        return getattr(sporax.parallel, name)
    if name in _ABOVE:
        import importlib

        return getattr(importlib.import_module(_ABOVE[name]), name)
    raise AttributeError(f"module 'sporax.io' has no attribute '{name}'")
from sporax.io.checkpoint_async import ParamDictFuture

_DISTRIBUTED = _DISTRIBUTED + ("restore_group_info_list",)
from sporax.io.format_convert import ckpt_to_safetensors, safetensors_to_ckpt
from sporax.io.checkpoint_status import async_ckpt_thread_status, tensor_to_ms_type, tensor_to_np_type
from sporax.io.mindio import init_ckpt_file_system
