"""The benchmark suite's workloads, written once per API: MindSpore's (run by sporax and by real
MindSpore alike), PyTorch's and hand-written JAX's. Same layers, sizes, loss and optimizer
(Momentum/SGD 0.9, lr 0.01) in every framework.

This module imports no framework at import time: a worker passes the framework's modules in.
"""
import numpy as np

# name: (model, batch); the model names index the builders below.
WORKLOADS = {
    "mlp_b32": ("mlp", 32), "lenet5_b32": ("lenet5", 32), "lenet5_b256": ("lenet5", 256),
    "resnet18_b32": ("resnet18", 32), "resnet18_b64": ("resnet18", 64),
    "transformer_b16": ("transformer", 16), "lstm_b32": ("lstm", 32),
}
# Models whose step is mostly convolutions (what MindSpore hands to oneDNN's convolution).
CONVOLUTIONAL = ("lenet5", "resnet18")
VOCAB, SEQ, D_MODEL, HEADS, LAYERS, FFN = 1000, 128, 256, 4, 4, 1024
TAGS, LSTM_SEQ, EMBED, HIDDEN = 20, 64, 128, 256


def data(model, batch, seed=0):
    """(inputs, labels) as NumPy arrays; labels of sequence models are (batch, seq)."""
    rng = np.random.default_rng(seed)
    if model == "mlp":
        return rng.standard_normal((batch, 32)).astype(np.float32), rng.standard_normal((batch, 1)).astype(np.float32)
    if model == "lenet5":
        return rng.standard_normal((batch, 1, 32, 32)).astype(np.float32), rng.integers(0, 10, batch).astype(np.int32)
    if model == "resnet18":
        return rng.standard_normal((batch, 3, 32, 32)).astype(np.float32), rng.integers(0, 10, batch).astype(np.int32)
    if model == "transformer":
        tokens = rng.integers(0, VOCAB, (batch, SEQ + 1)).astype(np.int32)
        return tokens[:, :-1], tokens[:, 1:]
    if model == "lstm":
        return (rng.integers(0, VOCAB, (batch, LSTM_SEQ)).astype(np.int32),
                rng.integers(0, TAGS, (batch, LSTM_SEQ)).astype(np.int32))
    raise KeyError(model)


