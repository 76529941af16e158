"""The backend's own context object (``mindspore._c_expression.MSContext``) and its process queries.

Libraries ask MindSpore's C++ context which Ascend chip they run on, and whether this process is a
node restarted by fault recovery. Off Ascend MindSpore 2.10 answers an empty SoC version and False;
sporax, which runs no Ascend chip, answers the same everywhere.

Example:
    >>> from sporax.core.backend_context import MSContext, is_reboot_node
    >>> MSContext.get_instance().get_ascend_soc_version(), is_reboot_node()
    ('', False)
"""
class MSContext:
    """The process's context singleton: ``MSContext.get_instance()``; reads the settings of ``set_context``."""

    _instance = None

    @classmethod
    def get_instance(cls):
        """The one context object of the process."""
        if cls._instance is None:
            cls._instance = cls()
        return cls._instance

    def get_ascend_soc_version(self):
        """The Ascend SoC name ('ascend910b' ...); '' when not running on Ascend, as here."""
        return ""


def is_reboot_node():
    """Whether fault recovery restarted this process; False: sporax restarts no nodes."""
    return False


def swap_cache(host, device, block_mapping, is_device_to_host):
    """Swap PagedAttention key/value cache blocks between host and device: Ascend only in MindSpore 2.10."""
    raise NotImplementedError("swap_cache: swapping PagedAttention cache blocks between host and Ascend device "
                              "memory is an Ascend inference service of MindSpore 2.10; sporax has none.")
