"""Small synthetic data sets, in the on-disk formats the model zoo's scripts read, that a model can learn.

Each class has its own mean colour/pattern plus noise, so a few steps of training lower the loss.
"""
import json
import os

import numpy as np
from PIL import Image


def _images(count, size, classes, seed):
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, classes, count)
    palette = np.random.default_rng(1234).uniform(30, 225, (classes, 3))  # the same classes in every split
    base = np.empty((count, size, size, 3))
    for index, label in enumerate(labels):
        stripe = np.zeros((size, size, 1))
        stripe[:, (label * size) // classes: ((label + 1) * size) // classes] = 60.0
        base[index] = palette[label] + stripe
    images = np.clip(base + rng.normal(0, 20, base.shape), 0, 255).astype(np.uint8)
    return images, labels.astype(np.uint8)


def write_cifar10_binary(directory, train_count=64, test_count=32, seed=0):
    """CIFAR-10 binary version: data_batch_1.bin and test_batch.bin (1 label byte + 3072 CHW bytes per image)."""
    os.makedirs(directory, exist_ok=True)
    for name, count, offset in (("data_batch_1.bin", train_count, 0), ("test_batch.bin", test_count, 1)):
        images, labels = _images(count, 32, 10, seed + offset)
        records = np.concatenate([labels[:, None], images.transpose(0, 3, 1, 2).reshape(count, -1)], axis=1)
        records.astype(np.uint8).tofile(os.path.join(directory, name))
    return directory


def write_image_folder(directory, classes=4, per_class=8, size=40, seed=0):
    """An ImageFolder tree: <directory>/<class name>/<n>.JPEG."""
    images, labels = _images(classes * per_class, size, classes, seed)
    for index, (image, label) in enumerate(zip(images, labels)):
        folder = os.path.join(directory, f"class_{label:02d}")
        os.makedirs(folder, exist_ok=True)
        Image.fromarray(image).save(os.path.join(folder, f"{index:04d}.JPEG"), quality=95)
    return directory


def write_imdb_mindrecord(directory, embed_size=16, train_count=64, test_count=32, vocab=40, length=500, seed=0):
    """The LSTM script's preprocessed IMDB: aclImdb_{train,test}.mindrecord0..3 (FileWriter, 4 shards, schema
    id/label/feature[-1]) and weight.txt (the embedding table). Positive reviews use the lower half
    of the vocabulary more often, negative ones the upper half."""
    from sporax.mindrecord import FileWriter
    os.makedirs(directory, exist_ok=True)
    rng = np.random.default_rng(seed)
    np.savetxt(os.path.join(directory, "weight.txt"), rng.normal(0, 1, (vocab, embed_size)).astype(np.float32))
    schema = {"id": {"type": "int32"}, "label": {"type": "int32"}, "feature": {"type": "int32", "shape": [-1]}}
    for name, count in (("aclImdb_train.mindrecord", train_count), ("aclImdb_test.mindrecord", test_count)):
        rows = []
        for index in range(count):
            label = int(rng.integers(0, 2))
            half = vocab // 2
            common = rng.integers(half * label, half * (label + 1), length)
            noise = rng.integers(0, vocab, length)
            feature = np.where(rng.random(length) < 0.6, common, noise).astype(np.int32)
            rows.append({"id": index, "label": label, "feature": feature})
        writer = FileWriter(os.path.join(directory, name), shard_num=4)
        writer.add_schema(schema, "nlp_schema")
        writer.add_index(["id", "label"])
        writer.write_raw_data(rows)
        writer.commit()
    return directory


def write_criteo_mindrecord(directory, vocab=200, train_rows=11, test_rows=3, line_per_sample=1000, seed=0):
    """DeepFM's preprocessed Criteo: train_input_part.mindrecord00.. (11 shards) and test_input_part.mindrecord0..
    (3 shards), each row ``line_per_sample`` samples of 39 fields (feat_ids int32, feat_vals and label
    float32, flattened). A sample clicks when most of its first 9 fields have ids in the lower half."""
    from sporax.mindrecord import FileWriter
    os.makedirs(directory, exist_ok=True)
    rng = np.random.default_rng(seed)
    schema = {"label": {"type": "float32", "shape": [-1]}, "feat_vals": {"type": "float32", "shape": [-1]},
              "feat_ids": {"type": "int32", "shape": [-1]}}
    for name, rows, shards in (("train_input_part.mindrecord", train_rows, 11),
                               ("test_input_part.mindrecord", test_rows, 3)):
        writer = FileWriter(os.path.join(directory, name), shards)
        writer.add_schema(schema, "CRITEO")
        data = []
        for _ in range(rows):
            ids = rng.integers(0, vocab, (line_per_sample, 39)).astype(np.int32)
            values = rng.uniform(0.5, 1.0, (line_per_sample, 39)).astype(np.float32)
            label = ((ids[:, :9] < vocab // 2).mean(axis=1) > 0.5).astype(np.float32)
            data.append({"label": label, "feat_vals": values.reshape(-1), "feat_ids": ids.reshape(-1)})
        writer.write_raw_data(data)
        writer.commit()
    return directory


def write_token_mindrecord(directory, count=32, seq_length=16, vocab=50, seed=0):
    """GPT's pre-processed corpus: ``<directory>/corpus.mindrecord`` with one ``input_ids`` row (int32, length
    ``seq_length + 1``) per sample, as src/pre_process.py writes. The text repeats a short pattern per row,
    so the next token is predictable."""
    from sporax.mindrecord import FileWriter
    os.makedirs(directory, exist_ok=True)
    rng = np.random.default_rng(seed)
    writer = FileWriter(os.path.join(directory, "corpus.mindrecord"), 1)
    writer.add_schema({"input_ids": {"type": "int32", "shape": [-1]}}, "gpt")
    rows = []
    for _ in range(count):
        start, step = rng.integers(0, vocab), rng.integers(1, 4)
        rows.append({"input_ids": ((start + step * np.arange(seq_length + 1)) % vocab).astype(np.int32)})
    writer.write_raw_data(rows)
    writer.commit()
    return directory


def write_text_lines(directory, train_count=32, test_count=16, width=100, height=32, seed=0):
    """CRNN's "synth" layout: lexicon.txt (one word a line), annotation_train.txt and annotation_test.txt
    (``<image name> <lexicon index>`` a line) and the PNG images. Each word is drawn as one dark bar per
    character whose height follows the character's index in the alphabet, so the text can be read back."""
    alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
    os.makedirs(directory, exist_ok=True)
    rng = np.random.default_rng(seed)
    words = ["".join(rng.choice(list(alphabet), rng.integers(3, 7))) for _ in range(8)]
    with open(os.path.join(directory, "lexicon.txt"), "w") as handle:
        handle.write("\n".join(words) + "\n")
    for split, count in (("train", train_count), ("test", test_count)):
        lines = []
        for index in range(count):
            word_index = int(rng.integers(0, len(words)))
            image = np.full((height, width, 3), 230.0)
            step = width // (len(words[word_index]) + 1)
            for position, character in enumerate(words[word_index]):
                bar = 4 + (alphabet.index(character) * (height - 8)) // len(alphabet)
                image[height - 4 - bar:height - 4, step * position + 4: step * position + 4 + step // 2] = 30.0
            image = np.clip(image + rng.normal(0, 10, image.shape), 0, 255).astype(np.uint8)
            name = f"{split}_{index:04d}.png"
            Image.fromarray(image).save(os.path.join(directory, name))
            lines.append(f"{name} {word_index}")
        with open(os.path.join(directory, f"annotation_{split}.txt"), "w") as handle:
            handle.write("\n".join(lines) + "\n")
    return directory


def _box_scenes(count, size, classes, seed):
    """``count`` JPEG-encoded (size x size) scenes, each with 1-2 filled rectangles of a per-class colour, and
    their boxes as (n, 5) int32 rows ``[y_min, x_min, y_max, x_max, class]`` (classes from 1)."""
    import io
    rng = np.random.default_rng(seed)
    palette = np.random.default_rng(4321).uniform(40, 215, (classes + 1, 3))
    scenes = []
    for _ in range(count):
        image = np.full((size, size, 3), 128.0) + rng.normal(0, 8, (size, size, 3))
        boxes = []
        for _ in range(int(rng.integers(1, 3))):
            label = int(rng.integers(1, classes + 1))
            height, width = rng.integers(size // 4, size // 2, 2)
            top, left = rng.integers(0, size - height), rng.integers(0, size - width)
            image[top:top + height, left:left + width] = palette[label]
            boxes.append([top, left, top + height, left + width, label])
        buffer = io.BytesIO()
        Image.fromarray(np.clip(image, 0, 255).astype(np.uint8)).save(buffer, format="JPEG", quality=95)
        scenes.append((buffer.getvalue(), np.array(boxes, np.int32)))
    return scenes


def write_icdar(directory, count=4, size=96, seed=0):
    """ICDAR-style text detection (DeepText's imgs_path/annos_path): images/img_N.jpg and
    annotations/gt_img_N.txt, one ``x1,y1,x2,y2,text`` line per box."""
    images, annotations = os.path.join(directory, "images"), os.path.join(directory, "annotations")
    os.makedirs(images, exist_ok=True)
    os.makedirs(annotations, exist_ok=True)
    for index, (image, boxes) in enumerate(_box_scenes(count, size, 1, seed), start=1):
        with open(os.path.join(images, f"img_{index}.jpg"), "wb") as handle:
            handle.write(image)
        with open(os.path.join(annotations, f"gt_img_{index}.txt"), "w") as handle:
            handle.writelines(f"{left},{top},{right},{bottom},text\n" for top, left, bottom, right, _ in boxes)
    return images, annotations


def write_box_mindrecord(path, count=8, size=96, classes=3, seed=0):
    """RetinaNet's detection MindRecord (as its create_data.py writes ``retinanet.mindrecord0``): one file,
    schema img_id int32[1], image bytes (JPEG), annotation int32[-1, 5] (``[y_min, x_min, y_max, x_max,
    class]`` rows)."""
    from sporax.mindrecord import FileWriter
    os.makedirs(os.path.dirname(path), exist_ok=True)
    writer = FileWriter(path, 1)
    writer.add_schema({"img_id": {"type": "int32", "shape": [1]}, "image": {"type": "bytes"},
                       "annotation": {"type": "int32", "shape": [-1, 5]}}, "retinanet_json")
    rows = [{"img_id": np.array([index], np.int32), "image": image, "annotation": boxes}
            for index, (image, boxes) in enumerate(_box_scenes(count, size, classes, seed))]
    writer.write_raw_data(rows)
    writer.commit()
    return path


def write_coco(directory, splits=(("train2017", 8), ("val2017", 4)), size=96, names=("person", "bicycle", "car"),
               seed=0):
    """A COCO 2017 tree: ``<directory>/<split>/<id>.jpg`` and ``annotations/instances_<split>.json`` (images,
    ``bbox`` [x, y, width, height] annotations with area/iscrowd/a rectangle segmentation, categories
    ``names`` with ids 1, 2, ...)."""
    import json
    os.makedirs(os.path.join(directory, "annotations"), exist_ok=True)
    classes = len(names)
    categories = [{"id": index, "name": name, "supercategory": "thing"} for index, name in enumerate(names, 1)]
    next_id = 1
    for offset, (split, count) in enumerate(splits):
        os.makedirs(os.path.join(directory, split), exist_ok=True)
        images, annotations = [], []
        for index, (jpeg, boxes) in enumerate(_box_scenes(count, size, classes, seed + offset)):
            image_id = offset * 1000 + index + 1
            name = f"{image_id:012d}.jpg"
            with open(os.path.join(directory, split, name), "wb") as handle:
                handle.write(jpeg)
            images.append({"id": image_id, "file_name": name, "height": size, "width": size})
            for top, left, bottom, right, label in boxes.tolist():
                width, height = right - left, bottom - top
                annotations.append({"id": next_id, "image_id": image_id, "category_id": label, "iscrowd": 0,
                                    "bbox": [left, top, width, height], "area": width * height,
                                    "segmentation": [[left, top, right, top, right, bottom, left, bottom]]})
                next_id += 1
        with open(os.path.join(directory, "annotations", f"instances_{split}.json"), "w") as handle:
            json.dump({"images": images, "annotations": annotations, "categories": categories}, handle)
    return directory


def write_div2k(directory, scale=2, count=(4, 2), size=48, seed=0):
    """DIV2K's layout for a super-resolution scale: ``DIV2K_<split>_HR/<id>.png`` and
    ``DIV2K_<split>_LR_bicubic/X<scale>/<id>x<scale>.png`` (the HR image downsampled by ``scale``), for the
    train and valid splits. The images are smooth colour gradients with a few bars, so they can be
    upsampled well."""
    rng = np.random.default_rng(seed)
    for split, number in zip(("train", "valid"), count):
        high = os.path.join(directory, f"DIV2K_{split}_HR")
        low = os.path.join(directory, f"DIV2K_{split}_LR_bicubic", f"X{scale}")
        os.makedirs(high, exist_ok=True)
        os.makedirs(low, exist_ok=True)
        for index in range(number):
            rows, columns = np.mgrid[0:size, 0:size] / size
            colour = rng.uniform(40, 215, (3, 3))
            image = colour[0] + np.stack([rows, columns, rows * columns], -1) * (colour[1] - colour[0])
            image[:, int(rng.integers(0, size - 8)):][:, :6] = colour[2]
            picture = Image.fromarray(np.clip(image, 0, 255).astype(np.uint8))
            key = f"{index + 1:04d}"
            picture.save(os.path.join(high, f"{key}.png"))
            picture.resize((size // scale, size // scale), Image.BICUBIC).save(os.path.join(low, f"{key}x{scale}.png"))
    return directory


def write_shapenet_part(directory, category="Chair", synset="03001627", train_count=4, test_count=4, points=300,
                        parts=4, seed=0):
    """ShapeNet part segmentation (shapenetcore_partanno_segmentation_benchmark_v0): synsetoffset2category.txt,
    train_test_split/shuffled_{train,test}_file_list.json and <synset>/points/<uuid>.pts (x y z per line) with
    <synset>/points_label/<uuid>.seg (part 1..parts per line). Each part is a blob around its own centre."""
    rng = np.random.default_rng(seed)
    os.makedirs(os.path.join(directory, "train_test_split"), exist_ok=True)
    for kind in ("points", "points_label"):
        os.makedirs(os.path.join(directory, synset, kind), exist_ok=True)
    with open(os.path.join(directory, "synsetoffset2category.txt"), "w") as handle:
        handle.write(f"{category}\t{synset}\n")
    centres = np.random.default_rng(1234).uniform(-1, 1, (parts, 3))
    for split, count in (("train", train_count), ("test", test_count)):
        names = []
        for index in range(count):
            uuid = f"{split}{index:04d}"
            labels = rng.integers(1, parts + 1, points)
            xyz = centres[labels - 1] + rng.normal(0, 0.15, (points, 3))
            np.savetxt(os.path.join(directory, synset, "points", uuid + ".pts"), xyz, fmt="%.5f")
            np.savetxt(os.path.join(directory, synset, "points_label", uuid + ".seg"), labels, fmt="%d")
            names.append(f"shape_data/{synset}/{uuid}")
        with open(os.path.join(directory, "train_test_split", f"shuffled_{split}_file_list.json"), "w") as handle:
            json.dump(names, handle)
    return directory


def write_modelnet_resampled(directory, classes=("chair", "desk"), per_class=2, points=1024, seed=0):
    """ModelNet10 normal-resampled: modelnet10_shape_names.txt, modelnet10_{train,test}.txt (shape ids such as
    chair_0001) and <class>/<id>.txt with ``x,y,z,nx,ny,nz`` per line. The script reads modelnet10 files when
    run with ``--num_category=10``; each class is a differently stretched blob."""
    rng = np.random.default_rng(seed)
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, "modelnet10_shape_names.txt"), "w") as handle:
        handle.write("".join(name + "\n" for name in classes))
    for split, offset in (("train", 0), ("test", per_class)):
        ids = []
        for label, name in enumerate(classes):
            os.makedirs(os.path.join(directory, name), exist_ok=True)
            for index in range(per_class):
                shape_id = f"{name}_{offset + index + 1:04d}"
                xyz = rng.normal(0, 1, (points, 3)) * np.array([1.0 + label, 1.0, 0.5])
                normals = xyz / np.linalg.norm(xyz, axis=1, keepdims=True)
                np.savetxt(os.path.join(directory, name, shape_id + ".txt"), np.hstack([xyz, normals]),
                           fmt="%.5f", delimiter=",")
                ids.append(shape_id)
        with open(os.path.join(directory, f"modelnet10_{split}.txt"), "w") as handle:
            handle.write("".join(shape_id + "\n" for shape_id in ids))
    return directory


def write_melgan_pairs(directory, count=2, frames=20, hop=256, mels=80, rate=22050, seed=0):
    """MelGAN's training pairs: <directory>/wav/<n>.wav (16-bit PCM) and, where the loader looks for it (the path
    with 'wav' replaced by 'mel' and the extension by .npy), <directory>/mel/<n>.npy, an (80, frames) float32
    log-magnitude spectrogram of the same tone (the script maps it with (mel + 5) / 5)."""
    from scipy.io import wavfile
    rng = np.random.default_rng(seed)
    for kind in ("wav", "mel"):
        os.makedirs(os.path.join(directory, kind), exist_ok=True)
    samples = frames * hop
    for index in range(count):
        tone = 0.5 * np.sin(2 * np.pi * (220 + 110 * index) * np.arange(samples) / rate)
        audio = tone + rng.normal(0, 0.01, samples)
        wavfile.write(os.path.join(directory, "wav", f"{index:03d}.wav"), rate, (audio * 32767).astype(np.int16))
        spectrum = np.abs(np.fft.rfft(audio.reshape(frames, hop), axis=1))[:, :mels]
        np.save(os.path.join(directory, "mel", f"{index:03d}.npy"),
                np.log(np.clip(spectrum.T, 1e-5, None)).astype(np.float32) / 2.0)
    return directory


def write_tacotron2_hdf5(path, count=2, text_length=12, frames=12, mels=80, symbols=60, seed=0):
    """Tacotron2's preprocessed LJSpeech (what its generate_hdf5.py writes): one HDF5 file with ``<n>_mel``
    (mels x frames float32 in [0, 1]) and ``<n>_text`` (symbol ids, int) per utterance. Each utterance's mel is
    a ramp shaped by its text, so text and speech go together."""
    import h5py
    rng = np.random.default_rng(seed)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with h5py.File(path, "w") as handle:
        for index in range(count):
            text = rng.integers(1, symbols, text_length - index).astype(np.int64)
            envelope = np.linspace(0.2, 0.8, mels)[:, None] * np.ones((1, frames - 3 * index))
            mel = np.clip(envelope + 0.1 * np.sin(text.mean() + np.arange(frames - 3 * index))[None, :]
                          + rng.normal(0, 0.02, envelope.shape), 0, 1)
            handle.create_dataset(f"{index}_mel", data=mel.astype(np.float32))
            handle.create_dataset(f"{index}_text", data=text)
    return path
