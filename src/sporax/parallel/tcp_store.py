"""``ops.TCPStore``: a key-value store that processes share over TCP (MindSpore 2.10's ``ops.communication.TCPStore``).

The master (``is_master=True``) serves the store from a background thread on ``host_name:port``;
every ``TCPStore`` (the master's too) is a client of it. ``set`` stores bytes (a str is encoded as
UTF-8), ``get`` waits until the key exists (at most the store's ``timeout``), ``add`` keeps an
integer counter, ``delete_key`` removes a key. The master waits, when ``wait_for_workers``, for the
``world_size - 1`` other stores to connect.

Wire format (big-endian): a request is ``op`` (1 byte: S, G, A, D, H), the key (u32 length + UTF-8)
and a value (u64 length + bytes); a reply is a status byte (``0`` ok, ``1`` error) and a payload (u64
length + bytes). Nothing is unpickled: values stay bytes.

Example:
    >>> from sporax import ops
    >>> store = ops.TCPStore("127.0.0.1", 0, is_master=True)  # port 0: any free port (store.port tells which)
    >>> store.set("first_key", "first_value")
    >>> store.get("first_key"), store.add("counter", 2), store.add("counter", 3)
    (b'first_value', 2, 5)
"""
import socket
import struct
import threading
import time
from datetime import timedelta

_HEADER = struct.Struct("!cI")
_LENGTH = struct.Struct("!Q")


def _receive_exactly(connection, size):
    data = bytearray()
    while len(data) < size:
        chunk = connection.recv(size - len(data))
        if not chunk:
            raise ConnectionError("the TCPStore connection closed")
        data.extend(chunk)
    return bytes(data)


def _send_message(connection, op, key, value):
    key = key.encode("utf-8")
    connection.sendall(_HEADER.pack(op, len(key)) + key + _LENGTH.pack(len(value)) + value)


def _receive_message(connection):
    op, key_length = _HEADER.unpack(_receive_exactly(connection, _HEADER.size))
    key = _receive_exactly(connection, key_length).decode("utf-8")
    (value_length,) = _LENGTH.unpack(_receive_exactly(connection, _LENGTH.size))
    return op, key, _receive_exactly(connection, value_length)


class _Server:
    """The store's data and the threads that serve it."""

    def __init__(self, host, port, timeout):
        self.items = {}
        self.changed = threading.Condition()
        self.clients = 0
        self.timeout = timeout
        self.listener = socket.create_server((host, port), reuse_port=False)
        self.port = self.listener.getsockname()[1]
        self.closed = False
        threading.Thread(target=self._accept, name="TCPStore-server", daemon=True).start()

    def _accept(self):
        while not self.closed:
            try:
                connection, _ = self.listener.accept()
            except OSError:  # the listener was closed
                return
            threading.Thread(target=self._serve, args=(connection,), name="TCPStore-client", daemon=True).start()

    def _serve(self, connection):
        with connection:
            while True:
                try:
                    op, key, value = _receive_message(connection)
                except (ConnectionError, OSError):
                    return
                status, payload = self._handle(op, key, value)
                connection.sendall(status + _LENGTH.pack(len(payload)) + payload)

    def _handle(self, op, key, value):
        with self.changed:
            if op == b"H":
                self.clients += 1
                self.changed.notify_all()
                return b"0", b""
            if op == b"S":
                self.items[key] = value
                self.changed.notify_all()
                return b"0", b""
            if op == b"G":
                if not self.changed.wait_for(lambda: key in self.items, float(value.decode() or self.timeout)):
                    return b"1", f"TCPStore.get: the key {key!r} did not appear within the timeout.".encode()
                return b"0", self.items[key]
            if op == b"A":
                try:
                    total = int(self.items.get(key, b"0")) + int(value)
                except ValueError:
                    return b"1", f"TCPStore.add: the value of {key!r} is not an integer.".encode()
                self.items[key] = str(total).encode()
                self.changed.notify_all()
                return b"0", self.items[key]
            if op == b"D":
                return b"0", b"1" if self.items.pop(key, None) is not None else b"0"
            return b"1", f"TCPStore: unknown request {op!r}.".encode()

    def wait_for_clients(self, count, timeout):
        with self.changed:
            return self.changed.wait_for(lambda: self.clients >= count, timeout)

    def close(self):
        self.closed = True
        self.listener.close()


