"""``sporax launch`` / ``msrun``: start a distributed job's worker processes and supervise them.

Contract (msrun's flags and files):
    * ``--worker_num`` processes in the job, ``--local_worker_num`` of them on this node,
      ``--node_rank`` this node's index (ranks ``node_rank * local_worker_num + i``),
      ``--master_addr``/``--master_port`` the address of rank 0's coordination service,
      ``--log_dir`` the folder of the per-worker logs ``worker_<rank>.log``,
      ``--cluster_time_out`` seconds the workers wait for each other in ``init()``,
      ``--join=True`` also streams the workers' logs to the console (msrun tails them),
      ``--worker_log_name`` names the logs ``<name>_<rank>.log`` (``{ip}``, ``{hostname}`` substituted),
      ``--bind_core`` binds each worker to CPU cores (``True``: an equal share each; or a dict
      ``{rank: [cores or "first-last" ranges]}``).
    * Each worker (``sporax.parallel.worker``) runs ``SCRIPT args...`` under the MindSpore
      import hook (as ``sporax run``)
      with MindSpore's launcher variables: ``MS_WORKER_NUM``, ``MS_SCHED_HOST``,
      ``MS_SCHED_PORT``, ``MS_TOPO_TIMEOUT``, ``MS_NODE_ID``, ``MS_ROLE=MS_WORKER``,
      ``RANK_ID``, ``RANK_SIZE``, ``DEVICE_ID`` (the local index), ``LOCAL_RANK``; and, unless set,
      ``OMP_NUM_THREADS`` = this node's cores / ``--local_worker_num`` (at least 1).
      ``communication.init()`` turns them into ``jax.distributed.initialize``.
    * The launcher waits for the workers (also without ``--join``: unlike msrun, which returns
      at once then, so that a failure is always reported). When a worker exits non-zero, every
      other worker's process group is killed and the launcher exits 1, printing the failed
      rank's exit status and the end of its log. SIGINT/SIGTERM stop all workers the same way, and
      on Linux a worker also dies when the launcher itself is killed.
      No scheduler process is started: JAX's coordination service runs inside rank 0.
    * A second launch on the master port of a running job (or of any program listening on it)
      fails at once, exit status 1, saying the port is in use by another job; the running job
      is left alone (``_claim_port``).

Example:
    >>> from sporax.parallel.launch import parse_arguments
    >>> parse_arguments(["--worker_num=2", "--local_worker_num=2", "train.py", "--lr", "0.1"]).task_script_args
    ['--lr', '0.1']
"""
import argparse
import ast
import errno
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time

_LOG_TAIL_LINES = 30
_POLL_SECONDS = 0.1
_KILL_GRACE_SECONDS = 3.0
_SETTLE_SECONDS = 0.5


def add_arguments(parser):
    """msrun's arguments, with its defaults."""
    parser.add_argument("--worker_num", type=int, default=8, help="the number of processes in the job")
    parser.add_argument("--local_worker_num", type=int, default=8, help="the number of processes on this node")
    parser.add_argument("--master_addr", default="127.0.0.1", help="the address of rank 0's node")
    parser.add_argument("--master_port", type=int, default=8118, help="the coordination service's port")
    parser.add_argument("--node_rank", type=int, default=-1, help="this node's index (multi-node jobs)")
    parser.add_argument("--log_dir", default="", help="the folder of the worker logs worker_<rank>.log")
    parser.add_argument("--join", type=ast.literal_eval, default=False, choices=[True, False],
                        help="stream the worker logs to the console while waiting (True/False)")
    parser.add_argument("--cluster_time_out", type=int, default=600,
                        help="seconds the workers wait for each other when joining the job")
    parser.add_argument("--tail_worker_log", default="-1",
                        help="ranks whose logs --join streams, comma separated (-1: all)")
    parser.add_argument("--bind_core", type=_bind_core_value, default=False,
                        help="bind each worker to CPU cores: True (an equal share of this node's cores each, in "
                             "local rank order) or a dict {rank: [cores or 'first-last' ranges]}")
    parser.add_argument("--worker_log_name", default="",
                        help="the worker log name on this node, '{ip}' and '{hostname}' substituted; the log of "
                             "rank r is <name>_<r>.log (default: worker_<r>.log)")
    parser.add_argument("task_script", help="the training script")
    parser.add_argument("task_script_args", nargs=argparse.REMAINDER, help="the script's arguments")


