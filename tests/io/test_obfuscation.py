"""Checkpoint obfuscation: weights rewritten with secret metadata, and undone in the loaded network."""
import os

import numpy as np
import pytest

import sporax as ms
from sporax import nn


class _Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(4, 3)
        self.fc2 = nn.Dense(3, 2)

    def construct(self, x):
        return self.fc2(self.fc1(x))


@pytest.fixture
def saved(tmp_path):
    net = _Net()
    ms.save_checkpoint(net, str(tmp_path / "net.ckpt"))
    return net, tmp_path


def test_target_modules_multiply_by_a_random_ratio_and_the_key_undoes_it(saved):
    net, folder = saved
    keys = ms.obfuscate_ckpt(net, str(folder), target_modules=["", "fc1|fc2"], saved_path=str(folder))
    assert sorted(os.listdir(folder)) == ["net.ckpt", "net_obf.ckpt"]
    key = keys["obf_metadata"]
    assert key.dtype == np.float16 and key.shape == (1,)
    ratio = 1.0 / key.astype(np.float32)[0]
    assert 1 <= round(ratio) < 100
    original = ms.load_checkpoint(str(folder / "net.ckpt"))
    obfuscated = ms.load_checkpoint(str(folder / "net_obf.ckpt"))
    for name in ("fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"):
        np.testing.assert_allclose(obfuscated[name].asnumpy(), original[name].asnumpy() * round(ratio), rtol=1e-6)
    loaded = _Net()
    ms.load_checkpoint(str(folder / "net_obf.ckpt"), loaded)
    restored = ms.load_obf_params_into_net(loaded, ["", "fc1|fc2"], obf_ratios=ms.Tensor(key))
    x = ms.Tensor(np.random.rand(3, 4).astype(np.float32))
    # The key is float16 (as MindSpore saves it): 1/ratio to about 3 significant digits.
    np.testing.assert_allclose(restored(x).asnumpy(), net(x).asnumpy(), rtol=2e-3, atol=2e-3)


def test_config_with_a_permutation(saved):
    net, folder = saved
    config = {"obf_metadata_config": [{"name": "obf_metadata_p", "shape": [3], "type": "rearrange",
                                       "save_metadata": True}],
              "weight_obf_config": [{"target": "fc1/weight",
                                     "weight_obf_ops": [{"name": "permuate", "input_x": "obf_metadata_p"}]}],
              "network_obf_config": [{"module": "", "target": "fc1", "insert_ops": []}]}
    keys = ms.obfuscate_ckpt(net, str(folder), obf_config=config, saved_path=str(folder))
    permutation = keys["obf_metadata_p"]
    assert sorted(permutation.tolist()) == [0, 1, 2]
    original = ms.load_checkpoint(str(folder / "net.ckpt"))
    obfuscated = ms.load_checkpoint(str(folder / "net_obf.ckpt"))
    np.testing.assert_array_equal(obfuscated["fc1.weight"].asnumpy(), original["fc1.weight"].asnumpy()[permutation])
    np.testing.assert_array_equal(obfuscated["fc2.weight"].asnumpy(), original["fc2.weight"].asnumpy())


def test_without_keys_the_network_stays_obfuscated(saved):
    net, _ = saved
    before = net.fc1.weight.asnumpy().copy()
    assert ms.load_obf_params_into_net(net, ["", "fc1"]) is net
    np.testing.assert_array_equal(net.fc1.weight.asnumpy(), before)


@pytest.mark.parametrize("kwargs, error, message", [
    ({"target_modules": "fc1"}, TypeError, "should be list"),
    ({"target_modules": ["fc1"]}, ValueError, "at least two"),
    ({"target_modules": ["a-b", "fc1"]}, ValueError, "first string"),
    ({"target_modules": ["", "fc1", "layers:3"]}, ValueError, "obfuscate_layers"),
    ({"target_modules": ["missing", "fc1"]}, ValueError, "has no module"),
    ({"obf_config": {"obf_metadata_config": []}}, ValueError, "not valid"),
    ({"target_modules": ["", "fc1"], "obfuscate_scale": 1}, ValueError, "larger than 1"),
])
def test_bad_arguments(saved, kwargs, error, message):
    net, folder = saved
    with pytest.raises(error, match=message):
        ms.obfuscate_ckpt(net, str(folder), saved_path=str(folder), **kwargs)


def test_bad_network_and_paths(tmp_path):
    with pytest.raises(TypeError, match="nn.Cell"):
        ms.obfuscate_ckpt(3, str(tmp_path), ["", "fc1"])
    with pytest.raises(ValueError, match="ckpt_files must be an existing path"):
        ms.obfuscate_ckpt(_Net(), str(tmp_path / "none"), ["", "fc1"])
    with pytest.raises(TypeError, match="obf_ratios type should be Tensor"):
        ms.load_obf_params_into_net(_Net(), ["", "fc1"], obf_ratios=[0.5])
