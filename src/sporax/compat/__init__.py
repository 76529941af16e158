"""MindSpore's import paths served from sporax: ``install()`` makes ``import mindspore...`` work."""
from sporax.compat.hook import (AliasModule, MindSporeAliasFinder, install, install_legacy_paths, is_installed,
                                uninstall)
from sporax.compat.table import ALIASES, canonical_name
