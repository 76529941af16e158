"""The op table's coverage of ``sporax.ops.functional``, checked: every public function is an op-table entry (or
an alias of one), a program construct named with its reason, or an op listed as not yet migrated
(``sporax.ops.table_coverage``). A new hand-written function fails here until it is declared in the table or listed.
"""
import inspect

import sporax.ops.functional as F
from sporax.ops import op_table
from sporax.ops.table_coverage import NOT_YET_ENTRIES, OTHER_SPELLINGS, PROGRAM_CONSTRUCTS, not_yet_entries


def _public_functions():
    return sorted(name for name in F.__all__
                  if callable(getattr(F, name)) and not inspect.isclass(getattr(F, name)))


def test_every_public_function_is_an_entry_or_listed():
    listed = not_yet_entries() | set(PROGRAM_CONSTRUCTS) | set(OTHER_SPELLINGS)
    unaccounted = [name for name in _public_functions() if name not in op_table.TABLE and name not in listed]
    assert not unaccounted, (
        f"{len(unaccounted)} public function(s) of sporax.ops.functional are neither op-table entries nor listed in "
        f"sporax/ops/table_coverage.py: {unaccounted}. Declare each with @op (sporax.ops.op_table), or name it in "
        "PROGRAM_CONSTRUCTS with the reason it is not an op of values.")
    stale = sorted(name for name in listed if name in op_table.TABLE)
    assert not stale, f"table_coverage.py lists names that are op-table entries now: {stale}; remove them there"


def test_other_spellings_call_an_entry():
    for name, entry in OTHER_SPELLINGS.items():
        assert entry in op_table.TABLE, f"{name} is listed as a spelling of {entry!r}, which is not an entry"
    lists = (set(PROGRAM_CONSTRUCTS), set(OTHER_SPELLINGS), set(NOT_YET_ENTRIES))
    assert all(not first & second for index, first in enumerate(lists) for second in lists[index + 1:])


def test_each_listed_name_is_a_public_function_with_a_reason():
    public = set(_public_functions())
    assert set(PROGRAM_CONSTRUCTS) <= public, sorted(set(PROGRAM_CONSTRUCTS) - public)
    assert all(isinstance(reason, str) and len(reason) > 20
               for reason in list(PROGRAM_CONSTRUCTS.values()) + list(NOT_YET_ENTRIES.values()))
    assert not set(PROGRAM_CONSTRUCTS) & not_yet_entries()


def test_a_function_in_neither_is_reported():
    def hand_written(x):
        return x

    F.__all__.append("hand_written")
    F.hand_written = hand_written
    try:
        try:
            test_every_public_function_is_an_entry_or_listed()
        except AssertionError as error:
            assert "hand_written" in str(error)
        else:
            raise AssertionError("a public function in neither the table nor the lists was not reported")
    finally:
        F.__all__.remove("hand_written")
        del F.hand_written
