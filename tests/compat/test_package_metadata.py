"""Under the hook, package metadata reports a ``mindspore`` distribution at the release sporax follows:
libraries test ``importlib.metadata.version("mindspore")`` to decide whether MindSpore is installed
(mindone's ``is_mindspore_available``). Without the hook there is none."""
import importlib.metadata

import pytest

import sporax
from sporax.compat import install, is_installed, uninstall


@pytest.fixture
def without_hook():
    was_installed = is_installed()
    uninstall()
    yield
    if was_installed:
        install()


def test_the_hook_reports_the_followed_release(without_hook):
    install()
    try:
        assert importlib.metadata.version("mindspore") == sporax.MINDSPORE_VERSION == "2.10.0"
        assert importlib.metadata.version("MindSpore") == "2.10.0"  # names are matched normalised
        assert importlib.metadata.metadata("mindspore")["Name"] == "mindspore"
        names = [dist.metadata["Name"] for dist in importlib.metadata.distributions()]
        assert names.count("mindspore") == 1
    finally:
        uninstall()


def test_without_the_hook_no_mindspore_distribution_exists(without_hook):
    import sporax.compat.hook  # noqa: F401,PLC0415 - its legacy-path finder is on sys.meta_path all the same

    with pytest.raises(importlib.metadata.PackageNotFoundError):
        importlib.metadata.version("mindspore")
