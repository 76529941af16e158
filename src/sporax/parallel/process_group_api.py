"""MindSpore 2.10's ``mindspore.ops.communication`` module as one namespace: the process-group API.

The same functions ``mindspore.ops`` exports (``process_group``, its messages and object functions), the list forms
of ``gather``/``scatter`` (``process_group_lists``; in ``mindspore.ops`` those names are the array ops) and
``TCPStore``. Served at MindSpore's path by ``sporax.compat``.

Example:
    >>> from sporax.parallel import process_group_api
    >>> process_group_api.get_world_size(), process_group_api.gather.__module__
    (1, 'sporax.parallel.process_group_lists')
"""
from sporax.parallel.process_group import *  # noqa: F401,F403 - the process-group API, every name
from sporax.parallel.process_group import __all__ as _process_group_names
from sporax.parallel.process_group_lists import gather, scatter
from sporax.parallel.tcp_store import TCPStore

__all__ = [*_process_group_names, "gather", "scatter", "TCPStore"]
