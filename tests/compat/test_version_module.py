"""mindspore.version: the module libraries read ``__version__`` from (``from mindspore import version``)."""
import importlib

import sporax
from tests.compat.test_hook import hook  # noqa: F401 - the shared install/uninstall fixture


def test_version_module_gives_the_followed_mindspore_release(hook):
    from mindspore import version  # noqa: PLC0415 - served only while the hook is installed

    assert version.__version__ == sporax.MINDSPORE_VERSION == "2.10.0"
    assert importlib.import_module("mindspore.version").__version__ == "2.10.0"
    assert isinstance(version.__version__, str)
