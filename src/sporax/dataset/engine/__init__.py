"""The dataset pipeline engine: lazy nodes, running pipelines, sources, samplers."""
