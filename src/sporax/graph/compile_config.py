"""MindSpore's graph-compiler switches (``mindspore._extends.parse.compile_config``).

MindSpore reads module attributes such as ``CHECK_BPROP``, ``RECURSIVE_EVAL`` or ``IF_PARALLEL_CALL``
to steer its own type inference and graph passes; code (MindSpore's own tests among it) sets them
with ``compile_config.NAME = value`` and resets them to ``''`` afterwards.

sporax compiles through JAX/XLA, whose passes none of those switches steer, so this module defines
none of them and sporax reads none: an assignment is kept on the module and has no effect on
results, exactly as a switch that only changes how MindSpore's compiler reaches the same program.

Example:
    >>> from sporax.graph import compile_config
    >>> compile_config.RECURSIVE_EVAL = 1   # accepted; XLA compiles the same program
    >>> compile_config.RECURSIVE_EVAL = ''
"""
