"""State lifting (DESIGN section 2): the only bridge between mutable Parameters and pure JAX.

Modules: ``lifting`` (the one lift into any transform, and the write-back rule), ``scope`` (which
traces are active, ``is_tracing``), ``binding`` (bind/read back/restore, under ``lift``),
``discovery`` (which Parameters a call may touch), ``guards`` (the leak guard), ``arguments``
(static signature and traced arrays of a call), ``program`` (a stateful function compiled once
per signature, with donation and write-back), ``fallback`` (untraceable Python: warned eager
fallback; run-time ``print``), ``reuse`` (sharing compiled wrappers across equivalent function
objects), ``assign`` (the store used by ``ops.assign``), ``scan`` (the sink loop's core),
``conditional`` (Parameter writes under a condition and through converted control flow), ``views`` and
``traced_views`` (Tensors sharing storage: eager links, and writes through views in traced code).
"""
from sporax.state.arguments import MutableMarker, rebuild, signature, skeleton
from sporax.state.binding import Bound, bind_values, detach_outputs, read_values
from sporax.state.discovery import (Discovered, DiscoveryCache, discover, is_cell, is_parameter, rng_state,
                                    structure_changed, structure_version)
from sporax.state.fallback import (EagerFallbackWarning, TracedPrintError, UntraceableError, is_untraceable,
                                   runtime_print, warn_fallback)
from sporax.state.lifting import Lift, lift
from sporax.state.guards import StateLeakError, check_store, remember
from sporax.state.program import MissingStates, Program, build_program, record_states, require_owned
from sporax.state.scope import current_scope, is_tracing, owned_by_active_scope
