"""The op table's coverage of ``sporax.ops.functional``, checked: every public function is an op-table entry (or
an alias of one), a program construct named with its reason, or an op listed as not yet migrated
(``sporax.ops.table_coverage``). A new hand-written function fails here until it is declared in the table or listed.
"""
import inspect
import warnings

import sporax.ops.functional as F
from sporax.ops import op_table
from sporax.ops.table_coverage import PROGRAM_CONSTRUCTS, not_yet_entries


def _public_functions():
    return sorted(name for name in F.__all__
                  if callable(getattr(F, name)) and not inspect.isclass(getattr(F, name)))


def test_every_public_function_is_an_entry_or_listed():
    pending = not_yet_entries()
    unaccounted = [name for name in _public_functions()
                   if name not in op_table.TABLE and name not in PROGRAM_CONSTRUCTS and name not in pending]
    assert not unaccounted, (
        f"{len(unaccounted)} public function(s) of sporax.ops.functional are neither op-table entries nor listed in "
        f"sporax/ops/table_coverage.py: {unaccounted}. Declare each with @op (sporax.ops.op_table), or name it in "
        "PROGRAM_CONSTRUCTS with the reason it is not an op of values.")
    # Names migrated since the list was made are not an error (families migrate in parallel): only reported.
    stale = sorted(name for name in pending | set(PROGRAM_CONSTRUCTS) if name in op_table.TABLE)
    if stale:
        warnings.warn(f"table_coverage.py lists {len(stale)} name(s) that are op-table entries now: {stale}")


def test_each_listed_name_is_a_public_function_with_a_reason():
    public = set(_public_functions())
    assert set(PROGRAM_CONSTRUCTS) <= public, sorted(set(PROGRAM_CONSTRUCTS) - public)
    assert all(isinstance(reason, str) and len(reason) > 20 for reason in PROGRAM_CONSTRUCTS.values())
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
