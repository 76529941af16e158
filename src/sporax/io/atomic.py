"""Atomic file writes and background saves: a reader always sees the old file or the new one."""
import atexit
import os
import threading

from sporax import temporary_files


def write_atomic(path, data, mode=0o400):
    """Write ``data`` to ``path`` through a temporary file in the same folder, fsync and rename.

    Temporary files that killed earlier writes of ``path`` left behind are removed first.
    """
    folder = os.path.dirname(os.path.abspath(path))
    temporary_files.remove_stale(path)
    handle, temporary = temporary_files.create(path)
    try:
        with handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
            os.chmod(temporary, mode)
            os.replace(temporary, path)  # under the lock: a cleaner never sees it unlocked
    except BaseException:
        temporary_files.discard(temporary)
        raise
    try:  # make the rename itself durable
        directory = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)
    except OSError:
        pass


class _BackgroundSaves:
    """At most one save runs in the background; the next save and process exit wait for it."""

    def __init__(self):
        self._thread = None
        self._error = None
        atexit.register(self.wait)

    def wait(self):
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.join()
        error, self._error = self._error, None
        if error is not None:
            raise error

    def start(self, function, *args):
        self.wait()

        def run():
            try:
                function(*args)
            except BaseException as error:  # reported by the next wait()
                self._error = error

        self._thread = threading.Thread(target=run, name="sporax-async-save", daemon=False)
        self._thread.start()


background_saves = _BackgroundSaves()
