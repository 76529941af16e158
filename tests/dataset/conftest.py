"""Fixtures shared by the dataset tests."""
import pytest

import sporax.dataset as ds
from sporax.dataset.core import config


@pytest.fixture(autouse=True)
def unseeded():
    """Every dataset test starts with no dataset seed set, whatever an earlier test in the worker set
    (``ms.set_seed`` sets it too): under a set seed, eager random transforms repeat their draws, as
    MindSpore's do, so a test of their randomness needs the unset state."""
    saved = dict(config._state)
    config._state.update(seed=config._DEFAULT_SEED, seed_set=False)
    yield
    config._state.clear()
    config._state.update(saved)


@pytest.fixture
def seeded():
    """Set a dataset seed for one test (call the fixture with the seed), then restore the unset state."""
    saved = dict(config._state)
    yield ds.config.set_seed
    config._state.clear()
    config._state.update(saved)
