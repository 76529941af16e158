"""The GPU benchmark's larger workloads, written once in MindSpore's API and once in PyTorch's.

ResNet-50 is torchvision's/MindSpore model zoo's ImageNet network (bottleneck blocks, 224x224,
1000 classes); GPT-2 small is the 124M-parameter decoder (12 layers, 12 heads, 768 wide, 1024
tokens, vocabulary 50257, tanh GELU, pre-norm, untied head). The attention is spelled out
(product, mask, softmax, product) in both frameworks, as a MindSpore model script writes it, so
both run the same math. The CIFAR ResNet-18 comes from ``suite_models``.

Like ``suite_models``, this module imports no framework at import time.
"""
import numpy as np

# name: (model, batch, dtype): the dtype is what the step computes in ("bfloat16": mixed
# precision, float32 master weights, where a MindSpore script asks for float16 AMP).
# In order of importance: a run with --budget drops the last first.
WORKLOADS = {
    "resnet18_b64": ("resnet18", 64, "float32"), "resnet50_b64_bf16": ("resnet50", 64, "bfloat16"),
    "gpt2_b8_bf16": ("gpt2", 8, "bfloat16"), "resnet50_b64": ("resnet50", 64, "float32"),
    "resnet18_b64_bf16": ("resnet18", 64, "bfloat16"),
}
GPT2 = {"vocab": 50257, "seq": 1024, "width": 768, "heads": 12, "layers": 12}


def data(model, batch, seed=0, small=False):
    """(inputs, labels) as NumPy arrays. ``small`` shrinks images and sequences for a CPU check."""
    rng = np.random.default_rng(seed)
    if model == "resnet50":
        side = 64 if small else 224
        return rng.standard_normal((batch, 3, side, side)).astype(np.float32), rng.integers(0, 1000, batch).astype(np.int32)
    if model == "gpt2":
        sizes = _gpt2_sizes(small)
        tokens = rng.integers(0, sizes["vocab"], (batch, sizes["seq"] + 1)).astype(np.int32)
        return tokens[:, :-1], tokens[:, 1:]
    raise KeyError(model)


def _gpt2_sizes(small):
    sizes = dict(GPT2)
    if small:
        sizes.update(seq=32, layers=2, vocab=1000)
    return sizes


