"""ops.TCPStore: a master and workers sharing keys over TCP (each store in its own thread, as processes would)."""
import subprocess
import sys
import threading
from datetime import timedelta

import pytest

from sporax import ops
from tests.parallel.helpers import free_port


def test_set_get_add_delete_between_master_and_worker():
    master = ops.TCPStore("127.0.0.1", 0, is_master=True, timeout=timedelta(seconds=20))
    worker = ops.TCPStore("127.0.0.1", master.port, timeout=timedelta(seconds=20))
    master.set("name", "value")
    assert worker.get("name") == b"value"
    worker.set("raw", b"\x00\x01")
    assert master.get("raw") == b"\x00\x01"
    assert worker.add("count", 2) == 2 and master.add("count", 5) == 7
    assert worker.delete_key("name") is True and master.delete_key("name") is False


def test_get_waits_for_a_key_another_store_sets_later():
    master = ops.TCPStore("127.0.0.1", 0, is_master=True, timeout=timedelta(seconds=20))
    worker = ops.TCPStore("127.0.0.1", master.port, timeout=timedelta(seconds=20))
    threading.Timer(0.3, lambda: worker.set("late", "here")).start()
    assert master.get("late") == b"here"


@pytest.mark.slow
def test_master_waits_for_a_worker_process_and_a_missing_key_times_out():
    port = free_port()
    stores = {}
    master_thread = threading.Thread(target=lambda: stores.setdefault("master", ops.TCPStore(
        "127.0.0.1", port, world_size=2, is_master=True, timeout=timedelta(seconds=60))))
    master_thread.start()  # blocks until the worker process connected
    code = ("from datetime import timedelta; from sporax import ops; "
            f"s = ops.TCPStore('127.0.0.1', {port}, timeout=timedelta(seconds=60)); "
            "s.set('from_worker', 'hi'); print(s.add('n', 1))")
    process = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert process.returncode == 0, process.stderr
    assert process.stdout.strip().splitlines()[-1] == "1"
    master_thread.join(timeout=60)
    assert stores["master"].get("from_worker") == b"hi"
    quick = ops.TCPStore("127.0.0.1", port, timeout=timedelta(seconds=0.2))
    with pytest.raises(RuntimeError, match="did not appear"):
        quick.get("never_set")


def test_bad_arguments():
    with pytest.raises(TypeError, match="'port'"):
        ops.TCPStore("127.0.0.1", "1234")
    with pytest.raises(ValueError, match="'port'"):
        ops.TCPStore("127.0.0.1", 70000)
    with pytest.raises(RuntimeError, match="could not connect"):
        ops.TCPStore("127.0.0.1", 1, timeout=timedelta(seconds=0.1))
