"""MindSpore's logging API (``mindspore.log``) on Python's :mod:`logging`.

Contract: ``debug``/``info``/``warning``/``error``/``critical`` write MindSpore-formatted lines

    [WARNING] ME(pid:thread_id,ProcessName):2026-01-02-03:04:05.678.901 [path/to/file.py:12] message

configured, as MindSpore does, from environment variables read when the logger is first used:

- ``GLOG_v``: the level, 0 DEBUG, 1 INFO, 2 WARNING (default), 3 ERROR, 4 CRITICAL;
- ``GLOG_logtostderr``: 1 (default) prints to stderr; 0 writes to
  ``$GLOG_log_dir/rank_$RANK_ID/logs/mindspore.log.<pid>`` (a rotating file, 50 MiB x 30) and prints
  to stderr only records at or above ``GLOG_stderrthreshold`` (default 2);
- ``GLOG_log_dir``: required when ``GLOG_logtostderr`` is 0.

``get_level()`` returns the level as the string MindSpore returns (``'2'``), ``get_log_config()`` the
resolved configuration dictionary. An invalid value raises ``ValueError`` naming the variable.

Example:
    >>> from sporax import log as logger
    >>> logger.warning("loss is %s", 0.5)   # doctest: +SKIP
"""
import datetime
import logging
import os
import sys
import threading
from logging.handlers import RotatingFileHandler

MAX_BYTES = 50 * 1024 * 1024
BACKUP_COUNT = 30
# MindSpore's GLOG_v numbers -> Python logging levels.
_LEVELS = {0: logging.DEBUG, 1: logging.INFO, 2: logging.WARNING, 3: logging.ERROR, 4: logging.CRITICAL}
_LEVEL_HELP = "desired log level: 4-CRITICAL, 3-ERROR, 2-WARNING, 1-INFO, 0-DEBUG"
_PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

_logger = None
_config = None
_lock = threading.Lock()


class _MindSporeFormatter(logging.Formatter):
    """Formats a record as MindSpore's Python logger does."""

    def format(self, record):
        stamp = datetime.datetime.fromtimestamp(record.created)
        when = stamp.strftime("%Y-%m-%d-%H:%M:%S") + ".%03d.%03d" % (stamp.microsecond // 1000,
                                                                     stamp.microsecond % 1000)
        path = record.pathname
        if path.startswith(_PACKAGE_ROOT + os.sep):
            path = os.path.relpath(path, _PACKAGE_ROOT)
        line = (f"[{record.levelname}] ME({record.process}:{record.thread},{record.processName}):{when} "
                f"[{path}:{record.lineno}] {record.getMessage()}")
        if record.exc_info:
            line += "\n" + self.formatException(record.exc_info)
        return line


def _parse_level(variable, default):
    raw = os.environ.get(variable, str(default))
    try:
        value = int(raw)
    except ValueError:
        value = -1
    if value not in _LEVELS:
        raise ValueError(f"Incorrect log level, please check the configuration of {variable}, {_LEVEL_HELP}. "
                         f"But got {raw!r}.")
    return value


def _read_config():
    """Resolve the configuration from the GLOG_* environment variables."""
    config = {"GLOG_v": str(_parse_level("GLOG_v", 2))}
    to_stderr = os.environ.get("GLOG_logtostderr", "1")
    if to_stderr not in ("0", "1"):
        raise ValueError(f"Incorrect value of GLOG_logtostderr: expected 0 or 1, but got {to_stderr!r}.")
    config["GLOG_logtostderr"] = to_stderr
    if to_stderr == "0":
        log_dir = os.environ.get("GLOG_log_dir", "")
        if not log_dir:
            raise ValueError("When GLOG_logtostderr is set to 0, the directory of saving log GLOG_log_dir must be "
                             "set, but got it empty.")
        rank = os.environ.get("RANK_ID", "0")
        config["GLOG_log_dir"] = os.path.join(os.path.realpath(log_dir), f"rank_{rank}", "logs")
        config["logger_maxBytes"] = MAX_BYTES
        config["logger_backupCount"] = BACKUP_COUNT
        config["GLOG_stderrthreshold"] = str(_parse_level("GLOG_stderrthreshold", 2))
    return config