class TCPStore:
    """A key-value store shared by processes over TCP.

    Args:
        host_name (str): the IP address the master serves on (and the others connect to).
        port (int): its port (0 on the master: any free port, see ``port``).
        world_size (int, optional): the number of stores (clients and master); ``None`` means 1.
        is_master (bool): serve the store from this process. Default: False.
        timeout (timedelta): how long to wait for the master, the workers, or a key. Default: 300 s.
        wait_for_workers (bool): the master waits for the ``world_size - 1`` others to connect. Default: True.
        multi_tenant, master_listen_fd, use_libuv: accepted, without effect (as in MindSpore 2.10).
    """

    def __init__(self, host_name, port, world_size=None, is_master=False, timeout=timedelta(seconds=300),
                 wait_for_workers=True, multi_tenant=False, master_listen_fd=None, use_libuv=True):
        if not isinstance(host_name, str):
            raise TypeError(f"For 'TCPStore', the argument 'host_name' must be type of string, but got 'host_name' "
                            f"type : {type(host_name)}.")
        for name, value, kind in (("port", port, int), ("is_master", is_master, bool), ("timeout", timeout, timedelta),
                                  ("wait_for_workers", wait_for_workers, bool)):
            if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
                raise TypeError(f"For 'TCPStore', the argument '{name}' must be type of {kind.__name__}, but got "
                                f"'{name}' type : {type(value)}.")
        world_size = 1 if world_size is None else world_size
        if isinstance(world_size, bool) or not isinstance(world_size, int):
            raise TypeError(f"For 'TCPStore', the argument 'world_size' must be type of int, but got {type(world_size)}.")
        if not 0 <= port <= 65535:
            raise ValueError(f"For 'TCPStore', the argument 'port' must be legal, but got {port}.")
        if world_size <= 0:
            raise ValueError(f"For 'TCPStore', the argument 'world_size' must be legal, but got {world_size}.")
        self._timeout = timeout.total_seconds()
        self._server = _Server(host_name, port, self._timeout) if is_master else None
        self.host = host_name
        self.port = self._server.port if is_master else port
        self._lock = threading.Lock()
        self._connection = self._connect()
        self._request(b"H", "", b"")
        if is_master and wait_for_workers and world_size > 1:
            if not self._server.wait_for_clients(world_size, self._timeout):
                raise RuntimeError(f"TCPStore: only {self._server.clients - 1} of the {world_size - 1} workers "
                                   f"connected to {host_name}:{self.port} within {self._timeout} s.")

    def _connect(self):
        deadline = time.monotonic() + self._timeout
        while True:
            try:
                return socket.create_connection((self.host, self.port), timeout=max(self._timeout, 1.0))
            except OSError as error:
                if time.monotonic() >= deadline:
                    raise RuntimeError(f"TCPStore: could not connect to the master store at {self.host}:{self.port} "
                                       f"within {self._timeout} s ({error}): start the store with is_master=True "
                                       f"there first.") from None
                time.sleep(0.05)

    def _request(self, op, key, value):
        with self._lock:
            _send_message(self._connection, op, key, value)
            status, = struct.unpack("!c", _receive_exactly(self._connection, 1))
            (length,) = _LENGTH.unpack(_receive_exactly(self._connection, _LENGTH.size))
            payload = _receive_exactly(self._connection, length)
        if status != b"0":
            raise RuntimeError(payload.decode("utf-8", "replace"))
        return payload

    @staticmethod
    def _key(method, key):
        if not isinstance(key, str):
            raise TypeError(f"For 'TCPStore.{method}', the argument 'key' must be type of string, but got 'key' type "
                            f": {type(key)}.")
        return key

    def set(self, key, value):
        """Store ``value`` (bytes, or a str stored as UTF-8) under ``key``."""
        if not isinstance(value, (str, bytes)):
            raise TypeError(f"For 'TCPStore.set', the argument 'value' must be type of string or bytes, but got "
                            f"'value' type : {type(value)}.")
        self._request(b"S", self._key("set", key), value.encode("utf-8") if isinstance(value, str) else value)

    def get(self, key):
        """The bytes stored under ``key``, waiting for them at most the store's timeout."""
        return self._request(b"G", self._key("get", key), str(self._timeout).encode())

    def add(self, key, amount):
        """Add ``amount`` to the integer counter ``key`` (created at 0); returns the new value."""
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise TypeError(f"For 'TCPStore.add', the argument 'amount' must be type of int, but got {type(amount)}.")
        return int(self._request(b"A", self._key("add", key), str(amount).encode()))

    def delete_key(self, key):
        """Remove ``key``; returns whether it was there."""
        return self._request(b"D", self._key("delete_key", key), b"") == b"1"

    def __del__(self):
        connection = getattr(self, "_connection", None)
        if connection is not None:
            connection.close()
        server = getattr(self, "_server", None)
        if server is not None:
            server.close()
