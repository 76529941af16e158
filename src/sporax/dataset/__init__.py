"""``sporax.dataset``: MindSpore's data pipeline (``mindspore.dataset``), NumPy-based.

Sources and operations build a lazy graph; iterating it runs the graph with worker threads or
processes (see ``sporax.dataset.engine``).
"""
from sporax.dataset.core import config
from sporax.dataset.transforms.base import Implementation
from sporax.dataset.engine.batching import BatchInfo
from sporax.dataset.engine.cache_client import DatasetCache
from sporax.dataset.engine.datasets import Dataset, SourceDataset, VisionBaseDataset
from sporax.dataset.engine.datasets_mindrecord import MindDataset
from sporax.dataset.engine.datasets_standard_format import CSVDataset, TFRecordDataset
from sporax.dataset.engine.datasets_text import TextFileDataset
from sporax.dataset.engine.datasets_user_defined import (
    GeneratorDataset,
    NumpySlicesDataset,
    PaddedDataset,
)
from sporax.dataset.engine.datasets_vision import (
    Cifar10Dataset,
    Cifar100Dataset,
    FakeImageDataset,
    FashionMnistDataset,
    ImageFolderDataset,
    KMnistDataset,
    MnistDataset,
)
from sporax.dataset.engine.datasets_vision_annotated import (
    CelebADataset,
    CocoDataset,
    VOCDataset,
)
from sporax.dataset.engine.datasets_audio import (
    CMUArcticDataset,
    GTZANDataset,
    LibriTTSDataset,
    LJSpeechDataset,
    SpeechCommandsDataset,
    TedliumDataset,
    YesNoDataset,
)
from sporax.dataset.engine.datasets_matlab import Caltech101Dataset, Flowers102Dataset, SBDataset, SVHNDataset
from sporax.dataset.engine.datasets_vision_benchmarks import (
    CityscapesDataset,
    DIV2KDataset,
    FlickrDataset,
    KITTIDataset,
    ManifestDataset,
    PhotoTourDataset,
    WIDERFaceDataset,
)
from sporax.dataset.engine.datasets_translation import IWSLT2016Dataset, IWSLT2017Dataset, Multi30kDataset
from sporax.dataset.engine.datasets_text_corpora import (
    AGNewsDataset,
    AmazonReviewDataset,
    CLUEDataset,
    CoNLL2000Dataset,
    DBpediaDataset,
    EnWik9Dataset,
    IMDBDataset,
    PennTreebankDataset,
    SQuADDataset,
    SogouNewsDataset,
    SST2Dataset,
    UDPOSDataset,
    WikiTextDataset,
    YahooAnswersDataset,
    YelpReviewDataset,
)
from sporax.dataset.engine.datasets_array_images import EMnistDataset, QMnistDataset, SemeionDataset, STL10Dataset, USPSDataset
from sporax.dataset.engine.datasets_vision_corpora import (
    Caltech256Dataset,
    Food101Dataset,
    LFWDataset,
    LSUNDataset,
    OmniglotDataset,
    Places365Dataset,
    RenderedSST2Dataset,
    SBUDataset,
    SUN397Dataset,
)
from sporax.dataset.engine.datasets_cloud import OBSMindDataset
from sporax.dataset.engine.datasets_random import RandomDataset
from sporax.dataset.engine.iterators import DictIterator, TupleIterator
from sporax.dataset.engine.pipeline_inspection import compare, show
from sporax.dataset.engine.samplers import (
    DistributedSampler,
    PKSampler,
    RandomSampler,
    Sampler,
    SequentialSampler,
    Shuffle,
    SubsetRandomSampler,
    SubsetSampler,
    WeightedRandomSampler,
)
from sporax.dataset.engine.obs_sync import sync_wait_for_dataset
from sporax.dataset.engine.schema import Schema
from sporax.dataset.engine.serializer_deserializer import deserialize, serialize
from sporax.dataset.engine.sources import MappableDataset
# The callbacks build on sporax.callback_protocol (plain Python), never on sporax.train.
from sporax.dataset.callback.ds_callback import DSCallback, WaitedDSCallback





# Transform packages (written beside the engine); imported last because they may use the engine.
from sporax.dataset import text, transforms, vision  # noqa: E402


def zip(datasets):
    """Zip a tuple of datasets column-wise (``mindspore.dataset.zip``)."""
    if not isinstance(datasets, tuple) or len(datasets) < 2:
        raise TypeError("zip: datasets must be a tuple of at least two datasets.")
    return datasets[0].zip(datasets[1:])
from sporax.dataset import audio  # noqa: E402
