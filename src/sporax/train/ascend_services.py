"""Training APIs that need services sporax does not have (Ascend, MindIO), refused with the reason.

- ``TrainFaultTolerance``: MindIO TFT (``mindio_ttp``) watches Ascend devices, repairs a failed
  rank from a replica and saves a last-moment checkpoint; it needs the MindIO TFT service and
  Ascend's HCCL process groups.
- ``ConvertNetUtils.convert_to_thor_net``: swaps a network's layers for THOR's second-order
  layers (``DenseThor``, ``Conv2dThor``, ``EmbeddingThor``), which sporax does not provide (THOR
  itself is refused by ``nn.thor``).
- ``export_split_mindir``: splits a MindIR into per-rank graphs with SAPP, Ascend's automatic
  strategy planner.
"""
import os

from sporax import log
from sporax.callback_protocol import Callback

_TFT_SWITCHES = ("TTP:1", "UCE:1", "ARF:1", "TSP:1", "HCCE:1", "TRE:1", "ATO:1")


class TrainFaultTolerance(Callback):
    """Not available: MindIO TFT's fault tolerance for Ascend training.

    Args:
        ckpt_save_path (str): where a failure checkpoint would go. Default: ``None``.
        kwargs: ``ckpt_save_fn``, ``ckpt_load_fn``, ``initial_step`` (MindSpore's).

    Raises:
        ValueError: ``MS_ENABLE_TFT`` switches no feature on (as MindSpore checks first).
        NotImplementedError: otherwise; use ``ModelCheckpoint`` + ``BackupAndRestore`` (or
            ``OnRequestExit``) to resume after a failure.
    """

    def __init__(self, ckpt_save_path=None, **kwargs):
        super().__init__()
        switches = os.getenv("MS_ENABLE_TFT", "")
        if not any(switch in switches for switch in _TFT_SWITCHES):
            raise ValueError(f"MindIO TFT register need custom switch on one of:{list(_TFT_SWITCHES[:5])}")
        raise NotImplementedError(
            "mindspore.train.TrainFaultTolerance drives MindIO TFT (the mindio_ttp service on Ascend HCCL process "
            "groups), which sporax cannot reach. To resume after a failure, save with "
            "mindspore.train.ModelCheckpoint and restart with mindspore.train.BackupAndRestore (or stop cleanly with "
            "OnRequestExit).")


class ConvertNetUtils:
    """Convert a network's layers to THOR's second-order layers (``mindspore.train.ConvertNetUtils``).

    Example:
        >>> import sporax as ms
        >>> converter = ms.train.ConvertNetUtils()
    """

    def convert_to_thor_net(self, net):
        """Not available: THOR's layers are not provided by sporax.

        Raises:
            NotImplementedError: always; train with a first-order optimizer (``nn.Momentum``,
            ``nn.Adam``), for which no conversion is needed.
        """
        raise NotImplementedError(
            f"ConvertNetUtils.convert_to_thor_net({type(net).__name__}) replaces Dense/Conv2d/Embedding with THOR's "
            "second-order layers (DenseThor, Conv2dThor, EmbeddingThor), which sporax does not provide (nor the THOR "
            "optimizer). Train with a first-order optimizer such as nn.Momentum or nn.Adam, which needs no conversion.")


def export_split_mindir(file_name, device_num=8, rank_id=0, dynamic=True, sapp=True):
    """Not available: split a MindIR into per-rank graphs with Ascend's SAPP planner.

    Raises:
        ValueError: ``file_name`` is not an existing ``.mindir`` file (checked first, as MindSpore).
        NotImplementedError: otherwise; export each rank's graph with ``mindspore.export`` under
            the parallel context instead.
    """
    if not isinstance(file_name, str):
        raise ValueError(f"For 'Split MindIR', the argument 'file_name' must be string, but got {type(file_name)}.")
    if not file_name.endswith(".mindir"):
        raise ValueError("For 'Split MindIR', the argument 'file_name'(MindIR file) should end with '.mindir', "
                         "please input the correct 'file_name'.")
    if not os.path.exists(file_name):
        raise ValueError("For 'Split MindIR', the argument 'file_name'(MindIR file) does not exist, "
                         "please check whether the 'file_name' is correct.")
    raise NotImplementedError(
        f"export_split_mindir('{file_name}', device_num={device_num}) splits a MindIR with SAPP, the automatic "
        "strategy planner of MindSpore's Ascend backend, which sporax does not have. Export each rank's graph with "
        "mindspore.export(net, ..., file_format='MINDIR') under the parallel context instead.")



def stress_detect(detect_type="aic"):
    """Run Ascend's AI-core ('aic') or HCCS link ('hccs') stress test: refused off Ascend, as MindSpore refuses.

    An unknown ``detect_type`` returns 1 (MindSpore logs it and returns 1, the failure code).
    """
    if detect_type not in ("aic", "hccs"):
        return 1
    raise RuntimeError("Stress detection is not supported.")


def flops_collection(phase="train"):
    """FLOPs of the compiled graph of ``phase``, which MindSpore counts on Ascend only: refused here.

    On CPU MindSpore 2.10 raises RuntimeError (it has no such graph); sporax raises the same type.
    """
    raise RuntimeError(f"flops_collection: there is no Ascend graph of phase '{phase}' to count FLOPs in "
                       "(MindSpore counts them on Ascend only); sporax has none. Use jax's cost analysis of a "
                       "compiled function, or the profiler, instead.")


def sdc_detect_start():
    """Start Ascend's silent-data-corruption checksums: disabled off Ascend (MindSpore on CPU logs a warning)."""
    log.warning("CheckSum is disable: silent data corruption detection checksums Ascend matrix products "
                "(MS_SDC_DETECT_ENABLE=1 on an Ascend device); sporax runs on JAX's CPU/GPU backends, which have none.")


def sdc_detect_stop():
    """Stop the silent-data-corruption checksums: nothing runs off Ascend (see ``sdc_detect_start``)."""
    log.warning("CheckSum is disable: there is no silent data corruption detection to stop off Ascend.")


def get_sdc_detect_result():
    """Whether silent data corruption was detected: False, as MindSpore answers where detection is disabled."""
    return False
