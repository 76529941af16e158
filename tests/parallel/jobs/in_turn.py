"""Several 2-process jobs run in turn by the same two launched processes (tests/parallel/test_launch_jobs.py).

``in_turn.py OUT_DIR JOB...``: each job script of this folder runs as its own ``__main__`` with
``OUT_DIR/<job name>`` as its output folder (argv[1]); every rank writes there what the job writes.
Why: each launched process pays the import of sporax and JAX and the set-up of the job's
coordination (about 10 CPU seconds for a 2-process job); jobs that need no process of their own
share them. Each job sets the context it needs (mode, auto-parallel context) itself.
"""
import os
import runpy
import sys

out_dir, jobs = sys.argv[1], sys.argv[2:]
for job in jobs:
    job_dir = os.path.join(out_dir, os.path.splitext(job)[0])
    os.makedirs(job_dir, exist_ok=True)
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), job)
    sys.argv = [script, job_dir]
    runpy.run_path(script, run_name="__main__")
