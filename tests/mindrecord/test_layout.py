"""ShardLayout keeps only the pages it can still change in memory."""
from sporax.mindrecord.layout import ShardLayout

PAGE = 1 << 15


def test_full_pages_go_to_the_sink_at_once():
    written = {}
    layout = ShardLayout(0, PAGE, lambda page_id, data: written.__setitem__(page_id, data))
    for batch in range(5):
        layout.append([(b"r" * 100, bytes([batch]) * 9000, [batch]) for _ in range(4)])
        assert len(layout.data) <= 2  # the last blob page and the last raw page
    assert len(written) >= 5
    layout.finish()
    assert not layout.data
    assert sorted(written) == list(range(len(layout.pages)))
    for page in layout.pages:
        assert len(written[page["page_id"]]) == page["page_size"]
    # every record's blob part is where the index says, behind its 8-byte length prefix
    for _, _, _, _, _, blob_page, start, end in layout.positions:
        assert written[blob_page][start:start + 8] == (9000).to_bytes(8, "little")
        assert end - start == 9008
