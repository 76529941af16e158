"""Helpers of the multi-process tests."""
import socket


def free_port():
    """A TCP port nobody listens on now (for a launched job's coordination service)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]
