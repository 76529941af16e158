"""MindIR, MindSpore's graph file, both ways (``formats.md`` C): read and run, and write.

``proto`` declares the schema, ``values`` converts tensors and constants, ``reader`` reads files
(encrypted, external weights), ``interpreter`` runs a graph with sporax's Primitives and ``graph``
is what ``load`` returns.
"""
from sporax.io.mindir.graph import MindIRGraph
