"""``Model``: MindSpore's high-level training, evaluation and prediction API.

The train step (forward, backward and optimizer update) is compiled once into one XLA program
whatever the context mode; with ``dataset_sink_mode=True`` each epoch's ``sink_size`` steps run
as one ``lax.scan`` call over a block of prefetched batches (except under device_target='CPU', where
MindSpore runs every step on its own).

Example:
    >>> import numpy as np, sporax as ms
    >>> from sporax import nn, dataset
    >>> data = dataset.NumpySlicesDataset((np.ones((8, 3), np.float32), np.ones((8, 1), np.float32)),
    ...                                   column_names=["x", "y"]).batch(4)
    >>> net = nn.Dense(3, 1)
    >>> model = ms.Model(net, nn.MSELoss(), nn.Momentum(net.trainable_params(), 0.01, 0.9))
    >>> model.train(1, data)
"""
import time

import numpy as np

from sporax import log
from sporax.core import context
from sporax.core.tensor import Tensor
from sporax.graph.cell_jit import call_compiled
from sporax.graph.sink import BlockFeeder, SinkLoop
from sporax.nn.boost import AutoBoost
from sporax.nn.cell import Cell
from sporax.nn.wrap import TrainOneStepCell, WithEvalCell, WithLossCell
from sporax.parallel import context_view, data_parallel
from sporax.state import parameter_storage
from sporax.train.amp import build_train_network
from sporax.train.callback.base import CallbackList, CallbackParams, RunContext
from sporax.train.metrics import Loss, get_metrics


def _check_epoch(epoch, name):
    if isinstance(epoch, bool) or not isinstance(epoch, int) or epoch <= 0:
        # MindSpore 2.10's first line, then which argument
        raise ValueError(f"The input value must be int and must > 0, but got '{epoch}' with type "
                         f"'{type(epoch).__name__}'.\nFor 'Model.{name}', the argument 'epoch'.")


def _sinks(sink_mode):
    """Whether a dataset_sink_mode=True run sinks: MindSpore 2.10 on CPU trains and evaluates step by step (every
    step reaches the callbacks, cb_params.dataset_sink_mode is False; batch_num stays sink_size when one is given),
    so a script that sets device_target='CPU' gets that; one that asks for GPU or Ascend keeps the sink."""
    return sink_mode and context.requested_device_target() != "CPU"


def _start_step(dataset, initial_step):
    """The global step the training data starts at: the resume point of ``initial_epoch``, else
    the dataset's own ``set_init_step`` (None for an object that is not a sporax dataset)."""
    if not hasattr(dataset, "_resumed_iterator"):
        return None
    return initial_step if initial_step else dataset.get_init_step()