def _bind_core_value(text):
    """``--bind_core``: ``True``/``False`` or a dict literal ``{rank: [cores...]}``."""
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        raise argparse.ArgumentTypeError(f"--bind_core must be True, False or a dict of rank -> cores, but got "
                                         f"{text!r}.") from None
    if not isinstance(value, (bool, dict)):
        raise argparse.ArgumentTypeError(f"--bind_core must be True, False or a dict of rank -> cores, but got "
                                         f"{text!r}.")
    return value


def _core_list(rank, entries):
    """The cores of ``entries`` (ints and 'first-last' ranges) for ``rank`` of a ``--bind_core`` dict."""
    cores = []
    for entry in entries if isinstance(entries, (list, tuple)) else [entries]:
        if isinstance(entry, int) and not isinstance(entry, bool):
            cores.append(entry)
        elif isinstance(entry, str) and entry.count("-") == 1 and all(p.strip().isdigit() for p in entry.split("-")):
            first, last = (int(part) for part in entry.split("-"))
            cores.extend(range(first, last + 1))
        else:
            raise ValueError(f"--bind_core: the cores of rank {rank} must be ints or 'first-last' ranges, but got "
                             f"{entry!r}.")
    return cores


def bound_cores(options, rank, local_index):
    """The CPU cores worker ``rank`` is bound to, or None (``--bind_core``)."""
    setting = options.bind_core
    if setting is False:
        return None
    if setting is True:
        available = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else list(
            range(os.cpu_count() or 1))
        share = max(1, len(available) // options.local_worker_num)
        start = (local_index * share) % len(available)
        return available[start:start + share]
    for key in (rank, str(rank), f"worker_{rank}"):
        if key in setting:
            return _core_list(rank, setting[key])
    return None


def log_file_name(options, rank):
    """The file name of rank ``rank``'s log: ``worker_<rank>.log`` or ``--worker_log_name``'s."""
    if not options.worker_log_name:
        return f"worker_{rank}.log"
    import socket

    hostname = socket.gethostname()
    try:
        address = socket.gethostbyname(hostname)
    except OSError:
        address = "127.0.0.1"
    return f"{options.worker_log_name.replace('{ip}', address).replace('{hostname}', hostname)}_{rank}.log"


def parse_arguments(argv, prog="msrun"):
    """msrun's options from ``argv`` (errors and ``--help`` under the name ``prog``)."""
    parser = argparse.ArgumentParser(prog=prog, description="Launch a distributed MindSpore job on sporax.")
    add_arguments(parser)
    return parser.parse_args(argv)


def _worker_ranks(options):
    first = 0 if options.local_worker_num == options.worker_num else options.node_rank * options.local_worker_num
    return list(range(first, first + options.local_worker_num))


def _problem(options):
    """What is wrong with the flags, or None."""
    if options.worker_num <= 0 or options.local_worker_num <= 0:
        return "--worker_num and --local_worker_num must be positive."
    if options.local_worker_num > options.worker_num:
        return f"--local_worker_num ({options.local_worker_num}) can not exceed --worker_num ({options.worker_num})."
    if not 1024 <= options.master_port <= 65535:
        return f"--master_port must be in [1024, 65535], but got {options.master_port}."
    if options.local_worker_num < options.worker_num:
        if options.node_rank < 0:
            return "a job over several nodes (--local_worker_num < --worker_num) needs --node_rank on each node."
        if _worker_ranks(options)[-1] >= options.worker_num:
            return (f"--node_rank {options.node_rank} with {options.local_worker_num} workers per node gives ranks "
                    f"beyond the job of {options.worker_num}.")
    if not os.path.isfile(options.task_script) and not os.path.isdir(options.task_script):
        return f"the script {options.task_script!r} does not exist."
    return None


def _worker_environment(options, rank, local_index):
    environment = dict(os.environ)
    environment.update({
        "MS_WORKER_NUM": str(options.worker_num), "MS_SCHED_HOST": options.master_addr,
        "MS_SCHED_PORT": str(options.master_port), "MS_TOPO_TIMEOUT": str(options.cluster_time_out),
        "MS_NODE_ID": str(rank), "MS_ROLE": "MS_WORKER", "RANK_ID": str(rank),
        "RANK_SIZE": str(options.worker_num), "DEVICE_ID": str(local_index), "LOCAL_RANK": str(local_index),
        "LOCAL_RANK_SIZE": str(options.local_worker_num), "PYTHONUNBUFFERED": "1",
        "SPORAX_LAUNCHER_PID": str(os.getpid()),
    })
    # The workers on this node share its cores: each OpenMP team (oneDNN's kernels) gets its share,
    # as torchrun does, unless the user chose a number.
    environment.setdefault("OMP_NUM_THREADS", str(max(1, (os.cpu_count() or 1) // max(1, options.local_worker_num))))
    return environment


def _port_taken(port):
    """True when something on this host listens on TCP ``port`` (any address, IPv4 or IPv6)."""
    for family, address in ((socket.AF_INET, "0.0.0.0"), (socket.AF_INET6, "::")):
        try:
            probe = socket.socket(family, socket.SOCK_STREAM)
        except OSError:
            continue  # no IPv6 on this host
        try:
            # SO_REUSEADDR: a port that only has connections of an ended job in TIME_WAIT is free;
            # no SO_REUSEPORT: gRPC's listener sets it, and a probe with it could share the port.
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((address, port))
        except OSError as error:
            if error.errno == errno.EADDRINUSE:
                return True
        finally:
            probe.close()
    return False


def _claim_port(options):
    """Claim the master port for this job: ``(claim to hold while the job runs, problem or None)``.

    A second job on the port of a running one would join that job's coordination service, and
    JAX's service then ends the first job's workers (a task of a "different incarnation"). Only
    the node hosting rank 0 (which runs the service) checks. A launcher holds an abstract Unix
    socket named after the port for the job's whole life, so a second launcher fails even before
    the first job's rank 0 listens; the TCP probe catches any other program on the port.
    """
    if 0 not in _worker_ranks(options) or options.worker_num == 1:
        return None, None  # another node runs the service; a one-process job starts none
    port = options.master_port
    message = (f"--master_port {port} is in use by another job (or another program) on this host; "
               "a second job on the same port would join the first job's coordination service and "
               "stop its workers. Wait for that job to end, or choose a free port with --master_port.")
    claim = None
    if sys.platform.startswith("linux"):
        claim = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            claim.bind(f"\0sporax-launch-master-port-{port}")
        except OSError as error:
            claim.close()
            if error.errno == errno.EADDRINUSE:
                return None, message
            claim = None
    if _port_taken(port):
        if claim is not None:
            claim.close()
        return None, message
    return claim, None


class _Job:
    """The worker processes of this node, each in its own process group."""

    def __init__(self):
        self.workers = []  # (rank, Popen, log path)
        self.tails = []

    def start(self, options):
        log_dir = options.log_dir or "."
        os.makedirs(log_dir, exist_ok=True)
        tail_ranks = None if options.tail_worker_log == "-1" else {
            int(rank) for rank in options.tail_worker_log.split(",")}
        for local_index, rank in enumerate(_worker_ranks(options)):
            log_path = os.path.join(log_dir, log_file_name(options, rank))
            command = [sys.executable, "-m", "sporax.parallel.worker", options.task_script,
                       *options.task_script_args]
            print(f"Start worker process with rank id:{rank}, log file:{log_path}. Environment variable "
                  f"[RANK_ID={rank}] is exported. Execute command: {' '.join(command)}", flush=True)
            with open(log_path, "w", encoding="utf-8") as log:
                environment = _worker_environment(options, rank, local_index)
                cores = bound_cores(options, rank, local_index)
                if cores is not None:
                    environment["SPORAX_BIND_CORES"] = ",".join(map(str, cores))  # the worker binds itself
                process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
                                           env=environment)
            self.workers.append((rank, process, log_path))
            if options.join and (tail_ranks is None or rank in tail_ranks):
                self.tails.append(subprocess.Popen(["tail", "-n", "+1", "-f", log_path]))

    def stop(self):
        """Terminate every worker's process group, then kill what is left after a grace period."""
        for _, process, _ in self.workers:
            _signal_group(process, signal.SIGTERM)
        deadline = time.monotonic() + _KILL_GRACE_SECONDS
        for _, process, _ in self.workers:
            try:
                process.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass
            _signal_group(process, signal.SIGKILL)
            process.wait()
        self.stop_tails()

    def stop_tails(self):
        time.sleep(0.2)  # let tail print the last lines
        for tail in self.tails:
            tail.terminate()
            tail.wait()
        self.tails = []

    def wait(self):
        """Wait until every worker exited 0 (returns []) or one failed: the failures, earliest exit first.

        One thread per worker notes the moment its process ends, so the worker that failed first
        (the cause) comes before the peers that failed because of it (a broken collective).
        """
        exits = queue.Queue()

        def wait_for(rank, process, log_path):
            status = process.wait()
            exits.put((time.monotonic(), rank, status, log_path))

        for worker in self.workers:
            threading.Thread(target=wait_for, args=worker, daemon=True).start()
        finished = []
        while len(finished) < len(self.workers):
            try:
                finished.append(exits.get(timeout=_POLL_SECONDS))
            except queue.Empty:
                continue
            if finished[-1][2] != 0:
                time.sleep(_SETTLE_SECONDS)  # let the waiters of peers that died together report
                while not exits.empty():
                    finished.append(exits.get_nowait())
                return [(rank, status, log_path) for _, rank, status, log_path in sorted(finished) if status != 0]
        return []


def _signal_group(process, signal_number):
    try:
        os.killpg(process.pid, signal_number)
    except (ProcessLookupError, PermissionError):
        pass


def _log_tail(log_path):
    try:
        with open(log_path, encoding="utf-8", errors="replace") as log:
            return "".join(log.readlines()[-_LOG_TAIL_LINES:])
    except OSError:
        return "(the log could not be read)\n"


def _describe(status):
    if status < 0:
        try:
            return f"was killed by signal {signal.Signals(-status).name}"
        except ValueError:
            return f"was killed by signal {-status}"
    return f"exited with status {status}"


def launch(options):
    """Run the job described by ``options``; return the launcher's exit status."""
    problem = _problem(options)
    if problem is not None:
        print(f"msrun: error: {problem}", file=sys.stderr)
        return 2
    claim, problem = _claim_port(options)
    if problem is not None:
        print(f"msrun: error: {problem}", file=sys.stderr, flush=True)
        return 1
    try:
        return _run(options)
    finally:
        if claim is not None:
            claim.close()


def _run(options):
    job = _Job()

    def on_signal(signal_number, frame):
        raise KeyboardInterrupt

    previous = {number: signal.signal(number, on_signal) for number in (signal.SIGINT, signal.SIGTERM)}
    try:
        job.start(options)
        failures = job.wait()
    except KeyboardInterrupt:
        print("msrun: interrupted; stopping all workers.", file=sys.stderr, flush=True)
        job.stop()
        return 130
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
    if not failures:
        job.stop_tails()
        return 0
    job.stop()
    (rank, status, log_path), later = failures[0], failures[1:]
    also = "".join(f" Afterwards worker {other} {_describe(other_status)} too." for other, other_status, _ in later)
    print(f"msrun: worker {rank} {_describe(status)}; all other workers were stopped.{also} The end of its log "
          f"{log_path}:\n{_log_tail(log_path)}", file=sys.stderr, flush=True)
    return 1


def main(argv=None):
    """The ``msrun`` console script."""
    return launch(parse_arguments(sys.argv[1:] if argv is None else argv))


__all__ = ["add_arguments", "parse_arguments", "launch", "main"]
