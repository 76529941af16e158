"""ViT: the zoo's train.py and eval.py unchanged under sporax run on an ImageFolder tree.

The zoo snapshot keeps no ViT config file (it is a .yml in the model repository), so the test writes
one with the keys train.py reads, and picks a tiny network through the script's own hook for
that, ``vit_config_path`` (a ``module.function`` that edits the default config).
"""
import glob
import os

import pytest

from tests.zoo.runner import SRC, model_dir, numbers_after, run_script
from tests.zoo.synthetic import write_image_folder

CONFIG = """enable_modelarts: False
data_url: ""
train_url: ""
checkpoint_url: ""
data_path: "/cache/data"
output_path: "/cache/train"
load_path: "/cache/checkpoint_path"
device_target: "Ascend"
enable_profiling: False
dataset_path: ""
eval_path: ""
pretrained: ""
vit_config_path: "vit_tiny.tiny"
backbone: "vit_base_patch32"
class_num: 4
train_image_size: 32
eval_image_size: 32
interpolation: "BILINEAR"
crop_min: 0.05
autoaugment: 0
mixup: 0.0
batch_size: 8
eval_batch_size: 8
train_num_workers: 2
eval_num_workers: 2
eval_interval: 1
eval_offset: -1
loss_scale: 1024
use_label_smooth: 1
label_smooth_factor: 0.1
loss_name: "ce_smooth"
max_epoch: 6
open_profiler: 0
gc_flag: 0
opt: "adamw"
beta1: 0.9
beta2: 0.999
weight_decay: 0.05
no_weight_decay_filter: "beta,bias"
lr_decay_mode: "cosine"
lr_init: 0.0
lr_max: 0.003
lr_min: 0.0
warmup_epochs: 1
save_checkpoint: 1
save_checkpoint_epochs: 6
keep_checkpoint_max: 2
save_checkpoint_path: "./outputs"
"""

TINY = """def tiny(cfg):
    from src.vit import VitConfig
    cfg.d_model, cfg.depth, cfg.heads, cfg.mlp_dim, cfg.dim_head = 64, 2, 4, 128, 16
    cfg.normalized_shape, cfg.patch_size = 64, 8
    return VitConfig(cfg)
"""


@pytest.mark.slow
def test_vit_trains_and_evaluates_on_image_folder(tmp_path):
    pytest.importorskip("easydict", reason="the ViT scripts need easydict (a requirement of the model zoo)")
    zoo = model_dir("cv", "VIT")
    train = write_image_folder(str(tmp_path / "data" / "train"), seed=0)
    val = write_image_folder(str(tmp_path / "data" / "val"), seed=3)
    (tmp_path / "vit.yml").write_text(CONFIG)
    (tmp_path / "vit_tiny.py").write_text(TINY)
    env = {"PYTHONPATH": os.pathsep.join([SRC, str(tmp_path)])}
    output = run_script(os.path.join(zoo, "train.py"), [f"--config_path={tmp_path / 'vit.yml'}",
                                                        f"--dataset_path={train}", f"--eval_path={val}"],
                        cwd=str(tmp_path), env=env)
    losses = numbers_after(r"loss=", output)
    assert len(losses) == 6 and min(losses[-2:]) < 0.8 * losses[0], output[-3000:]
    checkpoint = glob.glob(str(tmp_path / "outputs" / "*.ckpt"))
    assert len(checkpoint) == 1
    output = run_script(os.path.join(zoo, "eval.py"), [f"--config_path={tmp_path / 'vit.yml'}",
                                                       f"--eval_path={val}", f"--pretrained={checkpoint[0]}"],
                        cwd=str(tmp_path), env=env)
    # The script's DistAccuracy divides the correct count by ImageNet's 50000 validation images.
    accuracy = numbers_after(r"accuracy=", output)
    assert accuracy and accuracy[-1] * 50000 >= 0.5 * 32, output[-3000:]