# --- MindSpore API (sporax) ----------------------------------------------------------------------
def ms_network(ms, model, small=False):
    nn, ops = ms.nn, ms.ops
    if model == "resnet50":
        def conv_bn(cin, cout, k, stride=1):
            return [nn.Conv2d(cin, cout, k, stride, pad_mode="pad", padding=k // 2), nn.BatchNorm2d(cout)]

        class Bottleneck(nn.Cell):
            def __init__(self, cin, width, stride):
                super().__init__()
                cout = width * 4
                self.body = nn.SequentialCell(conv_bn(cin, width, 1) + [nn.ReLU()] + conv_bn(width, width, 3, stride)
                                              + [nn.ReLU()] + conv_bn(width, cout, 1))
                self.short = nn.SequentialCell(conv_bn(cin, cout, 1, stride)) if stride != 1 or cin != cout else None
                self.relu = nn.ReLU()

            def construct(self, x):
                return self.relu(self.body(x) + (x if self.short is None else self.short(x)))

        class ResNet50(nn.Cell):
            def __init__(self):
                super().__init__()
                layers = conv_bn(3, 64, 7, 2) + [nn.ReLU(), nn.MaxPool2d(3, 2, pad_mode="same")]
                cin = 64
                for width, count, stride in ((64, 3, 1), (128, 4, 2), (256, 6, 2), (512, 3, 2)):
                    for index in range(count):
                        layers.append(Bottleneck(cin, width, stride if index == 0 else 1))
                        cin = width * 4
                self.features = nn.SequentialCell(layers)
                self.fc = nn.Dense(2048, 1000)

            def construct(self, x):
                return self.fc(ops.mean(self.features(x), (2, 3)))
        return ResNet50()
    if model == "gpt2":
        sizes = _gpt2_sizes(small)
        width, heads, seq, vocab = sizes["width"], sizes["heads"], sizes["seq"], sizes["vocab"]
        causal = np.triu(np.full((seq, seq), -1e9, np.float32), 1)

        class Attention(nn.Cell):
            def __init__(self):
                super().__init__()
                self.qkv, self.proj = nn.Dense(width, 3 * width), nn.Dense(width, width)
                self.mask = ms.Tensor(causal)
                self.scale = 1.0 / float(np.sqrt(width // heads))

            def construct(self, x):
                batch, length, _ = x.shape
                q, k, v = ops.split(self.qkv(x), width, axis=-1)
                q, k, v = (t.reshape(batch, length, heads, width // heads).transpose(0, 2, 1, 3) for t in (q, k, v))
                scores = ops.matmul(q, k.swapaxes(-1, -2)) * self.scale + self.mask.astype(q.dtype)
                out = ops.matmul(ops.softmax(scores, axis=-1), v)
                return self.proj(out.transpose(0, 2, 1, 3).reshape(batch, length, width))

        class Block(nn.Cell):
            def __init__(self):
                super().__init__()
                self.norm1, self.norm2 = nn.LayerNorm((width,), epsilon=1e-5), nn.LayerNorm((width,), epsilon=1e-5)
                self.attention = Attention()
                self.mlp = nn.SequentialCell([nn.Dense(width, 4 * width), nn.GELU(approximate=True),
                                              nn.Dense(4 * width, width)])

            def construct(self, x):
                x = x + self.attention(self.norm1(x))
                return x + self.mlp(self.norm2(x))

        class GPT2(nn.Cell):
            def __init__(self):
                super().__init__()
                self.embed, self.position = nn.Embedding(vocab, width), nn.Embedding(seq, width)
                self.blocks = nn.SequentialCell([Block() for _ in range(sizes["layers"])])
                self.norm = nn.LayerNorm((width,), epsilon=1e-5)
                self.head = nn.Dense(width, vocab, has_bias=False)
                self.positions = ms.Tensor(np.arange(seq, dtype=np.int32)[None])

            def construct(self, tokens):
                h = self.blocks(self.embed(tokens) + self.position(self.positions))
                return self.head(self.norm(h)).reshape(-1, vocab)
        return GPT2()
    raise KeyError(model)


# --- PyTorch -------------------------------------------------------------------------------------
def torch_network(torch, model, small=False):
    nn = torch.nn
    if model == "resnet50":
        def conv_bn(cin, cout, k, stride=1):
            return [nn.Conv2d(cin, cout, k, stride, k // 2, bias=False), nn.BatchNorm2d(cout)]

        class Bottleneck(nn.Module):
            def __init__(self, cin, width, stride):
                super().__init__()
                cout = width * 4
                self.body = nn.Sequential(*conv_bn(cin, width, 1), nn.ReLU(), *conv_bn(width, width, 3, stride),
                                          nn.ReLU(), *conv_bn(width, cout, 1))
                self.short = nn.Sequential(*conv_bn(cin, cout, 1, stride)) if stride != 1 or cin != cout else None

            def forward(self, x):
                return torch.relu(self.body(x) + (x if self.short is None else self.short(x)))
        layers, cin = conv_bn(3, 64, 7, 2) + [nn.ReLU(), nn.MaxPool2d(3, 2, 1)], 64
        for width, count, stride in ((64, 3, 1), (128, 4, 2), (256, 6, 2), (512, 3, 2)):
            for index in range(count):
                layers.append(Bottleneck(cin, width, stride if index == 0 else 1))
                cin = width * 4
        return nn.Sequential(*layers, nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(2048, 1000))
    if model == "gpt2":
        sizes = _gpt2_sizes(small)
        width, heads, seq, vocab = sizes["width"], sizes["heads"], sizes["seq"], sizes["vocab"]

        class Attention(nn.Module):
            def __init__(self):
                super().__init__()
                self.qkv, self.proj = nn.Linear(width, 3 * width), nn.Linear(width, width)
                self.register_buffer("mask", torch.triu(torch.full((seq, seq), -1e9), 1))
                self.scale = 1.0 / float(np.sqrt(width // heads))

            def forward(self, x):
                batch, length, _ = x.shape
                q, k, v = self.qkv(x).split(width, dim=-1)
                q, k, v = (t.reshape(batch, length, heads, width // heads).transpose(1, 2) for t in (q, k, v))
                scores = q @ k.transpose(-1, -2) * self.scale + self.mask.to(q.dtype)
                out = torch.softmax(scores, dim=-1) @ v
                return self.proj(out.transpose(1, 2).reshape(batch, length, width))

        class Block(nn.Module):
            def __init__(self):
                super().__init__()
                self.norm1, self.norm2 = nn.LayerNorm(width), nn.LayerNorm(width)
                self.attention = Attention()
                self.mlp = nn.Sequential(nn.Linear(width, 4 * width), nn.GELU(approximate="tanh"),
                                         nn.Linear(4 * width, width))

            def forward(self, x):
                x = x + self.attention(self.norm1(x))
                return x + self.mlp(self.norm2(x))

        class GPT2(nn.Module):
            def __init__(self):
                super().__init__()
                self.embed, self.position = nn.Embedding(vocab, width), nn.Embedding(seq, width)
                self.blocks = nn.Sequential(*[Block() for _ in range(sizes["layers"])])
                self.norm = nn.LayerNorm(width)
                self.head = nn.Linear(width, vocab, bias=False)

            def forward(self, tokens):
                h = self.embed(tokens) + self.position.weight[None, : tokens.shape[1]]
                return self.head(self.norm(self.blocks(h))).reshape(-1, vocab)
        return GPT2()
    raise KeyError(model)


def torch_adam_weight_decay(torch, network, learning_rate, weight_decay, beta1=0.9, beta2=0.999, eps=1e-6):
    """MindSpore's ``nn.AdamWeightDecay`` as a PyTorch optimizer, so that both contenders train alike.

    The rule (sporax follows MindSpore 2.10 step for step): ``m = b1*m + (1-b1)*g``, ``v = b2*v + (1-b2)*g*g``,
    ``p -= lr * (m / (sqrt(v) + eps) + wd * p)``: no bias correction (``torch.optim.AdamW`` corrects both
    moments, so its first steps are about 3x smaller), epsilon 1e-6, and no decay on LayerNorm weights and
    biases (MindSpore's default filter skips its ``gamma``/``beta``). PyTorch's multi-tensor kernels.
    """
    norms = {id(p) for module in network.modules() if isinstance(module, torch.nn.LayerNorm)
             for p in module.parameters()}
    parameters = list(network.parameters())
    groups = [{"params": [p for p in parameters if id(p) not in norms], "weight_decay": weight_decay},
              {"params": [p for p in parameters if id(p) in norms], "weight_decay": 0.0}]

    class AdamWeightDecay(torch.optim.Optimizer):
        @torch.no_grad()
        def step(self):
            for group in self.param_groups:
                params = [p for p in group["params"] if p.grad is not None]
                if not params:
                    continue
                for p in params:
                    if not self.state[p]:
                        self.state[p].update(m=torch.zeros_like(p), v=torch.zeros_like(p))
                grads = [p.grad for p in params]
                m, v = [self.state[p]["m"] for p in params], [self.state[p]["v"] for p in params]
                torch._foreach_mul_(m, beta1)
                torch._foreach_add_(m, grads, alpha=1 - beta1)
                torch._foreach_mul_(v, beta2)
                torch._foreach_addcmul_(v, grads, grads, value=1 - beta2)
                update = torch._foreach_sqrt(v)
                torch._foreach_add_(update, eps)
                update = torch._foreach_div(m, update)
                if group["weight_decay"]:
                    torch._foreach_add_(update, params, alpha=group["weight_decay"])
                torch._foreach_add_(params, update, alpha=-group["lr"])

    return AdamWeightDecay(groups, {"lr": learning_rate})
