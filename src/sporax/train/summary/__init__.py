"""MindSpore summary files: ``SummaryRecord`` and the event-file encoding it writes."""
from sporax.train.summary.record import SummaryRecord
