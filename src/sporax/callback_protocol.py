"""``Callback``: the hooks a training or evaluation loop calls, in plain Python.

It lives outside ``sporax.train`` so that the NumPy-only dataset pipeline can define callbacks
that training calls too (``dataset.WaitedDSCallback``) without importing JAX or the array layers;
``sporax.train`` (``mindspore.train.Callback``) serves this very class.
"""


class Callback:
    """Base class of training and evaluation callbacks; every hook does nothing by default.

    The ``on_train_*`` and ``on_eval_*`` hooks call the older names (``begin``, ``epoch_begin``,
    ``step_begin``, ``step_end``, ``epoch_end``, ``end``), so a callback may override either.

    Example:
        >>> class Print(Callback):
        ...     def on_train_step_end(self, run_context):
        ...         print(run_context.original_args().cur_step_num)
    """

    def __enter__(self):
        return self

    def __exit__(self, *error):
        return False

    def begin(self, run_context):
        """Called once before training or evaluation starts."""

    def epoch_begin(self, run_context):
        """Called before each epoch."""

    def epoch_end(self, run_context):
        """Called after each epoch."""

    def step_begin(self, run_context):
        """Called before each step."""

    def step_end(self, run_context):
        """Called after each step."""

    def end(self, run_context):
        """Called once after training or evaluation ends."""

    def on_train_begin(self, run_context):
        self.begin(run_context)

    def on_train_epoch_begin(self, run_context):
        self.epoch_begin(run_context)

    def on_train_epoch_end(self, run_context):
        self.epoch_end(run_context)

    def on_train_step_begin(self, run_context):
        self.step_begin(run_context)

    def on_train_step_end(self, run_context):
        self.step_end(run_context)

    def on_train_end(self, run_context):
        self.end(run_context)

    def on_eval_begin(self, run_context):
        self.begin(run_context)

    def on_eval_epoch_begin(self, run_context):
        self.epoch_begin(run_context)

    def on_eval_epoch_end(self, run_context):
        self.epoch_end(run_context)

    def on_eval_step_begin(self, run_context):
        self.step_begin(run_context)

    def on_eval_step_end(self, run_context):
        self.step_end(run_context)

    def on_eval_end(self, run_context):
        self.end(run_context)
