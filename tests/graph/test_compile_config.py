"""``mindspore._extends.parse.compile_config``: MindSpore's compiler switches, which XLA's passes do not
read; setting one is accepted and leaves results unchanged."""
import numpy as np

from sporax import Tensor, jit


def test_compile_config_is_served_at_mindspores_path_and_changes_nothing():
    import sporax.compat

    sporax.compat.install()
    from mindspore._extends.parse import compile_config

    @jit
    def triple(x):
        return x * 3

    before = triple(Tensor(np.array([1.0, 2.0], np.float32))).asnumpy()
    compile_config.RECURSIVE_EVAL = 1
    compile_config.CHECK_BPROP = 1
    try:
        after = triple(Tensor(np.array([1.0, 2.0], np.float32))).asnumpy()
    finally:
        compile_config.RECURSIVE_EVAL = ""
        compile_config.CHECK_BPROP = ""
    np.testing.assert_array_equal(before, [3.0, 6.0])
    np.testing.assert_array_equal(after, before)
