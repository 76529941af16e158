"""Colour and geometry transforms give MindSpore 2.10's values: its kernels' arithmetic and, under a dataset
seed, its draws.

Recorded on MindSpore 2.10 with 12 images ``np.random.RandomState(0).randint(0, 256, (12, 16, 16, 3))``;
an output is named by ``fingerprint`` (a position-weighted sum of its values, so one pixel off changes it).
"""
import hashlib

import numpy as np
import pytest

import sporax.dataset as ds
import sporax.dataset.transforms as transforms
import sporax.dataset.vision as vision


def images():
    return np.random.RandomState(0).randint(0, 256, (12, 16, 16, 3)).astype(np.uint8)


def fingerprint(image):
    values = np.asarray(image).astype(np.int64).ravel()
    return int((values * (np.arange(values.size) % 251 + 1)).sum())


def factors():
    """The float32 factors of the eager recording, drawn after the images from the same RandomState."""
    state = np.random.RandomState(0)
    state.randint(0, 256, (12, 16, 16, 3))
    return ([float(np.float32(x)) for x in state.uniform(0.6, 1.4, 12)],
            [float(np.float32(x)) for x in state.uniform(-0.1, 0.1, 12)])


ADJUSTED = {  # vision.Adjust*(factor)(image) on MindSpore 2.10
    "brightness": [7980251, 13832820, 13522539, 12554318, 7607996, 10085774, 14165099, 12017489, 7859374,
                   12070153, 14830381, 14979480],
    "contrast": [11760557, 11892107, 12138829, 11475490, 12223120, 12358332, 12177583, 12059288, 12600544,
                 11822640, 12066318, 12162705],
    "saturation": [11808450, 11902151, 12133886, 11489302, 12155924, 12366758, 12150516, 12060151, 12639849,
                   11824623, 12053136, 12125716],
    "hue": [11836615, 11893674, 12145287, 11388330, 12269296, 12408504, 12127493, 12054547, 12864482, 11815008,
            12164366, 12247804],
}
OPERATIONS = {"brightness": vision.AdjustBrightness, "contrast": vision.AdjustContrast,
              "saturation": vision.AdjustSaturation, "hue": vision.AdjustHue}


@pytest.mark.parametrize("name", sorted(ADJUSTED))
def test_adjust_kernels_equal_mindspores(name):
    # Contrast and saturation use OpenCV's fixed-point uint8 luma; hue its 8-bit full-range HSV, where
    # RGB->HSV has 256 hue steps a turn and HSV->RGB 255 (the float formulas were up to 14 off).
    scale, hue = factors()
    values = hue if name == "hue" else scale
    got = [fingerprint(OPERATIONS[name](f)(image)) for image, f in zip(images(), values)]
    assert got == ADJUSTED[name]


FUSED = {  # vision.Adjust*(1.3 and 0.1 as float32)(image) on MindSpore 2.10
    ("saturation", 1.3): [11764596, 11886880, 12074128, 11538453, 12111495, 12238179, 12127014, 12049002, 12738361,
                          11834592, 12045619, 12129202],
    ("contrast", 1.3): [11802369, 11889254, 12098745, 11505609, 12068234, 12285451, 12157189, 12029474, 12765018,
                        11772714, 12059180, 12166059],
    ("sharpness", 1.3): [11761384, 11936697, 12148758, 11449515, 12157764, 12327097, 12180790, 12043756, 12683986,
                         11791085, 12167181, 12211026],
    ("saturation", 0.1): [11910684, 11971087, 12245732, 11307673, 12169791, 12556352, 12395887, 12278567, 12565234,
                          11809336, 12374349, 12303748],
    ("contrast", 0.1): [11775698, 12048301, 12244719, 11406465, 12327452, 12517663, 12245939, 12233750, 12468324,
                        11955554, 12331082, 12331679],
    ("sharpness", 0.1): [11793806, 11862537, 12112038, 11603746, 12103202, 12288227, 12296120, 12135497, 12709122,
                         11889029, 11992937, 12177914],
}


@pytest.mark.parametrize("name, factor", sorted(FUSED))
def test_blends_round_as_opencvs_fused_add_weighted(name, factor):
    # addWeighted(a, alpha, b, beta) is fma(b, beta, a * alpha) in float32: the sum of two rounded products was
    # 1 off on 1-14 pixels of most images (saturation and contrast weight the image first, sharpness the blur).
    operation = {"sharpness": vision.AdjustSharpness, **OPERATIONS}[name]
    single = float(np.float32(factor))
    assert [fingerprint(operation(single)(image)) for image in images()] == FUSED[name, factor]


