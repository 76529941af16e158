"""Several 2-process jobs run in turn by the same two launched processes (tests/parallel/test_launch_jobs.py).

``in_turn.py OUT_DIR JOB...``: each job script of this folder (``NAME.py``, or ``NAME.py,ARG,...`` with
its own arguments) runs as its own ``__main__`` with ``OUT_DIR/NAME`` as its output folder (argv[1]),
in PyNative mode with the default auto-parallel context, as in a fresh process.
Why: each launched process pays the import of sporax and JAX and the set-up of the job's
coordination (about 10 CPU seconds for a 2-process job); jobs that need no process of their own
share them.
"""
import os
import runpy
import sys

import sporax

out_dir, jobs = sys.argv[1], sys.argv[2:]
for job in jobs:
    name, *arguments = job.split(",")
    job_dir = os.path.join(out_dir, os.path.splitext(name)[0])
    os.makedirs(job_dir, exist_ok=True)
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), name)
    sporax.set_context(mode=sporax.PYNATIVE_MODE)
    sporax.reset_auto_parallel_context()
    sys.argv = [script, job_dir, *arguments]
    runpy.run_path(script, run_name="__main__")
