"""MindSpore's module paths of sporax's dataset classes, for ``type(obj)`` under the ``mindspore`` names.

A script run through the import hook prints ``type(dataset)`` and sees MindSpore's path, as it would on
MindSpore: ``<class 'mindspore.dataset.engine.datasets_vision.MnistDataset'>``, not sporax's module. The
hook calls ``name_classes`` when it first serves a ``mindspore.dataset`` module (the classes are then
loaded) and ``restore_classes`` when it is uninstalled. Only ``__module__`` changes: methods keep their
own modules, and every path below is served by the hook, so a pickle by reference still loads.
"""
import importlib

# MindSpore 2.10's module of each class (recorded from ``type(obj).__module__``) -> sporax module -> names.
_MINDSPORE_PATHS = {
    "mindspore.dataset.engine.cache_client": {
        "sporax.dataset.engine.cache_client": ("DatasetCache",),
    },
    "mindspore.dataset.engine.datasets": {
        "sporax.dataset.engine.batching": ("BatchDataset", "BatchInfo", "BucketBatchByLengthDataset",
            "PaddedBatchDataset",),
        "sporax.dataset.engine.datasets": ("Dataset", "SourceDataset", "VisionBaseDataset",),
        "sporax.dataset.engine.mapping": ("MapDataset",),
        "sporax.dataset.engine.operations": ("ConcatDataset", "FilterDataset", "ProjectDataset",
            "RenameDataset", "RepeatDataset", "ShuffleDataset", "SkipDataset", "TakeDataset", "ZipDataset",),
        "sporax.dataset.engine.schema": ("Schema",),
        "sporax.dataset.engine.serializer_deserializer": ("DeserializedDataset",),
        "sporax.dataset.engine.sources": ("MappableDataset",),
        "sporax.dataset.engine.sync": ("SyncWaitDataset",),
        "sporax.dataset.engine.transfer": ("TransferDataset",),
    },
    "mindspore.dataset.engine.datasets_audio": {
        "sporax.dataset.engine.datasets_audio": ("CMUArcticDataset", "GTZANDataset", "LJSpeechDataset",
            "LibriTTSDataset", "SpeechCommandsDataset", "TedliumDataset", "YesNoDataset",),
    },
    "mindspore.dataset.engine.datasets_standard_format": {
        "sporax.dataset.engine.datasets_cloud": ("OBSMindDataset",),
        "sporax.dataset.engine.datasets_mindrecord": ("MindDataset",),
        "sporax.dataset.engine.datasets_standard_format": ("CSVDataset", "TFRecordDataset",),
    },
    "mindspore.dataset.engine.datasets_text": {
        "sporax.dataset.engine.datasets_text": ("TextFileDataset",),
        "sporax.dataset.engine.datasets_text_corpora": ("AGNewsDataset", "AmazonReviewDataset", "CLUEDataset",
            "CoNLL2000Dataset", "DBpediaDataset", "EnWik9Dataset", "IMDBDataset", "PennTreebankDataset",
            "SQuADDataset", "SST2Dataset", "SogouNewsDataset", "UDPOSDataset", "WikiTextDataset",
            "YahooAnswersDataset", "YelpReviewDataset",),
        "sporax.dataset.engine.datasets_translation": ("IWSLT2016Dataset", "IWSLT2017Dataset",
            "Multi30kDataset",),
    },
    "mindspore.dataset.engine.datasets_user_defined": {
        "sporax.dataset.engine.datasets_user_defined": ("GeneratorDataset", "NumpySlicesDataset",
            "PaddedDataset",),
    },
    "mindspore.dataset.engine.datasets_vision": {
        "sporax.dataset.engine.datasets_array_images": ("EMnistDataset", "QMnistDataset", "STL10Dataset",
            "SemeionDataset", "USPSDataset",),
        "sporax.dataset.engine.datasets_matlab": ("Caltech101Dataset", "Flowers102Dataset", "SBDataset",
            "SVHNDataset",),
        "sporax.dataset.engine.datasets_random": ("RandomDataset",),
        "sporax.dataset.engine.datasets_vision": ("Cifar100Dataset", "Cifar10Dataset", "FakeImageDataset",
            "FashionMnistDataset", "ImageFolderDataset", "KMnistDataset", "MnistDataset",),
        "sporax.dataset.engine.datasets_vision_annotated": ("CelebADataset", "CocoDataset", "VOCDataset",),
        "sporax.dataset.engine.datasets_vision_benchmarks": ("CityscapesDataset", "DIV2KDataset",
            "FlickrDataset", "KITTIDataset", "ManifestDataset", "PhotoTourDataset", "WIDERFaceDataset",),
        "sporax.dataset.engine.datasets_vision_corpora": ("Caltech256Dataset", "Food101Dataset", "LFWDataset",
            "LSUNDataset", "OmniglotDataset", "Places365Dataset", "RenderedSST2Dataset", "SBUDataset",
            "SUN397Dataset",),
    },
    "mindspore.dataset.engine.iterators": {
        "sporax.dataset.engine.iterators": ("DictIterator", "TupleIterator",),
    },
    "mindspore.dataset.engine.samplers": {
        "sporax.dataset.engine.samplers": ("BuiltinSampler", "DistributedSampler", "PKSampler",
            "RandomSampler", "Sampler", "SequentialSampler", "Shuffle", "SubsetRandomSampler", "SubsetSampler",
            "WeightedRandomSampler",),
    },
}

_original = {}  # class -> its sporax __module__, while it is renamed


def name_classes():
    """Give each class of the table MindSpore's module path (idempotent)."""
    if _original:
        return
    for mindspore_module, homes in _MINDSPORE_PATHS.items():
        for sporax_module, names in homes.items():
            module = importlib.import_module(sporax_module)
            for name in names:
                cls = getattr(module, name)
                _original.setdefault(cls, cls.__module__)
                cls.__module__ = mindspore_module


def restore_classes():
    """Undo ``name_classes``."""
    for cls, module in _original.items():
        cls.__module__ = module
    _original.clear()