def test_rgb2gray_is_opencvs_fixed_point():
    image = images()[0]
    red, green, blue = (image[..., i].astype(np.int64) for i in range(3))
    expected = (red * 9798 + green * 19235 + blue * 3735 + (1 << 14)) >> 15
    np.testing.assert_array_equal(vision.ConvertColor(vision.ConvertMode.COLOR_RGB2GRAY)(image), expected)


PIPELINES = {  # seed 5, shuffle=False, two epochs of one iterator (a second iterator repeats them)
    ("adjust", 1): [[14414267, 11874886, 16161168, 14395597, 14596936, 8696683, 12815136, 8127025, 15996836,
                     14572486, 13871025, 7558008],
                    [13768503, 13913704, 12584833, 8448701, 9144567, 10660990, 16051663, 10906052, 9492366,
                     13314964, 12701937, 9235018]],
    ("adjust", 2): [[14414267, 10552156, 12054237, 12082269, 16085370, 11526653, 15183969, 11487014, 14821019,
                     13968646, 8549494, 14489730],
                    [14355665, 12493360, 13553352, 7721003, 12606669, 15631452, 15227344, 14765756, 15873506,
                     13608014, 13899144, 7558008]],
    # mindcv's training transforms: RandomResizedCrop, RandomHorizontalFlip, RandomColorAdjust(0.4, 0.4, 0.4)
    ("mindcv", 1): [[2933513, 2324772, 2398139, 1668529, 2200121, 1668902, 1681960, 2362735, 2076469, 2092401,
                     3198442, 1648018],
                    [2715443, 2560354, 2460646, 2749005, 2913897, 1478281, 2304304, 2689432, 1526824, 1596692,
                     3269359, 2158709]],
    ("mindcv", 2): [[2933513, 1956996, 2273423, 2100974, 2482666, 2531463, 1765656, 3118810, 2390173, 2479060,
                     1534980, 2879070],
                    [2776006, 1539378, 2940677, 2292880, 2818166, 2096732, 2727479, 2132976, 1717625, 3219415,
                     1817859, 1648018]],
}
CHAINS = {"adjust": lambda: [vision.RandomColorAdjust(0.4, 0.4, 0.4, 0.1)],
          "mindcv": lambda: [vision.RandomResizedCrop(8), vision.RandomHorizontalFlip(),
                             vision.RandomColorAdjust(0.4, 0.4, 0.4)]}


@pytest.mark.parametrize("kind, workers", sorted(PIPELINES))
def test_seeded_color_adjust_draws_are_mindspores(seeded, kind, workers):
    # Each worker's RandomColorAdjust shuffles the four adjustments with its std::mt19937(seed + worker),
    # then draws one float32 factor per adjustment in that order.
    seeded(5)
    data = ds.NumpySlicesDataset({"image": images()}, shuffle=False).map(
        CHAINS[kind](), input_columns=["image"], num_parallel_workers=workers)
    for _ in range(2):
        iterator = data.create_tuple_iterator(num_epochs=2, output_numpy=True)
        assert [[fingerprint(row[0]) for row in iterator] for _ in range(2)] == PIPELINES[kind, workers]


def test_identity_ranges_draw_nothing(seeded):
    # Only brightness is enabled: one draw per row after the shuffle, the same as brightness=(0.5, 1.5) alone.
    seeded(5)
    image = images()[3]
    alone = vision.RandomColorAdjust(brightness=(0.5, 1.5))(image)
    both = vision.RandomColorAdjust(brightness=(0.5, 1.5), contrast=(1, 1), hue=(0, 0))(image)
    np.testing.assert_array_equal(alone, both)
    assert not np.array_equal(alone, image)


