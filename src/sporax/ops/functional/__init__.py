"""``mindspore.ops.functional``: the functional ops, by family."""
# --- math, reductions, comparison, logic (owner: ops-math) ---

# --- array, creation, random, nn (owner: ops-array-nn) ---
