"""Dataset callbacks (``mindspore.dataset.callback``)."""
from sporax.dataset.callback.ds_callback import DSCallback, DSRunContext, WaitedDSCallback