# The same 12 images, seed 5, two iterators of two epochs: the SHA-256 (first 16 hex digits) of every output's
# bytes in order, recorded on MindSpore 2.10. Bernoulli ops draw std::bernoulli_distribution(prob) (two words),
# RandomSharpness a float32 in [-1, 1) around the middle of its range, RandomPosterize one and RandomSolarize
# two GCC uniform_int_distribution integers.
HASHED = {
    ("sharp", 1): "b0c92fc24414f7e3", ("sharp", 2): "2335b807f4f16cfe",
    ("poster", 1): "155b8371520af1cc", ("poster", 2): "fe4efe46d986a541",
    ("solar", 1): "82c5c79e1700459f", ("solar", 2): "07b2867b1c457a7d",
    ("invert", 1): "9b76ddd856234362", ("invert", 2): "b1dc41fa8bf89399",
    ("autocontrast", 1): "bb1236412077e386", ("autocontrast", 2): "64497d0bebcd9dc9",
    ("equalize", 1): "0de6c18a8b0f35a5", ("equalize", 2): "342fdc9973371a23",
    ("adjsharp", 1): "7a2a3004a6a14c56", ("adjsharp", 2): "696fa5d65a7e45fc",
    # RandomRotation: a float32 in [-1, 1) around the middle; OpenCV's fixed-point nearest-neighbour warpAffine
    ("rot", 1): "56f4e34ffb4a2b9d", ("rot", 2): "7142f39ceaf8e82f",
    ("rot_exp", 1): "ab11a60aeb3734ee", ("rot_exp", 2): "edf5c565545ccf09",
    # RandomApply: uniform_real_distribution<double> <= prob from its own stream; the RandomColorAdjust inside
    # keeps seed 5 in every worker (MindSpore re-seeds only the map's own operations with seed + worker).
    ("apply", 1): "76dcf1178a2faba1", ("apply", 2): "52ca0d9a8db93f97",
    ("choice", 1): "6c3393a2a279e07c", ("choice", 2): "c4267b3594ae4d7e",
    # RandomOrder is Python in MindSpore: random.shuffle of its list in place (with two workers its threads
    # share Python's generator, and two MindSpore runs differ)
    ("order", 1): "cea9d0c7289339f5",
    # RandomResize(8): uniform_int_distribution(0, 3) over MindSpore's InterpolationMode (BILINEAR, NEAREST,
    # BICUBIC, AREA). One worker: 46/48 (rows of images 2 and 7 on BICUBIC keep a pixel 1 off).
    ("resize", 2): "4c8aaf98b8c687bc",
    # RandomAffine(15, translate=(0.1, 0.1), scale=(0.9, 1.1), shear=5): six float32 draws (angle, x and y shift
    # in pixels, scale, two shears); a 2-item translate is an x range (min, max) with no y shift
    ("affine", 1): "2bf0f44143094057", ("affine", 2): "804e41141479e8d5",
    # AutoAugment: a sub-policy index, two float32 probabilities and two signs per image; RandAugment and
    # TrivialAugmentWide: per operation an index among the 14 sorted by name and a sign, both as uniform_int(0, n)
    # modulo n (TrivialAugmentWide a magnitude bin between them). A Translate of int(magnitude) >= 1 is read as
    # image sizes, so it leaves only the fill; a shear of magnitude radians is applied as degrees.
    ("aa_imagenet", 1): "0272d43d74b2e06a", ("aa_imagenet", 2): "12be9d41d4a12152",
    ("aa_cifar", 1): "5ceacddf200c42c0", ("aa_cifar", 2): "f38535e8c8dd3bed",
    ("aa_svhn", 1): "f1feac40941bae0d", ("aa_svhn", 2): "0617496aa64d96fa",
    ("randaug", 1): "11cd83258cf817fa", ("randaug", 2): "18d37266b49f0346",
    ("trivial", 1): "45a8e3595772bed4", ("trivial", 2): "cc23e20ef4516e40",
}
HASHED_OPS = {"sharp": lambda: vision.RandomSharpness(), "poster": lambda: vision.RandomPosterize((1, 8)),
              "solar": lambda: vision.RandomSolarize((0, 255)), "invert": lambda: vision.RandomInvert(0.5),
              "autocontrast": lambda: vision.RandomAutoContrast(prob=0.5),
              "equalize": lambda: vision.RandomEqualize(0.5),
              "adjsharp": lambda: vision.RandomAdjustSharpness(2.0, 0.5),
              "apply": lambda: transforms.RandomApply([vision.RandomColorAdjust(0.4, 0.4, 0.4)], prob=0.5),
              "choice": lambda: transforms.RandomChoice([vision.Invert(), vision.HorizontalFlip(),
                                                         vision.VerticalFlip()]),
              "order": lambda: transforms.RandomOrder([vision.Posterize(2), vision.Invert(), vision.Rotate(90)]),
              "resize": lambda: vision.RandomResize(8),
              "affine": lambda: vision.RandomAffine(degrees=15, translate=(0.1, 0.1), scale=(0.9, 1.1), shear=5),
              "aa_imagenet": lambda: vision.AutoAugment(),
              "aa_cifar": lambda: vision.AutoAugment(vision.AutoAugmentPolicy.CIFAR10),
              "aa_svhn": lambda: vision.AutoAugment(vision.AutoAugmentPolicy.SVHN),
              "randaug": lambda: vision.RandAugment(), "trivial": lambda: vision.TrivialAugmentWide(),
              "rot": lambda: vision.RandomRotation(30),
              "rot_exp": lambda: vision.RandomRotation((-20, 40), expand=True)}


