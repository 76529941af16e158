"""Run mindcv's own entry-point scripts (train.py, validate.py) unchanged under ``sporax run``.

mindcv is read at test time from ../shared/external/ecosys (or $SPORAX_ECOSYS_DIR), its third-party
imports from /tmp/ecosys-deps (or $SPORAX_ECOSYS_DEPS); tests skip, saying which, where either is absent.
"""
import os
import re
import subprocess
import sys

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ECOSYS = os.environ.get("SPORAX_ECOSYS_DIR", os.path.join(os.path.dirname(ROOT), "shared", "external", "ecosys"))
DEPS = os.environ.get("SPORAX_ECOSYS_DEPS", "/tmp/ecosys-deps")
MINDCV = os.path.join(ECOSYS, "mindcv")


def write_image_folder(root, classes=3, train=8, val=4, size=32):
    """A tiny ImageFolder dataset (``root/train/classK/*.png``, ``root/val/...``) of seeded noise images.

    PNG keeps the pixels exact, so MindSpore and sporax read the same data; class ``k`` is brighter
    with ``k``, so a network can tell the classes apart.
    """
    image_module = pytest.importorskip("PIL.Image", reason="writing the test images needs Pillow")
    rng = np.random.default_rng(0)
    for split, count in (("train", train), ("val", val)):
        for label in range(classes):
            folder = os.path.join(root, split, f"class{label}")
            os.makedirs(folder, exist_ok=True)
            for index in range(count):
                pixels = (rng.random((size, size, 3)) * 80 + label * 80).astype(np.uint8)
                image_module.fromarray(pixels).save(os.path.join(folder, f"image{index}.png"))
    return root


def whole_image_config(tmp_path):
    """configs/resnet/resnet_18_gpu.yaml with scale and ratio (1, 1), so the random crop takes the whole image
    and MindSpore and sporax train on the same pixels (mindcv's argparse takes those as ``type=tuple``, so
    only a yaml file can set them). Skips where mindcv is absent."""
    source = os.path.join(MINDCV, "configs", "resnet", "resnet_18_gpu.yaml")
    if not os.path.isfile(source):
        pytest.skip(f"mindcv is not available at {MINDCV} (it lives in ../shared/external/ecosys)")
    with open(source) as handle:
        lines = [("scale: [1.0, 1.0]\n" if line.startswith("scale:") else
                  "ratio: [1.0, 1.0]\n" if line.startswith("ratio:") else line) for line in handle]
    path = tmp_path / "resnet_18_whole_image.yaml"
    path.write_text("".join(lines))
    return str(path)


def run_mindcv_script(script, args, timeout=600):
    """``python -m sporax run <mindcv>/script args`` in mindcv's folder; returns stdout+stderr."""
    if not os.path.isfile(os.path.join(MINDCV, script)):
        pytest.skip(f"mindcv is not available at {MINDCV} (it lives in ../shared/external/ecosys)")
    path = [os.path.join(ROOT, "src"), MINDCV] + ([DEPS] if os.path.isdir(DEPS) else [])
    environment = dict(os.environ, PYTHONPATH=os.pathsep.join(path), JAX_PLATFORMS="cpu")
    result = subprocess.run([sys.executable, "-m", "sporax", "run", script, *args], cwd=MINDCV, env=environment,
                            capture_output=True, text=True, timeout=timeout)
    output = result.stdout + result.stderr
    last = output.strip().splitlines()[-1] if output.strip() else ""
    if result.returncode != 0 and "ModuleNotFoundError" in last and "mindspore" not in last:
        pytest.skip(f"a third-party module mindcv imports is missing (install them into {DEPS} as "
                    f"{ECOSYS}/README.md says): {last}")
    assert result.returncode == 0, f"{script} failed (exit {result.returncode}):\n{output[-6000:]}"
    return output


def logged_losses(output):
    """The per-step losses mindcv's StateMonitor logs (``loss: 1.0986``)."""
    return [float(value) for value in re.findall(r"batch: \[\d+/\d+\], loss: (-?[0-9.]+(?:e-?\d+)?)", output)]
