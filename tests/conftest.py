"""Test-session settings shared by every test folder."""
import os

# sporax caches compiled programs under ~/.cache by default; the test suite must not write
# into the user's home, so it runs without the persistent cache unless one is chosen here.
os.environ.setdefault("SPORAX_COMPILATION_CACHE_DIR", "off")


import pytest


@pytest.fixture(autouse=True, scope="module")
def starts_in_pynative_mode():
    """Each test file starts in PyNative mode, as a fresh process does: under xdist a worker runs many files,
    and one that leaves GRAPH_MODE set must not decide the mode of the next (``test_context``'s defaults
    failed so, depending on which files its worker ran before it). No device target is requested either: one
    file's set_context(device_target='CPU') must not turn the next file's data sink off."""
    import sporax
    from sporax.core import context

    sporax.set_context(mode=sporax.PYNATIVE_MODE)
    context._requested["device_target"] = None
    yield
