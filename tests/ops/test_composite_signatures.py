"""Names whose signatures follow MindSpore 2.10 (issue 13): keyword names work, values match the oracle."""
import copy
import inspect
import json
import os

import numpy as np
import pytest

import sporax as ms
import sporax.dataset as ds
from sporax.dataset import config, vision
from sporax.dataset import transforms
from sporax.ops import composite as C

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "fixtures", "api", "signatures.json")


@pytest.fixture(scope="module")
def oracle():
    with open(FIXTURE) as f:
        return json.load(f)


class Source:
    def __getitem__(self, index):
        return np.array([index, index * 10], np.int32), np.float32(index)

    def __len__(self):
        return 7


def rows(dataset):
    return [[column.tolist() for column in row] for row in dataset.create_tuple_iterator(output_numpy=True)]


def collate(first, second):
    return np.stack(first).sum(0), np.array(second)


def test_generator_batch_sampler(oracle):
    dataset = ds.GeneratorDataset(Source(), ["a", "b"], batch_sampler=[[0, 1, 2], [5, 6]])
    assert rows(dataset) == oracle["batch_sampler"]
    assert dataset.get_dataset_size() == 2


def test_generator_collate_fn(oracle):
    dataset = ds.GeneratorDataset(Source(), ["a", "b"], batch_sampler=[[0, 1, 2], [5, 6]], collate_fn=collate)
    assert rows(dataset) == oracle["collate_fn"]


@pytest.mark.parametrize("kwargs, message", [
    ({"collate_fn": collate}, "collate_fn can be specified only when batch_sampler is set"),
    ({"batch_sampler": [[0]], "shuffle": True}, "batch_sampler is mutually exclusive"),
])
def test_generator_batch_sampler_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        ds.GeneratorDataset(Source(), ["a", "b"], **kwargs)


def test_composite_matmul_dtype(oracle):
    x = ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    y = ms.Tensor(np.arange(6, dtype=np.float32).reshape(3, 2))
    product = C.matmul(x1=x, x2=y, dtype=ms.float16)
    assert str(product.dtype) == oracle["composite_matmul"]["dtype"]
    np.testing.assert_allclose(product.asnumpy(), oracle["composite_matmul"]["value"])
    assert C.GradOperation is ms.ops.GradOperation


def test_composite_zeros_like(oracle):
    x = ms.Tensor(np.ones((2, 3), np.float32))
    np.testing.assert_array_equal(C.zeros_like(x=x).asnumpy(), oracle["composite_zeros_like"]["tensor"])
    assert [repr(C.zeros_like(v)) for v in (3.0, 2, True)] == oracle["composite_zeros_like"]["scalars"]
    with pytest.raises(TypeError, match="zeros_like"):
        C.zeros_like("a")


@pytest.mark.parametrize("setter, getter, keyword", [
    (config.set_auto_num_workers, config.get_auto_num_workers, "enable"),
    (config.set_auto_offload, config.get_auto_offload, "offload"),
    (config.set_enable_shared_mem, config.get_enable_shared_mem, "enable"),
    (config.set_enable_watchdog, config.get_enable_watchdog, "enable"),
    (config.set_fast_recovery, config.get_fast_recovery, "fast_recovery"),
    (config.set_numa_enable, config.get_numa_enable, "numa_enable"),
])
def test_config_flags_by_keyword(setter, getter, keyword):
    before = getter()
    try:
        setter(**{keyword: not before})
        assert getter() is (not before)
        with pytest.raises(TypeError):
            setter(**{keyword: 1})
    finally:
        setter(before)


@pytest.mark.parametrize("cls, keyword", [
    (vision.AdjustBrightness, "brightness_factor"), (vision.AdjustContrast, "contrast_factor"),
    (vision.AdjustHue, "hue_factor"), (vision.AdjustSaturation, "saturation_factor"),
    (vision.AdjustSharpness, "sharpness_factor"),
])
def test_adjust_transforms_by_keyword(cls, keyword):
    image = np.full((4, 4, 3), 100, np.uint8)
    by_keyword = cls(**{keyword: 0.25})(image)
    np.testing.assert_array_equal(by_keyword, cls(0.25)(image))
    assert getattr(cls(**{keyword: 0.25}), keyword) == 0.25


def test_keyword_names_of_small_helpers():
    def function(x):
        return x

    assert vision.not_random(func=function).random is False
    assert transforms.not_random(function=function) is function
    t = ms.tensor(input_data=[1.0, 2.0], dtype=ms.float32, const_arg=False, device=None)
    np.testing.assert_array_equal(t.asnumpy(), [1.0, 2.0])
    clone = t.__deepcopy__(memodict={})
    np.testing.assert_array_equal(clone.asnumpy(), [1.0, 2.0])
    param = ms.Parameter(ms.Tensor(np.ones(2, np.float32)), name="w")
    assert "hook_fn" in inspect.signature(param.register_hook).parameters
    assert copy.deepcopy(param).name == "w"


def test_parameter_register_hook_scales_gradient():
    param = ms.Parameter(ms.Tensor(np.array([1.0, 2.0], np.float32)), name="w")
    param.register_hook(hook_fn=lambda grad: grad * 3)

    def loss(x):
        return (x * param).sum()

    grad = ms.grad(loss, grad_position=None, weights=[param])(ms.Tensor(np.array([5.0, 7.0], np.float32)))
    np.testing.assert_allclose(grad[0].asnumpy(), [15.0, 21.0])