def _training_iterator(dataset, initial_step, num_epochs):
    """The batches of training from ``initial_step`` on: exactly those of an uninterrupted run,
    shuffles and random transforms included (the epochs are numbered from the run's start).

    A step set by the dataset's ``set_init_step`` wins over ``initial_epoch``'s, mid-epoch too (MindSpore
    2.10 step by step: set_init_step(30) on 20 rows with initial_epoch=1 trains 10 + 20 steps); the whole
    epochs it lies past ``initial_epoch`` count towards the epochs this training's iterator delivers (so
    training then runs out of data and raises RuntimeError, as MindSpore's pipeline does)."""
    start = _start_step(dataset, initial_step)
    if start is None:
        return dataset.create_tuple_iterator(num_epochs=num_epochs)
    resume_step = dataset.get_init_step()
    if not resume_step:
        return dataset._resumed_iterator(start, num_epochs)
    size = dataset.get_dataset_size()
    past = max(0, resume_step // size - initial_step // size)
    if num_epochs - past < 1:
        raise RuntimeError(f"For 'Model.train', the dataset's init step {resume_step} lies beyond the {num_epochs} "
                           f"epoch(s) left to train from initial_epoch: the training would fetch data beyond "
                           f"the specified number of epochs. Pass a smaller set_init_step or initial_epoch.")
    return dataset._resumed_iterator(resume_step, num_epochs - past)


def _claim_dataset(dataset, model):
    """Mark ``dataset`` as ``model``'s training data, refusing one another Model trained (or built) on.

    MindSpore 2.10 does the same (its training pipeline belongs to the Model that first ran it): a script
    that reuses a dataset object for a second Model fails there too.
    """
    owner = getattr(dataset, "__model_hash__", None)
    if owner is None:
        dataset.__model_hash__ = hash(model)
    elif owner != hash(model):
        raise RuntimeError("The dataset object had been used in other model by model.train(...), "
                           "please create a new dataset.")


class Model:
    """High-level training and evaluation of a network.

    Args:
        network (Cell): the network (or a train network already holding loss and optimizer).
        loss_fn (Cell): the loss. Default: None.
        optimizer (Optimizer): the optimizer. Default: None.
        metrics (Union[dict, set]): metrics for ``eval``: names ('accuracy', 'loss' ...) or Metric objects.
        eval_network (Cell): a network returning ``(loss, outputs, label)`` for evaluation.
        eval_indexes (list): positions of loss, outputs and label in the eval network's result.
        amp_level (str): mixed precision level; 'O0' (float32).
        boost_level (str): 'O0', or 'O1'/'O2': ``mindspore.boost``'s ``AutoBoost`` (a process-wide setting fixed
            by the first Model) rebuilds the network and optimizer (LessBN, gradient freezing) when an
            optimizer and an evaluation (``metrics`` or ``eval_network``) are given.
    """

    def __init__(self, network, loss_fn=None, optimizer=None, metrics=None, eval_network=None,
                 eval_indexes=None, amp_level="O0", boost_level="O0", **kwargs):
        if not isinstance(network, Cell):
            raise TypeError(f"For 'Model', network must be a Cell, got {type(network).__name__}.")
        if amp_level not in ("O0", "O1", "O2", "O3", "auto"):
            raise ValueError(f"For 'Model', amp_level must be 'O0', 'O1', 'O2', 'O3' or 'auto', got {amp_level!r}.")
        if eval_indexes is not None and (not isinstance(eval_indexes, list) or len(eval_indexes) != 3):
            raise ValueError("For 'Model', eval_indexes must be a list of 3 ints: the positions of loss, "
                             "outputs and label in the eval network's result.")
        if optimizer is None and amp_level != "O0":
            raise ValueError("Auto mixed precision will not work because 'optimizer' is None. Please set "
                             "amp_level='O0' to disable auto mixed precision or set 'optimizer' not be None to use "
                             "auto mixed precision.")
        if optimizer is None and kwargs.get("loss_scale_manager") is not None:
            raise ValueError("The argument 'optimizer' can not be None when set 'loss_scale_manager'.")
        self._network = network
        self._loss_fn = loss_fn
        self._optimizer = optimizer
        self._loss_scale_manager = kwargs.get("loss_scale_manager")
        # An explicit loss_scale_manager=None turns the level's default scaling off (O2: no dynamic manager).
        self._loss_scale_manager_given = "loss_scale_manager" in kwargs
        self._keep_bn_fp32 = kwargs.get("keep_batchnorm_fp32")
        self._amp_level = amp_level
        self._boost_level = kwargs.get("acc_level", boost_level)
        eval_network = self._build_boost_network(kwargs.get("boost_config_dict", ""), eval_network, metrics)
        self._metric_fns = get_metrics(metrics)
        self._train_network = self._build_train_network()
        self._eval_network, self._eval_indexes = self._build_eval_network(eval_network, eval_indexes)
        self._predict_network = self._network
        self._sink_loops = {}
        # Which mode Model last put the backbone in. As in MindSpore, a training step switches it back
        # to training when an evaluation or prediction (a callback calling model.eval mid-epoch) left it
        # in inference mode; a set_train(False) the user makes directly is not undone.
        self._backbone_is_train = True

    # --- networks ---------------------------------------------------------------------------
    def _build_boost_network(self, boost_config_dict, eval_network, metrics):
        """Apply AutoBoost's functions to the network and optimizer, as MindSpore; returns ``eval_network``
        with them applied."""
        processor = AutoBoost(self._boost_level, boost_config_dict)
        if processor.level not in ("O1", "O2"):
            return eval_network
        if self._optimizer is None:
            log.warning("In boost mode, the optimizer must be defined.")
        elif eval_network is None and metrics is None:
            log.warning("In boost mode, the eval_network and metrics cannot be undefined at the same time.")
        else:
            self._network, self._optimizer = processor.network_auto_process_train(self._network, self._optimizer)
            if eval_network is not None:
                eval_network = processor.network_auto_process_eval(eval_network)
        return eval_network

    def _build_train_network(self):
        network = self._network
        if self._optimizer is None:
            return network if self._loss_fn is None else WithLossCell(network, self._loss_fn)
        if self._amp_level != "O0" or self._loss_scale_manager is not None or self._boost_level != "O0":
            options = {"keep_batchnorm_fp32": self._keep_bn_fp32}
            if self._loss_scale_manager_given:  # unset: the level's default manager
                options["loss_scale_manager"] = self._loss_scale_manager
            return build_train_network(network, self._optimizer, self._loss_fn, level=self._amp_level,
                                       boost_level=self._boost_level, **options)
        if self._loss_fn is not None:
            network = WithLossCell(network, self._loss_fn)
        return TrainOneStepCell(network, self._optimizer)

    def _build_eval_network(self, eval_network, eval_indexes):
        if eval_network is not None:
            if eval_indexes is None and self._metric_fns:
                return eval_network, None
            return eval_network, eval_indexes
        if self._metric_fns is None:
            return None, None
        if self._loss_fn is None:
            raise ValueError("If `metrics` is set, `eval_network` must not be None. Do not set `metrics` if you "
                             "don't want an evaluation.\nFor 'Model', pass loss_fn (Model builds the evaluation "
                             "network from network and loss_fn) or eval_network.")
        return WithEvalCell(self._network, self._loss_fn, self._amp_level in ("O2", "O3", "auto")), [0, 1, 2]

    @property
    def train_network(self):
        """The network ``train`` runs (loss and optimizer included)."""
        return self._train_network

    @property
    def predict_network(self):
        return self._predict_network

    @property
    def eval_network(self):
        return self._eval_network

    # --- training ---------------------------------------------------------------------------
    def _params(self, epoch, dataset, callbacks, sink_mode, steps_per_epoch):
        return CallbackParams(
            train_network=self._train_network, network=self._network, epoch_num=epoch,
            batch_num=steps_per_epoch, cur_step_num=0, initial_step=0, dataset_sink_mode=sink_mode,
            train_dataset=dataset, optimizer=self._optimizer, loss_fn=self._loss_fn,
            parallel_mode=context.get_auto_parallel_context("parallel_mode"),
            device_number=context_view._get_device_num(),
            list_callback=callbacks, mode="train",
            loss_scale_mananger=self._loss_scale_manager, last_save_ckpt_step=0, latest_ckpt_file=None,
            train_dataset_element=None)

    def train(self, epoch, train_dataset, callbacks=None, dataset_sink_mode=False, sink_size=-1,
              initial_epoch=0):
        """Train for ``epoch`` epochs (from ``initial_epoch``) over ``train_dataset``.

        Args:
            epoch (int): the total number of epochs.
            train_dataset (Dataset): yields ``(data, label)`` batches (or the train network's inputs).
            callbacks (Union[Callback, list[Callback]]): called at each step and epoch.
            dataset_sink_mode (bool): run each epoch's steps in one device call.
            sink_size (int): steps per epoch in sink mode; -1 means the dataset's size.
            initial_epoch (int): resume at this epoch. The data continue exactly where a run that
                never stopped would be at that epoch (its rows, shuffled order, random transforms and
                shard), so resuming from that epoch's checkpoint trains bit-identically.
        """
        self._run_train(epoch, train_dataset, callbacks, dataset_sink_mode, sink_size, initial_epoch)

    def _run_train(self, epoch, dataset, callbacks, sink_mode, sink_size, initial_epoch,
                   valid_dataset=None, valid_frequency=1, valid_sink_mode=False):
        _check_epoch(epoch, "train")
        if self._optimizer is None and self._loss_fn is not None:
            raise ValueError("For 'Model.train', an optimizer is needed to train: Model(network, loss_fn, optimizer).")
        if not isinstance(initial_epoch, int) or not 0 <= initial_epoch < epoch:
            raise ValueError(f"For 'Model.train', initial_epoch must be in [0, epoch), got {initial_epoch!r}.")
        if isinstance(sink_size, bool) or not isinstance(sink_size, int) or sink_size == 0 or sink_size < -1:
            raise ValueError(f"For 'Model.train', sink_size must be -1 or an int > 0, got {sink_size!r}.")
        dataset_size = dataset.get_dataset_size()
        if dataset_size == 0:
            raise ValueError("For 'Model.train', the train dataset is empty.")
        steps_per_epoch = sink_size if sink_mode and sink_size > 0 else dataset_size
        sink_mode = _sinks(sink_mode)
        _claim_dataset(dataset, self)
        callback = CallbackList(callbacks)
        params = self._params(epoch, dataset, callback.callbacks, sink_mode, steps_per_epoch)
        # As MindSpore, the callbacks count the steps and epochs of this call (a resumed run's cur_step_num
        # starts at 0, epoch_num is epoch - initial_epoch); the data resume at the first step of initial_epoch.
        params.epoch_num = epoch - initial_epoch
        start_step = initial_epoch * (steps_per_epoch if sink_mode else dataset_size)
        run_context = RunContext(params)
        if data_parallel.parameter_broadcast_enabled():
            data_parallel.broadcast_parameters(self._train_network.get_parameters())
        self._set_backbone_mode(self._train_network, True)
        with callback:
            callback.on_train_begin(run_context)
            if sink_mode:
                self._train_sink(epoch, initial_epoch, start_step, dataset, steps_per_epoch, callback, run_context,
                                 valid_dataset, valid_frequency, valid_sink_mode)
            else:
                self._train_steps(epoch, initial_epoch, start_step, dataset, callback, run_context, valid_dataset,
                                  valid_frequency, valid_sink_mode)
            callback.on_train_end(run_context)

    def _end_epoch(self, epoch_number, callback, run_context, valid_dataset, valid_frequency, valid_sink_mode):
        params = run_context.original_args()
        # As MindSpore: an int evaluates every that many epochs (the last epoch is not forced), a list at
        # the epochs it names; the results reach only this epoch's callbacks.
        due = (epoch_number % valid_frequency == 0 if isinstance(valid_frequency, int)
               else epoch_number in valid_frequency)
        if valid_dataset is not None and due:
            results = self._evaluate(valid_dataset, None, valid_sink_mode)
            params.metrics = results
            params.eval_results = results
            self._set_backbone_mode(self._train_network, True)
        callback.on_train_epoch_end(run_context)
        params.pop("metrics", None)
        params.pop("eval_results", None)

    def _train_steps(self, epoch, initial_epoch, start_step, dataset, callback, run_context, valid_dataset,
                     valid_frequency, valid_sink_mode):
        params = run_context.original_args()
        iterator = _training_iterator(dataset, start_step, epoch - initial_epoch)
        network = self._train_network
        for epoch_number in range(initial_epoch + 1, epoch + 1):
            params.cur_epoch_num = epoch_number
            callback.on_train_epoch_begin(run_context)
            for batch in iterator:
                params.cur_step_num += 1
                params.train_dataset_element = batch
                callback.on_train_step_begin(run_context)
                if not self._backbone_is_train:
                    self._set_backbone_mode(network, True)
                params.net_outputs = call_compiled(network, tuple(batch), {})
                callback.on_train_step_end(run_context)
                if run_context.get_stop_requested():
                    break
            self._end_epoch(epoch_number, callback, run_context, valid_dataset, valid_frequency, valid_sink_mode)
            if run_context.get_stop_requested():
                break

    def _train_sink(self, epoch, initial_epoch, start_step, dataset, steps_per_epoch, callback, run_context,
                    valid_dataset, valid_frequency, valid_sink_mode):
        params = run_context.original_args()
        loop = self._sink_loop(self._train_network)
        feeder = BlockFeeder(dataset, steps_per_epoch, blocks=epoch - initial_epoch,
                             start_step=_start_step(dataset, start_step))
        try:
            for epoch_number in range(initial_epoch + 1, epoch + 1):
                params.cur_epoch_num = epoch_number
                callback.on_train_epoch_begin(run_context)
                block = feeder.next_block()
                callback.on_train_step_begin(run_context)
                if not self._backbone_is_train:
                    self._set_backbone_mode(self._train_network, True)
                params.net_outputs = loop(block)
                params.cur_step_num += steps_per_epoch
                callback.on_train_step_end(run_context)
                self._end_epoch(epoch_number, callback, run_context, valid_dataset, valid_frequency,
                                valid_sink_mode)
                if run_context.get_stop_requested():
                    break
        finally:
            feeder.close()

    def _set_backbone_mode(self, network, training):
        network.set_train(training)
        self._backbone_is_train = training

    def _sink_loop(self, network):
        loop = self._sink_loops.get(id(network))
        if loop is None:
            loop = self._sink_loops[id(network)] = SinkLoop(network)
        return loop

    def fit(self, epoch, train_dataset, valid_dataset=None, valid_frequency=1, callbacks=None,
            dataset_sink_mode=False, valid_dataset_sink_mode=False, sink_size=-1, initial_epoch=0):
        """Train, and evaluate on ``valid_dataset`` every ``valid_frequency`` epochs (an int) or at the
        epochs a list of ints names.

        The evaluation results reach callbacks as ``cb_params.metrics`` / ``eval_results``
        (LossMonitor prints them; EarlyStopping and ReduceLROnPlateau monitor ``eval_<name>``).
        """
        if valid_dataset is not None and not self._metric_fns:
            raise ValueError("For 'Model.fit', evaluating valid_dataset needs metrics: Model(..., metrics={...}).")
        if isinstance(valid_frequency, bool) or not isinstance(valid_frequency, (int, list)):
            raise TypeError(f"For 'Model.fit', the type of 'valid_frequency' must be a list or an integer, but got "
                            f"type {type(valid_frequency)}.")
        if isinstance(valid_frequency, int) and valid_frequency <= 0:
            raise ValueError(f"For 'Model.fit', valid_frequency must be an int > 0 (evaluate every that many "
                             f"epochs) or a list of epochs, got {valid_frequency!r}.")
        self._run_train(epoch, train_dataset, callbacks, dataset_sink_mode, sink_size, initial_epoch,
                        valid_dataset, valid_frequency, valid_dataset_sink_mode)

    # --- evaluation and prediction ----------------------------------------------------------
    def eval(self, valid_dataset, callbacks=None, dataset_sink_mode=False):
        """Evaluate the metrics over ``valid_dataset``; returns ``{name: value}``."""
        return self._evaluate(valid_dataset, callbacks, dataset_sink_mode)

    def _evaluate(self, dataset, callbacks, sink_mode):
        if not self._metric_fns:
            raise ValueError("For Model.eval, the model argument 'metrics' can not be None or empty, you should set "
                             "the argument 'metrics' for model.")
        network = self._eval_network
        self._set_backbone_mode(network, False)
        callback = CallbackList(callbacks)
        # as MindSpore: cb_params.network is the network given to Model, mode names the phase
        params = CallbackParams(eval_network=network, network=self._network, valid_dataset=dataset,
                                batch_num=dataset.get_dataset_size(), cur_step_num=0,
                                dataset_sink_mode=_sinks(sink_mode), list_callback=callback.callbacks,
                                mode="eval")
        run_context = RunContext(params)
        for metric in self._metric_fns.values():
            metric.clear()
        with callback:
            callback.on_eval_begin(run_context)
            callback.on_eval_epoch_begin(run_context)
            for batch in dataset.create_tuple_iterator(num_epochs=1):
                params.cur_step_num += 1
                callback.on_eval_step_begin(run_context)
                outputs = call_compiled(network, tuple(batch), {})
                params.net_outputs = outputs
                self._update_metrics(outputs)
                callback.on_eval_step_end(run_context)
                if run_context.get_stop_requested():
                    break
            callback.on_eval_epoch_end(run_context)
            results = {name: metric.eval() for name, metric in self._metric_fns.items()}
            params.metrics = results
            callback.on_eval_end(run_context)
        return results

    def _update_metrics(self, outputs):
        if not isinstance(outputs, tuple):
            outputs = (outputs,)
        indexes = self._eval_indexes
        if indexes is not None and len(outputs) < 3:
            raise ValueError("For 'Model.eval', the eval network must return (loss, outputs, label) when "
                             f"eval_indexes is set, but it returned {len(outputs)} values.")
        for metric in self._metric_fns.values():
            if indexes is None:
                metric.update(*outputs)
            elif isinstance(metric, Loss):
                metric.update(outputs[indexes[0]])
            else:
                metric.update(outputs[indexes[1]], outputs[indexes[2]])

    def predict(self, *predict_data, backend=None, config=None):
        """Run the network on ``predict_data`` in inference mode; returns its outputs."""
        for value in predict_data:
            if not isinstance(value, (Tensor, int, float, bool, tuple, list)) and value is not None:
                raise TypeError(f"For 'Model.predict', inputs must be Tensors, got {type(value).__name__}.")
        self._set_backbone_mode(self._predict_network, False)
        return call_compiled(self._predict_network, predict_data, {})

    def build(self, train_dataset=None, valid_dataset=None, sink_size=-1, epoch=1, sink_mode=True):
        """Compile the train (and eval) programs ahead of training, on one batch of each dataset."""
        started = time.perf_counter()
        if train_dataset is not None:
            train_dataset.__model_hash__ = hash(self)  # MindSpore's build takes the dataset over unchecked
            batch = next(iter(train_dataset.create_tuple_iterator(num_epochs=1, output_numpy=True)))
            if sink_mode:
                size = sink_size if sink_size > 0 else train_dataset.get_dataset_size()

                block = [np.stack([column] * size) for column in batch]
                saved = [p._value for _, p in self._train_network.parameters_and_names()]
                self._sink_loop(self._train_network)(block)
                for (_, parameter), value in zip(self._train_network.parameters_and_names(), saved):
                    parameter_storage.update(parameter, value)  # build leaves the values as they were
        if valid_dataset is not None and self._eval_network is not None:
            self._eval_network.set_train(False)
            batch = next(iter(valid_dataset.create_tuple_iterator(num_epochs=1)))
            call_compiled(self._eval_network, tuple(batch), {})
        return time.perf_counter() - started

    def infer_train_layout(self, *args, **kwargs):
        raise NotImplementedError("Model.infer_train_layout: sporax has no distributed layouts yet.")

    def infer_predict_layout(self, *args, **kwargs):
        raise NotImplementedError("Model.infer_predict_layout: sporax has no distributed layouts yet.")