def _get_logger():
    """Create (once) and return the logger configured from the environment."""
    global _logger, _config
    if _logger is not None:
        return _logger
    with _lock:
        if _logger is not None:
            return _logger
        config = _read_config()
        logger = logging.getLogger(f"ME.mindspore.log.{os.getpid()}")
        logger.propagate = False
        logger.setLevel(_LEVELS[int(config["GLOG_v"])])
        formatter = _MindSporeFormatter()
        console = logging.StreamHandler(sys.stderr)
        console.setFormatter(formatter)
        if config["GLOG_logtostderr"] == "0":
            console.setLevel(_LEVELS[int(config["GLOG_stderrthreshold"])])
            os.makedirs(config["GLOG_log_dir"], mode=0o700, exist_ok=True)
            path = os.path.join(config["GLOG_log_dir"], f"mindspore.log.{os.getpid()}")
            to_file = RotatingFileHandler(path, maxBytes=MAX_BYTES, backupCount=BACKUP_COUNT)
            to_file.setFormatter(formatter)
            logger.addHandler(to_file)
        logger.addHandler(console)
        _config = config
        _logger = logger
    return _logger


def _log(level, msg, args, kwargs):
    # stacklevel 3: the caller of debug()/info()/..., past _log and the public function.
    kwargs.setdefault("stacklevel", 3)
    _get_logger().log(level, msg, *args, **kwargs)


def debug(msg, *args, **kwargs):
    """Log a message at DEBUG level (shown when ``GLOG_v=0``)."""
    _log(logging.DEBUG, msg, args, kwargs)


def info(msg, *args, **kwargs):
    """Log a message at INFO level (shown when ``GLOG_v<=1``)."""
    _log(logging.INFO, msg, args, kwargs)


def warning(msg, *args, **kwargs):
    """Log a message at WARNING level (shown by default, ``GLOG_v<=2``)."""
    _log(logging.WARNING, msg, args, kwargs)


def error(msg, *args, **kwargs):
    """Log a message at ERROR level."""
    _log(logging.ERROR, msg, args, kwargs)


def critical(msg, *args, **kwargs):
    """Log a message at CRITICAL level."""
    _log(logging.CRITICAL, msg, args, kwargs)


def get_level():
    """Return the current level as MindSpore's string: ``'0'`` DEBUG ... ``'4'`` CRITICAL."""
    level = _get_logger().getEffectiveLevel()
    return str(next(number for number, python_level in _LEVELS.items() if python_level == level))


def get_log_config():
    """Return the logging configuration: GLOG_v, GLOG_logtostderr and, for file logging, the directory,
    rotation sizes and the stderr threshold."""
    _get_logger()
    return dict(_config)


class _LogActionOnce:
    """Decorator: the warnings a function logs through ``logger`` are shown on its first call only.

    Every decorator built with the same ``key`` shares one "already shown" mark (libraries decorate
    many constructors with one key so a deprecation warning appears once per process). With
    ``no_warning=True`` the function's warnings are never shown. A ``logger`` without a ``warning``
    attribute leaves the function unchanged.

    Example:
        >>> from mindspore import log as logger
        >>> from mindspore.log import _LogActionOnce
        >>> @_LogActionOnce(logger=logger, key="demo")
        ... def build():
        ...     logger.warning("shown on the first call only")
    """

    is_logged = {}

    def __init__(self, logger, key, no_warning=False):
        self.logger = logger
        self.key = key
        self.no_warning = no_warning

    def __call__(self, func):
        def wrapper(*args, **kwargs):
            if not hasattr(self.logger, "warning"):
                return func(*args, **kwargs)
            if not (self.no_warning or self.key in _LogActionOnce.is_logged):
                _LogActionOnce.is_logged[self.key] = True
                return func(*args, **kwargs)
            original = self.logger.warning
            self.logger.warning = lambda *unused_args, **unused_kwargs: None
            try:
                return func(*args, **kwargs)
            finally:
                self.logger.warning = original

        return wrapper
