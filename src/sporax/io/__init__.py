"""Files: MindSpore ``.ckpt`` checkpoints, safetensors, export/load."""
from sporax.io.checkpoint import load_checkpoint, load_param_into_net, save_checkpoint