# --- MindSpore API (sporax or mindspore) --------------------------------------------------------
def ms_network(ms, model):
    nn, ops = ms.nn, ms.ops
    if model == "mlp":
        return nn.SequentialCell([nn.Dense(32, 120), nn.ReLU(), nn.Dense(120, 84), nn.ReLU(), nn.Dense(84, 1)])
    if model == "lenet5":
        return nn.SequentialCell([
            nn.Conv2d(1, 6, 5, pad_mode="valid"), nn.ReLU(), nn.MaxPool2d(2, 2),
            nn.Conv2d(6, 16, 5, pad_mode="valid"), nn.ReLU(), nn.MaxPool2d(2, 2), nn.Flatten(),
            nn.Dense(400, 120), nn.ReLU(), nn.Dense(120, 84), nn.ReLU(), nn.Dense(84, 10)])
    if model == "resnet18":
        def conv_bn(cin, cout, k, stride):
            return [nn.Conv2d(cin, cout, k, stride, pad_mode="pad", padding=k // 2), nn.BatchNorm2d(cout)]

        class Block(nn.Cell):
            def __init__(self, cin, cout, stride):
                super().__init__()
                self.body = nn.SequentialCell(conv_bn(cin, cout, 3, stride) + [nn.ReLU()] + conv_bn(cout, cout, 3, 1))
                self.short = nn.SequentialCell(conv_bn(cin, cout, 1, stride)) if stride != 1 or cin != cout else None
                self.relu = nn.ReLU()

            def construct(self, x):
                return self.relu(self.body(x) + (x if self.short is None else self.short(x)))

        class ResNet18(nn.Cell):
            def __init__(self):
                super().__init__()
                layers = conv_bn(3, 64, 3, 1) + [nn.ReLU()]
                cin = 64
                for cout, stride in ((64, 1), (128, 2), (256, 2), (512, 2)):
                    layers += [Block(cin, cout, stride), Block(cout, cout, 1)]
                    cin = cout
                self.features = nn.SequentialCell(layers)
                self.fc = nn.Dense(512, 10)

            def construct(self, x):
                return self.fc(ops.mean(self.features(x), (2, 3)))
        return ResNet18()
    if model == "transformer":
        class EncoderLM(nn.Cell):
            def __init__(self):
                super().__init__()
                self.embed = nn.Embedding(VOCAB, D_MODEL)
                self.position = nn.Embedding(SEQ, D_MODEL)
                layer = nn.TransformerEncoderLayer(D_MODEL, HEADS, FFN, dropout=0.0, batch_first=True)
                self.encoder = nn.TransformerEncoder(layer, LAYERS)
                self.head = nn.Dense(D_MODEL, VOCAB)
                self.positions = ms.Tensor(np.arange(SEQ, dtype=np.int32)[None])

            def construct(self, tokens):
                h = self.encoder(self.embed(tokens) + self.position(self.positions))
                return self.head(h).reshape(-1, VOCAB)
        return EncoderLM()
    if model == "lstm":
        class Tagger(nn.Cell):
            def __init__(self):
                super().__init__()
                self.embed = nn.Embedding(VOCAB, EMBED)
                self.lstm = nn.LSTM(EMBED, HIDDEN, batch_first=True)
                self.head = nn.Dense(HIDDEN, TAGS)

            def construct(self, tokens):
                out, _ = self.lstm(self.embed(tokens))
                return self.head(out).reshape(-1, TAGS)
        return Tagger()
    raise KeyError(model)


def ms_loss(ms, model):
    if model == "mlp":
        return ms.nn.MSELoss()
    entropy = ms.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    if model not in ("transformer", "lstm"):
        return entropy

    class TokenLoss(ms.nn.Cell):
        """Cross entropy of (batch * seq, classes) logits against (batch, seq) labels."""

        def __init__(self):
            super().__init__()
            self.entropy = entropy

        def construct(self, logits, labels):
            return self.entropy(logits, labels.reshape(-1))
    return TokenLoss()


# --- PyTorch -------------------------------------------------------------------------------------
def torch_network(torch, model):
    nn = torch.nn
    if model == "mlp":
        return nn.Sequential(nn.Linear(32, 120), nn.ReLU(), nn.Linear(120, 84), nn.ReLU(), nn.Linear(84, 1))
    if model == "lenet5":
        return nn.Sequential(nn.Conv2d(1, 6, 5, bias=False), nn.ReLU(), nn.MaxPool2d(2),
                             nn.Conv2d(6, 16, 5, bias=False), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
                             nn.Linear(400, 120), nn.ReLU(), nn.Linear(120, 84), nn.ReLU(), nn.Linear(84, 10))
    if model == "resnet18":
        def conv_bn(cin, cout, k, stride):
            return [nn.Conv2d(cin, cout, k, stride, k // 2, bias=False), nn.BatchNorm2d(cout)]

        class Block(nn.Module):
            def __init__(self, cin, cout, stride):
                super().__init__()
                self.body = nn.Sequential(*conv_bn(cin, cout, 3, stride), nn.ReLU(), *conv_bn(cout, cout, 3, 1))
                self.short = nn.Sequential(*conv_bn(cin, cout, 1, stride)) if stride != 1 or cin != cout else None

            def forward(self, x):
                return torch.relu(self.body(x) + (x if self.short is None else self.short(x)))
        layers = conv_bn(3, 64, 3, 1) + [nn.ReLU()]
        cin = 64
        for cout, stride in ((64, 1), (128, 2), (256, 2), (512, 2)):
            layers += [Block(cin, cout, stride), Block(cout, cout, 1)]
            cin = cout
        return nn.Sequential(*layers, nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(512, 10))
    if model == "transformer":
        class EncoderLM(nn.Module):
            def __init__(self):
                super().__init__()
                self.embed, self.position = nn.Embedding(VOCAB, D_MODEL), nn.Embedding(SEQ, D_MODEL)
                layer = nn.TransformerEncoderLayer(D_MODEL, HEADS, FFN, dropout=0.0, batch_first=True)
                self.encoder = nn.TransformerEncoder(layer, LAYERS, enable_nested_tensor=False)
                self.head = nn.Linear(D_MODEL, VOCAB)

            def forward(self, tokens):
                h = self.embed(tokens) + self.position(torch.arange(SEQ))[None]
                return self.head(self.encoder(h)).reshape(-1, VOCAB)
        return EncoderLM()
    if model == "lstm":
        class Tagger(nn.Module):
            def __init__(self):
                super().__init__()
                self.embed, self.lstm = nn.Embedding(VOCAB, EMBED), nn.LSTM(EMBED, HIDDEN, batch_first=True)
                self.head = nn.Linear(HIDDEN, TAGS)

            def forward(self, tokens):
                return self.head(self.lstm(self.embed(tokens))[0]).reshape(-1, TAGS)
        return Tagger()
    raise KeyError(model)


# --- hand-written JAX ----------------------------------------------------------------------------
def jax_model(model):
    """(params, loss_fn(params, x, y)) of the hand-written JAX model, or None where none is written."""
    import jax
    import jax.numpy as jnp
    from jax import lax

    rng = np.random.default_rng(0)

    def dense(n_in, n_out):
        bound = 1 / np.sqrt(n_in)
        return [jnp.asarray(rng.uniform(-bound, bound, (n_out, n_in)).astype(np.float32)),
                jnp.asarray(rng.uniform(-bound, bound, n_out).astype(np.float32))]

    def conv_weight(cout, cin, k):
        return jnp.asarray(rng.normal(0, np.sqrt(2 / (cin * k * k)), (cout, cin, k, k)).astype(np.float32))

    def conv(x, w, stride=1):
        pad = w.shape[-1] // 2
        return lax.conv_general_dilated(x, w, (stride, stride), [(pad, pad)] * 2,
                                        dimension_numbers=("NCHW", "OIHW", "NCHW"))

    def uniform(bound, shape):
        return jnp.asarray(rng.uniform(-bound, bound, shape).astype(np.float32))

    def cross_entropy(logits, y):
        return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), y.reshape(-1)[:, None], 1))

    if model == "mlp":
        params = dense(32, 120) + dense(120, 84) + dense(84, 1)

        def loss_fn(p, x, y):
            h = jax.nn.relu(x @ p[0].T + p[1])
            h = jax.nn.relu(h @ p[2].T + p[3])
            return jnp.mean((h @ p[4].T + p[5] - y) ** 2)
        return params, loss_fn
    if model == "lenet5":
        params = [conv_weight(6, 1, 5), conv_weight(16, 6, 5)] + dense(400, 120) + dense(120, 84) + dense(84, 10)

        def pool(x):
            return lax.reduce_window(x, -jnp.inf, lax.max, (1, 1, 2, 2), (1, 1, 2, 2), "VALID")

        def valid(x, w):
            return lax.conv_general_dilated(x, w, (1, 1), "VALID", dimension_numbers=("NCHW", "OIHW", "NCHW"))

        def loss_fn(p, x, y):
            h = pool(jax.nn.relu(valid(x, p[0])))
            h = pool(jax.nn.relu(valid(h, p[1]))).reshape(x.shape[0], -1)
            h = jax.nn.relu(h @ p[2].T + p[3])
            h = jax.nn.relu(h @ p[4].T + p[5])
            return cross_entropy(h @ p[6].T + p[7], y)
        return params, loss_fn
    if model == "resnet18":
        # Batch norm in training mode (batch statistics); the running statistics are not kept,
        # which leaves the step's cost as good as unchanged.
        def bn(c):
            return {"g": jnp.ones(c, jnp.float32), "b": jnp.zeros(c, jnp.float32)}

        def batch_norm(x, p):
            mean = x.mean((0, 2, 3), keepdims=True)
            var = ((x - mean) ** 2).mean((0, 2, 3), keepdims=True)
            return (x - mean) * lax.rsqrt(var + 1e-5) * p["g"][None, :, None, None] + p["b"][None, :, None, None]
        blocks, cin = [], 64
        for cout, stride in ((64, 1), (128, 2), (256, 2), (512, 2)):
            for s in (stride, 1):
                block = {"w1": conv_weight(cout, cin, 3), "bn1": bn(cout), "w2": conv_weight(cout, cout, 3),
                         "bn2": bn(cout), "stride": s}
                if s != 1 or cin != cout:
                    block.update(ws=conv_weight(cout, cin, 1), bns=bn(cout))
                blocks.append(block)
                cin = cout
        strides = [b.pop("stride") for b in blocks]
        params = {"stem": conv_weight(64, 3, 3), "bn": bn(64), "blocks": blocks, "fc": dense(512, 10)}

        def loss_fn(p, x, y):
            h = jax.nn.relu(batch_norm(conv(x, p["stem"]), p["bn"]))
            for block, s in zip(p["blocks"], strides):
                out = jax.nn.relu(batch_norm(conv(h, block["w1"], s), block["bn1"]))
                out = batch_norm(conv(out, block["w2"]), block["bn2"])
                short = batch_norm(conv(h, block["ws"], s), block["bns"]) if "ws" in block else h
                h = jax.nn.relu(out + short)
            h = h.mean((2, 3))
            return cross_entropy(h @ p["fc"][0].T + p["fc"][1], y)
        return params, loss_fn
    if model == "lstm":
        bound = 1 / np.sqrt(HIDDEN)
        params = {"embed": jnp.asarray(rng.normal(0, 1, (VOCAB, EMBED)).astype(np.float32)),
                  "w_ih": uniform(bound, (4 * HIDDEN, EMBED)), "w_hh": uniform(bound, (4 * HIDDEN, HIDDEN)),
                  "b_ih": uniform(bound, (4 * HIDDEN,)), "b_hh": uniform(bound, (4 * HIDDEN,)),
                  "head_w": uniform(bound, (TAGS, HIDDEN)), "head_b": uniform(bound, (TAGS,))}

        def loss_fn(p, x, y):
            inputs = jnp.swapaxes(p["embed"][x], 0, 1)
            projected = inputs @ p["w_ih"].T + p["b_ih"]

            def body(carry, step):
                h, c = carry
                i, f, g, o = jnp.split(step + h @ p["w_hh"].T + p["b_hh"], 4, axis=-1)
                c = jax.nn.sigmoid(f) * c + jax.nn.sigmoid(i) * jnp.tanh(g)
                h = jax.nn.sigmoid(o) * jnp.tanh(c)
                return (h, c), h
            zeros = jnp.zeros((x.shape[0], HIDDEN), jnp.float32)
            _, hidden = lax.scan(body, (zeros, zeros), projected)
            logits = jnp.swapaxes(hidden, 0, 1) @ p["head_w"].T + p["head_b"]
            return cross_entropy(logits.reshape(-1, TAGS), y)
        return params, loss_fn
    if model == "transformer":
        d, heads, ffn = D_MODEL, HEADS, FFN

        def layer():
            # float32 spelled out: sporax switches jax_enable_x64 on, where a bare zeros() is float64.
            return {"in_w": uniform(np.sqrt(6 / (2 * d)), (3 * d, d)), "in_b": jnp.zeros(3 * d, jnp.float32),
                    "out_w": uniform(1 / np.sqrt(d), (d, d)), "out_b": jnp.zeros(d, jnp.float32),
                    "w1": uniform(1 / np.sqrt(d), (ffn, d)), "b1": uniform(1 / np.sqrt(d), (ffn,)),
                    "w2": uniform(1 / np.sqrt(ffn), (d, ffn)), "b2": uniform(1 / np.sqrt(ffn), (d,)),
                    "g1": jnp.ones(d, jnp.float32), "n1": jnp.zeros(d, jnp.float32),
                    "g2": jnp.ones(d, jnp.float32), "n2": jnp.zeros(d, jnp.float32)}
        params = {"embed": jnp.asarray(rng.normal(0, 1, (VOCAB, d)).astype(np.float32)),
                  "position": jnp.asarray(rng.normal(0, 1, (SEQ, d)).astype(np.float32)),
                  "layers": [layer() for _ in range(LAYERS)],
                  "head_w": uniform(1 / np.sqrt(d), (VOCAB, d)), "head_b": uniform(1 / np.sqrt(d), (VOCAB,))}

        def norm(x, g, b):
            mean = x.mean(-1, keepdims=True)
            var = ((x - mean) ** 2).mean(-1, keepdims=True)
            return (x - mean) * lax.rsqrt(var + 1e-5) * g + b

        def attention(x, p):
            batch, length, _ = x.shape
            q, k, v = jnp.split(x @ p["in_w"].T + p["in_b"], 3, axis=-1)

            def split(t):
                return t.reshape(batch, length, heads, d // heads).transpose(0, 2, 1, 3)
            q, k, v = split(q), split(k), split(v)
            weights = jax.nn.softmax(q @ jnp.swapaxes(k, -1, -2) / float(np.sqrt(d // heads)), axis=-1)
            out = (weights @ v).transpose(0, 2, 1, 3).reshape(batch, length, d)
            return out @ p["out_w"].T + p["out_b"]

        def loss_fn(p, x, y):
            h = p["embed"][x] + p["position"][None]
            for lp in p["layers"]:
                h = norm(h + attention(h, lp), lp["g1"], lp["n1"])
                f = jax.nn.relu(h @ lp["w1"].T + lp["b1"]) @ lp["w2"].T + lp["b2"]
                h = norm(h + f, lp["g2"], lp["n2"])
            return cross_entropy((h @ p["head_w"].T + p["head_b"]).reshape(-1, VOCAB), y)
        return params, loss_fn
    return None


def jax_momentum_step(loss_fn):
    """``step(params, moments, x, y) -> (params, moments, loss)``: one Momentum (0.9, lr 0.01) step of the
    hand-written JAX ``loss_fn``, the suite's optimizer in every framework (not yet jitted)."""
    import jax

    def step(p, m, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(p, x, y)
        m = jax.tree_util.tree_map(lambda mi, g: 0.9 * mi + g, m, grads)
        return jax.tree_util.tree_map(lambda pi, mi: pi - 0.01 * mi, p, m), m, loss
    return step


def train_step_flops(model, batch):
    """FLOPs of one training step (forward, backward and the Momentum update) of the hand-written
    JAX ``model`` at ``batch``, as XLA's cost analysis of the compiled step counts them (a
    multiply-add is 2 FLOPs; a convolution's or product's backward is two more of the same size,
    so the step is ~3x the forward). The same for every contender: each runs the same layers, so
    model FLOPs per second compare frameworks at equal work."""
    import jax

    params, loss_fn = jax_model(model)
    x, y = data(model, batch)
    step = jax_momentum_step(loss_fn)
    moments = jax.tree_util.tree_map(jax.numpy.zeros_like, params)
    # Lowered HLO, not the CPU executable: the latter's analysis misses work that XLA:CPU hands to
    # library calls (YNNPACK, oneDNN), while the HLO's counts every product and convolution.
    cost = jax.jit(step).lower(params, moments, x, y).cost_analysis()
    if isinstance(cost, (list, tuple)):
        cost = cost[0]
    return float(cost["flops"])


def lenet5_forward_flops(batch):
    """LeNet5's forward FLOPs counted by hand (2 per multiply-add, convolutions and dense layers
    only): a check on ``train_step_flops``."""
    conv1 = 28 * 28 * 6 * 1 * 25
    conv2 = 10 * 10 * 16 * 6 * 25
    dense = 400 * 120 + 120 * 84 + 84 * 10
    return 2.0 * batch * (conv1 + conv2 + dense)
