#!/usr/bin/env bash
# Refreshes the README's LeNet5 b32 / ResNet-18 b32 table: sporax GRAPH, hand-written JAX,
# PyTorch eager and MindSpore 2.10 GRAPH, best of 3 interleaved rounds, each contender timed again
# alone (--check-standalone flags a figure that moved more than 2x), the machine and its load
# printed at start and end, model GFLOP/s as a share of the measured peak product.
# About 4-8 minutes on a quiet 2-core machine; run it with nothing else running (the table says
# WARNING when the load average says otherwise).
#
#   TORCH_PYTHON=/tmp/torchvenv/bin/python MINDSPORE_PYTHON=/tmp/ms/bin/python benchmarks/reproduce.sh
#
# Extra arguments go to suite.py (e.g. --mindspore-isa native, --repeat 5).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
TORCH_PYTHON=${TORCH_PYTHON:-/tmp/torchvenv/bin/python}
MINDSPORE_PYTHON=${MINDSPORE_PYTHON:-/tmp/ms/bin/python}
for interpreter in "$TORCH_PYTHON" "$MINDSPORE_PYTHON"; do
    if [ ! -x "$interpreter" ]; then
        echo "reproduce.sh: no interpreter at $interpreter; set TORCH_PYTHON and MINDSPORE_PYTHON to the" \
             "python of venvs with torch and mindspore==2.10.0 (commands in benchmarks/suite.py's docstring)" >&2
        exit 2
    fi
done
exec "$PYTHON" benchmarks/suite.py --only lenet5_b32 --only resnet18_b32 \
    --contender sporax-graph --contender jax --contender torch --contender mindspore-graph \
    --repeat 3 --no-torch-compile --check-standalone \
    --torch-python "$TORCH_PYTHON" --mindspore-python "$MINDSPORE_PYTHON" "$@"
