"""``sporax run yolox_seeded_checkpoint.py CKPT [config options]`` (the zoo's YOLOX folder on PYTHONPATH):
saves the zoo's DetectionBlock (yolox_darknet53) after ``set_seed(3)`` and the zoo's own initialiser, under
the ``ema.network.`` names train.py's EMA checkpoints carry, which eval.py's load_weights strips to
``network.<name>`` and load_param_into_net's prefix fallback maps onto the bare network."""
import sys

import mindspore
from mindspore import context

checkpoint = sys.argv[1]
sys.argv = sys.argv[:1] + sys.argv[2:]  # the zoo's config parses the remaining options
from model_utils.config import config  # noqa: E402
from src.initializer import default_recurisive_init  # noqa: E402
from src.yolox import DetectionBlock  # noqa: E402

context.set_context(mode=context.GRAPH_MODE, device_target="CPU")
mindspore.set_seed(3)
network = DetectionBlock(config, backbone="yolofpn")
default_recurisive_init(network)
mindspore.save_checkpoint([{"name": "ema.network." + parameter.name, "data": parameter}
                           for parameter in network.get_parameters()], checkpoint)
