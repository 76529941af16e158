"""Values a differentiated function reaches without returning them: a send's gradient that comes from its peer.

MindSpore's autodiff follows every operation the function ran, so ``isend``'s backward (receiving the
gradient of the sent tensor from the peer) and ``irecv``'s (sending the received tensor's gradient back)
run although ``isend`` returns only a handle and the received tensor may not reach the loss. JAX
differentiates what the output depends on, so ``grad``/``value_and_grad`` open a frame while the
function runs:

    * ``anchor()``: a zero ``(1,)`` float32 value made from every value being differentiated (the chosen
      inputs and weights) and from the exchange attached before, so that an exchange with nothing of its
      own to differentiate (a receive) has its backward run, and the exchanges run in one order;
    * ``attach(marker)``: a point-to-point exchange's marker (its backward's entry), which ``tie`` adds,
      times zero, to the function's output, so that automatic differentiation runs that backward.

Outside a frame (no gradient is being taken) ``anchor()`` is None and ``attach`` returns False.

Example:
    >>> from sporax.autodiff import gradient_sinks
    >>> gradient_sinks.anchor() is None
    True
"""
import contextlib
import threading

import jax
import jax.numpy as jnp


class _Frames(threading.local):
    def __init__(self):
        super().__init__()
        self.stack = []


_frames = _Frames()


class _Frame:
    def __init__(self, primals):
        self.primals = primals
        self.markers = []
        self.seen = {}

    @property
    def anchor(self):
        # Made on first use only: most differentiated functions exchange nothing.
        pieces = [value.reshape(-1)[:1].astype(jnp.float32) for value in self.primals
                  if hasattr(value, "dtype") and jnp.issubdtype(value.dtype, jnp.inexact) and value.size]
        return jnp.concatenate(pieces).sum(keepdims=True) * 0 if pieces else None


@contextlib.contextmanager
def differentiating(primals):
    """While inside, the frame of a function being differentiated with respect to ``primals`` (arrays)."""
    frame = _Frame(jax.tree_util.tree_leaves(primals))
    _frames.stack.append(frame)
    try:
        yield frame
    finally:
        _frames.stack.pop()


def active():
    """Whether a gradient is being taken now (a frame is open)."""
    return bool(_frames.stack)


def anchor():
    """The innermost frame's anchor (see the module), made after the exchange attached last; None outside a frame.

    Chaining each exchange after the previous one by data gives every process's program one order of its
    collectives (and, through the exchanges' backwards, of their reverse exchanges): two processes whose
    programs ran independent exchanges in different orders would wait for each other.
    """
    if not _frames.stack:
        return None
    frame = _frames.stack[-1]
    made = frame.anchor
    if not frame.markers:
        return made
    # nan_to_num: a marker holds received data, and an inf times zero would be a NaN added to a message.
    chain = jnp.nan_to_num(jnp.asarray(frame.markers[-1], jnp.float32).reshape(-1)[:1]) * 0
    return chain if made is None else made + chain


def attach(marker):
    """Keep ``marker`` on the output's path in the innermost frame; False when no gradient is being taken."""
    if not _frames.stack:
        return False
    _frames.stack[-1].markers.append(marker)
    return True


def occurrence(key):
    """How many times the innermost frame was asked about ``key`` before (0 the first time); None outside a frame.
    Numbers repeated messages of one peer and tag, so that the n-th send pairs with the peer's n-th receive."""
    if not _frames.stack:
        return None
    seen = _frames.stack[-1].seen
    seen[key] = seen.get(key, 0) + 1
    return seen[key] - 1


def tie(frame, leaves):
    """``leaves`` (the differentiated outputs) with the frame's markers added, times zero, to the first inexact one."""
    if not frame.markers:
        return leaves
    for index, leaf in enumerate(leaves):
        if jnp.issubdtype(leaf.dtype, jnp.inexact):
            # nan_to_num: a marker holds received data, and an inf times zero would be a NaN.
            total = sum(jnp.nan_to_num(jnp.asarray(marker, jnp.float32)).sum() for marker in frame.markers)
            return leaves[:index] + [leaf + (total * 0).astype(leaf.dtype)] + leaves[index + 1:]
    return leaves
