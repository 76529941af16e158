"""Each worker writes the CPU cores it may run on to ``cores_<RANK_ID>`` in argv[1] (no init: no peers needed)."""
import os
import sys

with open(os.path.join(sys.argv[1], f"cores_{os.environ['RANK_ID']}"), "w") as file:
    file.write(",".join(map(str, sorted(os.sched_getaffinity(0)))))
