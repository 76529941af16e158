"""Training steps on one GPU: sporax (GRAPH and PyNative mode) against PyTorch eager, steps/s and model FLOPs utilisation.

``python benchmarks/gpu.py [--only WORKLOAD] [--contender NAME] [--json FILE]`` runs each contender
of each workload (``gpu_models.WORKLOADS``: the suite's CIFAR ResNet-18 and ImageNet ResNet-50 at
batch 64, in float32 and in bfloat16 mixed precision, and a GPT-2-small step at batch 8 in
bfloat16) in its own process, one after another (the GPU is the contended resource, not the
CPU), and prints one table:

- first step: seconds from the built model to the first step's result (sporax GRAPH: XLA compiles
  the whole step; sporax PyNative: the loop of MindSpore's tutorials, ``value_and_grad`` then the
  optimizer, run eagerly op by op, its repeated step fused by sporax; PyTorch: cuDNN picks its
  algorithms);
- steps/s: the best of ``--rounds`` timed rounds of ``--steps`` steps after 3 warm-up steps, each
  round ended by reading the loss back (sporax) or ``torch.cuda.synchronize()``;
- model TFLOP/s and MFU: the step's FLOPs as PyTorch's ``FlopCounterMode`` counts one training
  step of the same network (products and convolutions, forward and backward; the same work for
  every contender) over the step time, as a share of the GPU's peak measured here: a
  8192x8192x8192 product in bfloat16 for bfloat16 workloads, in float32 with TF32 for float32
  ones (the convolutions run in TF32 in every contender; float32 matmuls run in full float32 in
  sporax and PyTorch, MindSpore's GPU default, and in TF32 in the hand-written JAX step).

bfloat16 means each framework's mixed precision: ``amp.auto_mixed_precision(net, "O2",
dtype=bfloat16)`` in sporax (what a MindSpore script's float16 ``amp_level="O2"`` becomes where
bfloat16 is the GPU's fast type), ``torch.autocast(dtype=torch.bfloat16)`` in PyTorch; both keep
float32 weights. ``--small`` shrinks every workload for a CPU check of the script itself.
Needs a CUDA GPU for real figures; CI never runs it.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gpu_models  # noqa: E402
import suite_models  # noqa: E402

CONTENDERS = ("sporax-graph", "sporax-pynative", "torch", "jax")


def _data(model, batch, small):
    if model == "resnet18":
        return suite_models.data(model, batch)
    return gpu_models.data(model, batch, small=small)


def _sporax(model, batch, dtype, small, mode="graph"):
    import sporax as ms

    ms.set_context(mode=ms.GRAPH_MODE if mode == "graph" else ms.PYNATIVE_MODE)
    ms.set_seed(0)
    network = (suite_models.ms_network(ms, model) if model == "resnet18"
               else gpu_models.ms_network(ms, model, small=small))
    if dtype == "bfloat16":
        network = ms.amp.auto_mixed_precision(network, "O2", dtype=ms.bfloat16)
    entropy = ms.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")

    class Loss(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.network = network

        def construct(self, x, y):
            return entropy(self.network(x), y.reshape(-1))
    if model == "gpt2":
        optimizer = ms.nn.AdamWeightDecay(network.trainable_params(), 1e-4, weight_decay=0.01)
    else:
        optimizer = ms.nn.Momentum(network.trainable_params(), 0.01, 0.9)
    loss_net = Loss()
    # As Model.train does: batch norm on batch statistics, as PyTorch's modules are by default.
    loss_net.set_train()
    x, y = (ms.Tensor(a) for a in _data(model, batch, small))
    if mode == "graph":
        train = ms.nn.TrainOneStepCell(loss_net, optimizer)
        train.set_train()
    else:
        # The PyNative loop of MindSpore's tutorials and mindcv: value_and_grad, then the optimizer.
        gradient = ms.value_and_grad(loss_net, None, optimizer.parameters)

        def train(x, y):
            loss, grads = gradient(x, y)
            optimizer(grads)
            return loss

    def run(count):
        loss = None
        for _ in range(count):
            loss = train(x, y)
        return float(loss.asnumpy())
    return run


def _sporax_pynative(model, batch, dtype, small):
    return _sporax(model, batch, dtype, small, mode="pynative")


def _torch(model, batch, dtype, small):
    import torch

    device = "cuda" if torch.cuda.is_available() else "cpu"
    # MindSpore's GPU defaults, which sporax follows: float32 matmuls in full float32, convolutions in TF32.
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = True
    torch.backends.cudnn.benchmark = True
    torch.manual_seed(0)
    network = (suite_models.torch_network(torch, model) if model == "resnet18"
               else gpu_models.torch_network(torch, model, small=small)).to(device)
    if model == "gpt2":
        # MindSpore's AdamWeightDecay (sporax's contenders' optimizer), not torch.optim.AdamW: the same losses.
        optimizer = gpu_models.torch_adam_weight_decay(torch, network, 1e-4, weight_decay=0.01)
    else:
        optimizer = torch.optim.SGD(network.parameters(), lr=0.01, momentum=0.9)
    x, y = _data(model, batch, small)
    x = torch.from_numpy(x if x.dtype == "float32" else x.astype("int64")).to(device)
    y = torch.from_numpy(y.reshape(-1).astype("int64")).to(device)
    entropy = torch.nn.CrossEntropyLoss()

    def step():
        optimizer.zero_grad(set_to_none=True)
        with torch.autocast(device, dtype=torch.bfloat16, enabled=dtype == "bfloat16"):
            loss = entropy(network(x).float(), y)
        loss.backward()
        optimizer.step()
        return loss

    def run(count):
        loss = None
        for _ in range(count):
            loss = step()
        if device == "cuda":
            torch.cuda.synchronize()
        return float(loss.item())

    def flops():
        from torch.utils.flop_counter import FlopCounterMode
        counter = FlopCounterMode(display=False)
        with counter:
            with torch.autocast(device, dtype=torch.bfloat16, enabled=dtype == "bfloat16"):
                loss = entropy(network(x).float(), y)
            loss.backward()
        optimizer.zero_grad(set_to_none=True)
        return counter.get_total_flops()
    run.flops = flops
    return run


def _jax(model, batch, dtype, small):
    import sporax  # noqa: F401  (the same JAX options as sporax's program)
    import jax

    # JAX's own default precision, as a hand-written JAX step runs (TF32 convolutions, as sporax's; the one
    # float32 matmul, the 512x10 classifier, in TF32 too), not sporax's full-float32 default for matmuls.
    jax.config.update("jax_default_matmul_precision", None)

    if model != "resnet18" or dtype != "float32":
        raise NotImplementedError(f"no hand-written JAX {model} in {dtype}")
    params, loss_fn = suite_models.jax_model(model)
    moments = jax.tree_util.tree_map(jax.numpy.zeros_like, params)

    step = jax.jit(suite_models.jax_momentum_step(loss_fn), donate_argnums=(0, 1))
    x, y = (jax.numpy.asarray(a) for a in _data(model, batch, small))
    state = [params, moments]

    def run(count):
        loss = None
        for _ in range(count):
            state[0], state[1], loss = step(state[0], state[1], x, y)
        return float(loss)
    return run


def worker(contender, workload, steps, rounds, small):
    """One contender of one workload, in this process: prints one JSON line."""
    model, batch, dtype = gpu_models.WORKLOADS[workload]
    if small:
        batch = 2
    build = {"sporax-graph": _sporax, "sporax-pynative": _sporax_pynative, "torch": _torch, "jax": _jax}[contender]
    result = {"contender": contender, "workload": workload}
    try:
        run = build(model, batch, dtype, small)
        started = time.perf_counter()
        result["first_loss"] = run(1)
        result["first_s"] = time.perf_counter() - started
        run(3)
        times = []
        for _ in range(rounds):
            started = time.perf_counter()
            result["last_loss"] = run(steps)
            times.append((time.perf_counter() - started) / steps)
        result["step_ms"] = [1000 * t for t in times]
        if hasattr(run, "flops"):
            result["flops"] = run.flops()
    except Exception as error:  # reported in the table as this contender's result
        result["error"] = f"{type(error).__name__}: {str(error).splitlines()[0][:300] if str(error) else ''}"
    print("RESULT " + json.dumps(result), flush=True)


def peak():
    """Measured TFLOP/s of a 8192^3 product: bfloat16 and float32 with TF32 (None without a GPU)."""
    import torch

    if not torch.cuda.is_available():
        return {}
    torch.backends.cuda.matmul.allow_tf32 = True
    rates = {}
    for name, dtype in (("bfloat16", torch.bfloat16), ("float32", torch.float32)):
        a = torch.randn(8192, 8192, device="cuda", dtype=dtype)
        b = torch.randn(8192, 8192, device="cuda", dtype=dtype)
        for _ in range(3):
            a @ b
        torch.cuda.synchronize()
        started = time.perf_counter()
        for _ in range(10):
            a @ b
        torch.cuda.synchronize()
        rates[name] = 2 * 8192 ** 3 * 10 / (time.perf_counter() - started) / 1e12
    import jax
    rates["gpu"] = f"{torch.cuda.get_device_name()}, jax {jax.__version__}, torch {torch.__version__}"
    return rates


def _run_worker(contender, workload, args):
    command = [sys.executable, os.path.abspath(__file__), "--worker", contender, workload,
               "--steps", str(args.steps), "--rounds", str(args.rounds)] + (["--small"] if args.small else [])
    env = dict(os.environ)
    cold = None
    if not args.warm_cache:
        # A fresh compilation cache per contender: sporax's GRAPH and PyNative steps are the same XLA program,
        # so a shared cache would serve the second contender's first step from the first one's compile.
        cold = tempfile.TemporaryDirectory(prefix="sporax-gpu-cache-")
        env["SPORAX_COMPILATION_CACHE_DIR"] = cold.name
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=args.timeout, env=env)
    except subprocess.TimeoutExpired:
        return {"contender": contender, "workload": workload, "error": f"timed out after {args.timeout} s"}
    finally:
        if cold is not None:
            cold.cleanup()
    for line in done.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[len("RESULT "):])
    tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
    return {"contender": contender, "workload": workload, "error": f"exit {done.returncode}: {' | '.join(tail)[:400]}"}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", choices=sorted(gpu_models.WORKLOADS))
    parser.add_argument("--contender", action="append", choices=CONTENDERS)
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--timeout", type=int, default=240, help="seconds per contender process")
    parser.add_argument("--small", action="store_true", help="tiny shapes: a CPU check of this script")
    parser.add_argument("--budget", type=float, default=0,
                        help="seconds: start no further contender once the run has taken this long (0: no limit)")
    parser.add_argument("--warm-cache", action="store_true", help="let sporax use its persistent compilation "
                        "cache (default: a fresh one per contender, so first steps include compilation)")
    parser.add_argument("--json", help="also write every result to this file, one JSON object a line")
    parser.add_argument("--worker", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(*args.worker, args.steps, args.rounds, args.small)
        return
    rates = {} if args.small else peak()
    print("command: " + " ".join(sys.argv))
    print(f"GPU: {rates.get('gpu', 'none')}; measured peak TFLOP/s: bfloat16 {rates.get('bfloat16', 0):.0f}, "
          f"float32 (TF32) {rates.get('float32', 0):.0f}", flush=True)
    results, started = [], time.perf_counter()
    for workload in args.only or gpu_models.WORKLOADS:
        for contender in args.contender or CONTENDERS:
            if contender == "jax" and workload != "resnet18_b64":
                continue
            if args.budget and time.perf_counter() - started > args.budget:
                print(f"skipped {contender} {workload}: over --budget", flush=True)
                continue
            result = _run_worker(contender, workload, args)
            results.append(result)
            print(json.dumps(result), flush=True)
            if args.json:
                with open(args.json, "a") as out:
                    out.write(json.dumps(result) + "\n")
    flops = {r["workload"]: r["flops"] for r in results if r.get("flops")}
    print(f"\n{'workload':<20}{'contender':<16}{'first step s':>13}{'steps/s':>10}{'x torch':>9}{'TFLOP/s':>9}{'MFU':>7}")
    torch_rate = {r["workload"]: 1000 / min(r["step_ms"]) for r in results if r["contender"] == "torch" and "step_ms" in r}
    for r in results:
        if "error" in r:
            print(f"{r['workload']:<20}{r['contender']:<16}  failed: {r['error']}")
            continue
        rate = 1000 / min(r["step_ms"])
        dtype = gpu_models.WORKLOADS[r["workload"]][2]
        tflops = flops.get(r["workload"], 0) * rate / 1e12
        share = tflops / rates[dtype] if rates.get(dtype) else 0
        ratio = rate / torch_rate[r["workload"]] if r["workload"] in torch_rate else float("nan")
        print(f"{r['workload']:<20}{r['contender']:<16}{r['first_s']:>13.2f}{rate:>10.1f}{ratio:>9.2f}"
              f"{tflops:>9.1f}{share:>7.1%}")


if __name__ == "__main__":
    main()
