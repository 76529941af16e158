"""mindspore-lab's mindcv runs unchanged on sporax (issue 23): imports, a model created, run and trained.

The library is read at test time from ../shared/external/ecosys (or $SPORAX_ECOSYS_DIR), with its own
third-party imports from /tmp/ecosys-deps (or $SPORAX_ECOSYS_DEPS, see that folder's README); the tests
skip, saying which, where either is absent. Each check runs in a fresh interpreter, as a user's script.
"""
import os
import subprocess
import sys
import textwrap

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ECOSYS = os.environ.get("SPORAX_ECOSYS_DIR", os.path.join(os.path.dirname(ROOT), "shared", "external", "ecosys"))
DEPS = os.environ.get("SPORAX_ECOSYS_DEPS", "/tmp/ecosys-deps")


def _run_with_mindcv(code, timeout=600):
    library = os.path.join(ECOSYS, "mindcv")
    if not os.path.isdir(os.path.join(library, "mindcv")):
        pytest.skip(f"mindcv is not available at {library} (it lives in ../shared/external/ecosys)")
    path = [os.path.join(ROOT, "src"), library] + ([DEPS] if os.path.isdir(DEPS) else [])
    prelude = "import sporax.compat\nsporax.compat.install()\n"
    result = subprocess.run([sys.executable, "-c", prelude + textwrap.dedent(code)], cwd=library,
                            env=dict(os.environ, PYTHONPATH=os.pathsep.join(path), JAX_PLATFORMS="cpu"),
                            capture_output=True, text=True, timeout=timeout)
    output = result.stdout + result.stderr
    if result.returncode != 0 and "ModuleNotFoundError" in output and "mindspore" not in output.splitlines()[-1]:
        pytest.skip(f"a third-party module mindcv imports is missing (install them into {DEPS} as "
                    f"{ECOSYS}/README.md says): {output.splitlines()[-1]}")
    assert result.returncode == 0, output[-4000:]
    return result.stdout


def test_mindcv_imports_with_its_boost_train_step():
    out = _run_with_mindcv("""
        import mindspore
        import mindcv, mindcv.models, mindcv.optim, mindcv.utils
        from mindcv.utils.train_step import GradientAccumulation
        from mindcv.optim.adan import Adan
        assert issubclass(GradientAccumulation, mindspore.boost.GradientAccumulation)
        assert mindspore.__version__ == "2.10.0"
        print("models", len(mindcv.models.list_models()))
    """)
    assert int(out.split()[-1]) > 100


@pytest.mark.slow
def test_mindcv_convnext_train_steps_match_mindspore():
    # ConvNeXt reaches into nn.LayerNorm.layer_norm; its AdamW is a jit-compiled custom optimizer.
    # The losses of four steps, recorded with MindSpore 2.10 (CPU) running this same code.
    recorded = [1.7246, 1.5180, 5.9164, 3.7734]
    out = _run_with_mindcv("""
        import numpy as np
        import mindspore as ms
        from mindspore import Tensor, nn
        from mindcv.loss import create_loss
        from mindcv.models import create_model
        from mindcv.optim import create_optimizer

        ms.set_seed(0)
        model = create_model("convnext_tiny", pretrained=False, num_classes=10, drop_path_rate=0.0)
        x = Tensor(np.random.default_rng(0).random((2, 3, 64, 64)), ms.float32)
        y = Tensor(np.array([1, 7]), ms.int32)
        model.set_train(True)
        opt = create_optimizer(model.trainable_params(), opt="adamw", lr=1e-3, weight_decay=0.05)
        step = nn.TrainOneStepCell(nn.WithLossCell(model, create_loss(name="CE", label_smoothing=0.1)), opt)
        print("losses", *[float(step(x, y).asnumpy()) for _ in range(4)])
    """)
    losses = [float(value) for value in out.split("losses")[-1].split()]
    assert losses == pytest.approx(recorded, rel=2e-3)
