"""Fixtures shared by the dataset tests."""
import pytest

import sporax.dataset as ds
from sporax.dataset.core import config


@pytest.fixture
def seeded():
    """Set a dataset seed for one test (call the fixture with the seed), then restore the unset state."""
    saved = dict(config._state)
    yield ds.config.set_seed
    config._state.clear()
    config._state.update(saved)
