"""What a user sees stays what it was: every public name recorded in ``fixtures/api_manifest.json``
is still there, of the same kind and signature, and names that were one object still are."""
import json

from tests.compat.api_manifest import MANIFEST, collect, differences


def test_public_api_matches_the_recorded_manifest():
    recorded = json.loads(MANIFEST.read_text())
    changed = differences(recorded, collect())
    assert not changed, ("the public API changed (re-record with `python3 tests/compat/api_manifest.py` "
                         "only for an intended change):\n" + "\n".join(changed[:60]))
