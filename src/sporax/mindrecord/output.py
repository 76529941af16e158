"""Where a shard's pages go while it is written: a temporary file renamed over the shard at
commit, or (appending) the shard file itself, written in place as MindSpore does.

Pages are written at their fixed offsets (``header_size + page_id * page_size``) as soon as
they are complete; the gaps stay holes (they read as zeros), so a shard costs the disk only
its data. The header goes in last, at offset 0. A writer dropped without commit removes its
temporary files; those of a killed writer are removed by the next write or read of the shard
(``sporax.temporary_files``).
"""
import os
import weakref

from sporax import temporary_files


def _discard(handle, temporary):
    handle.close()
    if temporary is not None:
        temporary_files.discard(temporary)


class ShardOutput:
    """The file a shard is being written to."""

    def __init__(self, path, header_size, page_size, in_place=False):
        self.path, self.header_size, self.page_size = path, header_size, page_size
        self.in_place = in_place
        if in_place:
            self.target, self.handle = path, open(path, "r+b")
        else:
            temporary_files.remove_stale(path)
            self.handle, self.target = temporary_files.create(path)
        self._cleanup = weakref.finalize(self, _discard, self.handle,
                                         None if in_place else self.target)

    def write_page(self, page_id, data):
        self.handle.seek(self.header_size + page_id * self.page_size)
        self.handle.write(data)

    def commit(self, header_bytes):
        """Write the header, make the file durable and put it in place."""
        self.handle.seek(0)
        self.handle.write(header_bytes)
        self.handle.flush()
        os.fsync(self.handle.fileno())
        self._cleanup.detach()
        if not self.in_place:
            os.replace(self.target, self.path)  # under the lock: a cleaner never sees it unlocked
        self.handle.close()
        os.chmod(self.path, 0o600)
