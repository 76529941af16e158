"""How records are placed in a shard's pages, as MindSpore's shard writer places them.

Each record has a raw part and a blob part, each stored with an 8-byte little-endian length
prefix. Records of one ``write_raw_data`` call that go to a shard are cut into row groups:
a group fills one blob page; a new group starts when the next record's blob part would
overflow the current blob page or its raw part would overflow the current raw page (then a
new raw page starts too). The first group of a call continues the shard's last blob page.
Blob pages created by a call take page ids before the raw pages it creates. A raw page lists
the groups it holds (``row_group_ids``: group id and byte offset); the first raw page a call
creates is numbered after the last raw page, later ones take their page id as number (what
MindSpore writes). Records larger than a page are refused, as MindSpore refuses them.
"""
import struct

from sporax.mindrecord.errors import MRMWriteDatasetError


class ShardLayout:
    """The pages of one shard being written: page table entries, and the bytes of the pages
    still being filled (the last blob page and the last raw page); a page that can no longer
    change goes to ``sink(page_id, data)`` at once, so memory holds two pages, not the file."""

    def __init__(self, shard_id, page_size, sink):
        self.shard_id = shard_id
        self.page_size = page_size
        self.sink = sink
        self.pages = []        # header entries, in page id order
        self.data = {}         # page id -> bytearray, for pages still open
        self.positions = []    # per record: the 8 index position columns
        self.index_values = []  # per record: values of the index fields

    def last(self, kind):
        for page in reversed(self.pages):
            if page["page_type"] == kind:
                return page
        return None

    def _new_page(self, kind, type_id, start_row):
        page = {"end_row_id": start_row if kind == "BLOB_DATA" else 0,
                "page_id": len(self.pages), "page_size": 0, "page_type": kind,
                "page_type_id": type_id,
                "row_group_ids": [{"id": 0, "offset": 0}] if kind == "BLOB_DATA" else [],
                "shard_id": self.shard_id,
                "start_row_id": start_row if kind == "BLOB_DATA" else 0}
        self.pages.append(page)
        self.data[page["page_id"]] = bytearray()
        return page

    def append(self, records):
        """Place ``records``: a list of (raw bytes, blob bytes, index values)."""
        records = [(struct.pack("<Q", len(raw)) + raw, struct.pack("<Q", len(blob)) + blob, values)
                   for raw, blob, values in records]
        for raw, blob, _ in records:
            if len(blob) > self.page_size or len(raw) > self.page_size:
                raise MRMWriteDatasetError(
                    f"Invalid data, Page size: {self.page_size} is too small to save a "
                    f"{'blob' if len(blob) > self.page_size else 'raw'} row. Please try to use "
                    "the mindrecord api 'set_page_size(value)' to enable larger page size, and "
                    "the value range is in [32768 bytes, 268435456 bytes].")
        groups = self._cut_groups(records)
        first_row = len(self.positions)
        # Blob pages: the first group continues the last blob page, each other group opens one.
        blob_pages = [self.last("BLOB_DATA")]
        for rows in groups[1:]:
            last = self.last("BLOB_DATA")
            type_id = 0 if last is None else last["page_type_id"] + 1
            blob_pages.append(self._new_page("BLOB_DATA", type_id, first_row + rows[0]))
        # Raw pages: a group goes whole into the last raw page if it fits, else into a new one;
        # the continued group, if it no longer fits, moves with its earlier rows to a new page.
        if groups[0]:
            self._make_room(sum(len(records[i][0]) for i in groups[0]))
        for k, (rows, blob_page) in enumerate(zip(groups, blob_pages)):
            if not rows:
                continue
            raw_page = self.last("RAW_DATA")
            size = sum(len(records[i][0]) for i in rows)
            if k > 0:
                if raw_page is None or raw_page["page_size"] + size > self.page_size:
                    raw_page = self._new_raw_page()
                raw_page["row_group_ids"].append({"id": blob_page["page_type_id"],
                                                  "offset": raw_page["page_size"]})
            self._place(records, rows, first_row, raw_page, blob_page)
        open_pages = {page["page_id"] for page in (self.last("BLOB_DATA"), self.last("RAW_DATA"))}
        for page_id in [p for p in self.data if p not in open_pages]:
            self.sink(page_id, bytes(self.data.pop(page_id)))

    def _new_raw_page(self):
        # MindSpore numbers a new raw page after the *page id* of the last raw page.
        last = self.last("RAW_DATA")
        return self._new_page("RAW_DATA", 0 if last is None else last["page_id"] + 1, 0)

    def _make_room(self, size):
        """Move the last raw page's last group to a new raw page when ``size`` more bytes of
        that group do not fit (MindSpore leaves the moved bytes behind, unreferenced)."""
        raw_page = self.last("RAW_DATA")
        if raw_page["page_size"] + size <= self.page_size:
            return
        group = raw_page["row_group_ids"].pop()
        old_id, offset = raw_page["page_id"], group["offset"]
        moved = bytes(self.data[old_id][offset:raw_page["page_size"]])
        raw_page["page_size"] = offset
        new_page = self._new_raw_page()
        new_page["row_group_ids"].append({"id": group["id"], "offset": 0})
        self.data[new_page["page_id"]] += moved
        new_page["page_size"] = len(moved)
        for n, position in enumerate(self.positions):
            if position[1] == old_id and position[2] >= offset:
                self.positions[n] = (position[0], new_page["page_id"], position[2] - offset,
                                     position[3] - offset) + position[4:]

    def _place(self, records, rows, first_row, raw_page, blob_page):
        raw_data = self.data[raw_page["page_id"]]
        blob_data = self.data[blob_page["page_id"]]
        for i in rows:
            raw, blob, values = records[i]
            self.positions.append((
                len(self.positions), raw_page["page_id"], len(raw_data), len(raw_data) + len(raw),
                blob_page["page_type_id"], blob_page["page_id"], len(blob_data),
                len(blob_data) + len(blob)))
            self.index_values.append(values)
            raw_data += raw
            blob_data += blob
        blob_page["end_row_id"] = first_row + rows[-1] + 1
        blob_page["page_size"] = len(blob_data)
        raw_page["page_size"] = len(raw_data)

    def _cut_groups(self, records):
        """Record numbers per row group; the first group (maybe empty) continues the last blob
        page. A group ends when the next record overflows the blob page or the group's raw
        bytes would exceed a page."""
        last_blob, last_raw = self.last("BLOB_DATA"), self.last("RAW_DATA")
        blob_used = 0 if last_blob is None else last_blob["page_size"]
        raw_used = 0
        if last_raw is not None and last_raw["row_group_ids"]:
            raw_used = last_raw["page_size"] - last_raw["row_group_ids"][-1]["offset"]
        groups = [[]]
        for i, (raw, blob, _) in enumerate(records):
            if blob_used == 0 or blob_used + len(blob) > self.page_size or \
                    raw_used + len(raw) > self.page_size:
                groups.append([])
                blob_used = raw_used = 0
            groups[-1].append(i)
            blob_used += len(blob)
            raw_used += len(raw)
        return groups

    def finish(self):
        """Hand every page still open to the sink."""
        for page_id in sorted(self.data):
            self.sink(page_id, bytes(self.data.pop(page_id)))