@pytest.mark.parametrize("kind, workers", sorted(HASHED))
def test_seeded_random_ops_draw_as_mindspore(seeded, kind, workers):
    seeded(5)
    data = ds.NumpySlicesDataset({"image": images()}, shuffle=False).map(
        [HASHED_OPS[kind]()], input_columns=["image"], num_parallel_workers=workers)
    digest = hashlib.sha256()
    for _ in range(2):
        iterator = data.create_tuple_iterator(num_epochs=2, output_numpy=True)
        for _ in range(2):
            for row in iterator:
                digest.update(np.ascontiguousarray(row[0]).tobytes())
    assert digest.hexdigest()[:16] == HASHED[kind, workers]


def test_equalize_rounds_in_float32():
    # OpenCV's equalizeHist scales in float32: on image 6 two pixels of channel 1 were 1 too high.
    assert fingerprint(vision.Equalize()(images()[6])) == 12203293


def test_area_halving_rounds_halves_up():
    # OpenCV's 2x2 area kernel for uint8: (a + b + c + d + 2) >> 2 (the float path was off on 17-36 pixels)
    assert [fingerprint(vision.Resize(8, vision.Inter.AREA)(image)) for image in images()[:4]] == \
        [2327647, 2296305, 2358448, 2262914]


def test_eager_policies_repeat_mindspores_draws(seeded):
    # Eager calls under set_seed(7): each call draws from a fresh std::mt19937(7), as MindSpore 2.10's
    operations = [vision.AutoAugment(vision.AutoAugmentPolicy.SVHN), vision.RandAugment(), vision.TrivialAugmentWide()]
    seeded(7)
    digests = [hashlib.sha256(b"".join(op(image).tobytes() for image in images())).hexdigest()[:16]
               for op in operations]
    assert digests == ["efee391eaee05417", "fdecce2659b4342e", "86d7c7dd8f32909f"]


def test_rotation_fills_channels_reversed():
    # MindSpore 2.10's rotation kernel fills (r, g, b) as (b, g, r): Rotate(30) of a 20x30 image, fill (10, 200, 30)
    image = np.random.RandomState(1).randint(0, 256, (20, 30, 3)).astype(np.uint8)
    assert vision.Rotate(30, fill_value=(10, 200, 30))(image)[0, 0].tolist() == [30, 200, 10]
    assert fingerprint(vision.Rotate(30, fill_value=(10, 200, 30))(image)) == 27169037
    assert fingerprint(vision.Rotate(30, expand=True, fill_value=(10, 200, 30))(image)) == 45288880


def test_policies_with_fill_are_mindspores(seeded):
    # The policies hand the rotation (r, b, g), filled as (g, b, r); eager calls under seeds 0-19, 40x56 and 33x21
    rs = np.random.RandomState(1)
    pictures = [rs.randint(0, 256, (h, w, 3)).astype(np.uint8) for h, w in [(40, 56), (33, 21)]]
    fill = (10, 200, 30)
    operations = {"81936a90dc62ba0b": lambda: vision.AutoAugment(fill_value=fill),
                  "51e81bd7182c33e0": lambda: vision.AutoAugment(vision.AutoAugmentPolicy.SVHN, fill_value=fill),
                  "702be30e5d2bc294": lambda: vision.RandAugment(3, 5, 11, fill_value=fill),
                  "d39a88331f7cb7d7": lambda: vision.TrivialAugmentWide(9, fill_value=fill)}
    for expected, make in operations.items():
        digest = hashlib.sha256()
        for seed in range(20):
            seeded(seed)
            operation = make()
            for picture in pictures:
                digest.update(np.ascontiguousarray(operation(picture)).tobytes())
        assert digest.hexdigest()[:16] == expected
