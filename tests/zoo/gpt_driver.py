"""The zoo's GPT train.py flow with a tiny GPTConfig: ``sporax run gpt_driver.py DATA_DIR EPOCHS``.

train.py hard-codes GPT-2 medium (24 layers, 1024 wide, sequences of 1024; no option changes it), far
beyond a CPU test, so this driver makes the same calls in the same order on the zoo's own modules
(src.gpt, src.gpt_wrapcell with its float-status loss scaling, src.dataset on MindRecord,
src.utils.LearningRate) with the zoo directory on PYTHONPATH; only the GPTConfig sizes differ.
"""
import sys

from mindspore import context
from mindspore.train.model import Model
import mindspore.nn as nn
from mindspore.train.callback import LossMonitor
from mindspore.nn.wrap.loss_scale import DynamicLossScaleUpdateCell
from mindspore.parallel._transformer.loss import CrossEntropyLoss
from mindspore.parallel._transformer import TransformerOpParallelConfig
import mindspore.common.dtype as mstype
from mindspore.common import set_seed

from src.dataset import create_dataset
from src.gpt import GPT, GPTWithLoss
from src.gpt_wrapcell import GPTTrainOneStepWithLossScaleCell
from src.utils import GPTConfig, LearningRate

set_seed(12315)
data_path, epochs = sys.argv[1], int(sys.argv[2])
context.set_context(mode=context.GRAPH_MODE, device_target="Ascend", device_id=0)
config = GPTConfig(batch_size=4, seq_length=16, vocab_size=50, embedding_size=32, num_layers=2, num_heads=4,
                   expand_ratio=4, post_layernorm_residual=False, dropout_rate=0.0, compute_dtype=mstype.float16,
                   use_past=False)
gpt = GPT(config)
parallel_config = TransformerOpParallelConfig(data_parallel=1, model_parallel=1)
loss = CrossEntropyLoss(parallel_config.dp_mp_config)
gpt_with_loss = GPTWithLoss(gpt, loss, eos_token=config.vocab_size + 1)
ds = create_dataset(config.batch_size, data_path=data_path, device_num=1, rank=0)
step_per_epoch = ds.get_dataset_size()
lr = LearningRate(learning_rate=3e-3, end_learning_rate=1e-4, warmup_steps=2, decay_steps=epochs * step_per_epoch)
decay_filter = lambda x: 'layernorm' not in x.name.lower() and "bias" not in x.name.lower()
params = gpt.trainable_params()
group_params = [{'params': list(filter(decay_filter, params)), 'weight_decay': 1e-2},
                {'params': [p for p in params if not decay_filter(p)], 'weight_decay': 0.0},
                {'order_params': params}]
optimizer = nn.AdamWeightDecay(group_params, learning_rate=lr)
update_cell = DynamicLossScaleUpdateCell(loss_scale_value=1024, scale_factor=2, scale_window=1000)
gpt_with_grads = GPTTrainOneStepWithLossScaleCell(gpt_with_loss, optimizer=optimizer, scale_update_cell=update_cell)
model = Model(gpt_with_grads)
model.train(epochs, ds, callbacks=[LossMonitor(step_per_epoch)], dataset_sink_mode=True, sink_size=step_per_epoch)
