"""The dataset pipeline engine: lazy nodes, running pipelines, sources, samplers.

Module map (names mirror ``mindspore.dataset.engine``):

* ``datasets`` — ``Dataset`` base with every operation and query; ``sources`` — random-access
  base (samplers, shards, shuffles); ``datasets_user_defined`` / ``datasets_vision`` /
  ``datasets_vision_annotated`` / ``datasets_text`` / ``datasets_standard_format`` — sources.
* ``mapping``, ``operations``, ``batching``, ``splitting``, ``sync`` — operation nodes.
* ``block`` — the unit of work: rows stored column by column (stacked arrays when possible).
* ``runtime`` — per-epoch context, prefetch thread, ordered worker threads, error reporting;
  ``process_pool`` — worker processes with shared-memory results.
* ``iterators`` — TupleIterator / DictIterator; ``samplers``; ``schema``; ``tfrecord``.
"""
