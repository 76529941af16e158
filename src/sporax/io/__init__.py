"""Files: MindSpore ``.ckpt`` checkpoints, safetensors, export/load of compiled graphs, ONNX."""
from sporax.io.checkpoint import load_checkpoint, load_param_into_net, save_checkpoint
from sporax.io.export import Graph, export, load
