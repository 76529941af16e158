"""``mindspore.ops.functional``: the functional ops, by family."""
import sys
# --- math, reductions, comparison, logic (owner: ops-math) ---
from sporax.ops.functional.math import (
    exp, exp2, expm1, log, log1p, log2, log10, sqrt, rsqrt, reciprocal, sigmoid, tanh, sin, cos,
    tan, sinh, cosh, asin, acos, atan, asinh, acosh, atanh, arcsin, arccos, arctan, arcsinh,
    arccosh, arctanh, erf, erfc, erfinv, lgamma, digamma, sinc, deg2rad, rad2deg, abs, absolute,
    positive, neg, negative, square, sign, sgn, ceil, floor, round, trunc, frac, inv, nan_to_num,
    logit)
from sporax.ops.functional.arithmetic import (
    add, sub, subtract, mul, multiply, div, divide, true_divide, floor_divide, floor_div,
    truncate_div, floor_mod, remainder, fmod, truncate_mod, pow, float_power, maximum, minimum,
    fmax, fmin, atan2, arctan2, hypot, logaddexp, logaddexp2, copysign, xlogy, xdivy, heaviside)
from sporax.ops.functional.ternary_arithmetic import lerp, addcmul, addcdiv
from sporax.ops.functional.comparison import (
    equal, eq, not_equal, ne, greater, gt, greater_equal, ge, less, lt, less_equal, le, isclose,
    approximate_equal, logical_and, logical_or, logical_xor, logical_not, bitwise_and,
    bitwise_or, bitwise_xor, bitwise_left_shift, bitwise_right_shift, invert, isnan, isinf,
    isposinf, isneginf, isfinite, signbit, clamp, clip, clip_by_value)
from sporax.ops.functional.reduce import (
    sum, reduce_sum, nansum, mean, reduce_mean, nanmean, prod, max, min, amax, amin, reduce_max,
    reduce_min, argmax, argmin, all, any, count_nonzero, logsumexp)
from sporax.ops.functional.spread import var, std, var_mean, std_mean
from sporax.ops.functional.scans import cumsum, cumprod, logcumsumexp, cummax, cummin
from sporax.ops.functional.sorting import (
    sort, argsort, msort, topk, median)
from sporax.ops.functional.linalg import (
    matmul, mm, bmm, mv, dot, inner, outer, kron, tensor_dot, einsum, trace, addmm, addn,
    accumulate_n, cross)
from sporax.ops.functional.norms import (
    vector_norm, matrix_norm, norm, clip_by_global_norm, cosine_similarity, cdist, dist)
from sporax.ops.functional.calculus import diff, trapz

# --- array, creation, random, nn (owner: ops-array-nn) ---
from sporax.ops.functional.array import (
    shape, rank, size, dtype, cast, identity, reshape, transpose, permute, swapaxes, swapdims,
    moveaxis, movedim, expand_dims, unsqueeze, squeeze, flatten, broadcast_to, expand, tile)
from sporax.ops.functional.array_joining import (
    concat, cat, stack, hstack, vstack, unstack, unbind, split, chunk, tensor_split, hsplit, vsplit)
from sporax.ops.functional.array_shaping import (
    atleast_1d, atleast_2d, atleast_3d, column_stack, row_stack, dstack, dsplit, t, ravel, numel,
    expand_as, view_as, take, rot90, channel_shuffle, unsorted_segment_sum, unsorted_segment_max,
    unsorted_segment_min, unsorted_segment_prod, tril_indices, triu_indices, diag_embed, diagflat,
    sequence_mask, unique_consecutive)
from sporax.ops.functional.slicing import (
    slice, strided_slice, narrow, flip, fliplr, flipud, roll, tril, triu, matrix_band_part,
    repeat_interleave, repeat_elements, diagonal, diag, reverse_sequence)
from sporax.ops.functional.indexing import (
    gather, gather_elements, gather_d, gather_nd, index_select, where, select, masked_fill,
    masked_select, nonzero, argwhere, unique, one_hot)
from sporax.ops.functional.scatters import (
    scatter_nd, tensor_scatter_update,
    tensor_scatter_add, tensor_scatter_sub, tensor_scatter_mul, tensor_scatter_div,
    tensor_scatter_max, tensor_scatter_min, tensor_scatter_elements, scatter, index_fill, index_add,
    scatter_add, scatter_update, scatter_nd_add, scatter_nd_update)
from sporax.ops.functional.creation import (
    ones, zeros, ones_like, zeros_like, full, full_like, fill, eye, arange, range, linspace,
    tuple_to_array, scalar_to_tensor, meshgrid, logspace)
from sporax.ops.functional.random import (
    normal, standard_normal, uniform, rand, randn, rand_like, randn_like, randint, randint_like,
    randperm, shuffle, bernoulli, multinomial, choice_with_mask)
from sporax.ops.functional.random_distributions import (
    standard_laplace, laplace, random_gamma, random_poisson, gumbel_softmax)
from sporax.ops.functional.dropouts import dropout, dropout1d, dropout2d, dropout3d
from sporax.ops.functional.activation import (
    relu, relu6, leaky_relu, gelu, silu, softplus, elu, selu, celu, hardswish, hardsigmoid, hardtanh, mish,
    logsigmoid, softsign, tanhshrink, hardshrink, softshrink, prelu, glu, soft_shrink, fast_gelu, threshold)
from sporax.ops.functional.softmax import softmax, log_softmax, softmin
from sporax.ops.functional.convolution import (
    conv1d, conv2d, conv3d, conv_transpose2d, dense, bias_add, embedding)
from sporax.ops.functional.pooling import (
    max_pool2d, max_pool3d, avg_pool2d, avg_pool1d, avg_pool3d, lp_pool1d, lp_pool2d)
from sporax.ops.functional.sampling import (
    pad, interpolate, upsample, adaptive_avg_pool2d, adaptive_avg_pool1d, adaptive_max_pool2d,
    pixel_shuffle, pixel_unshuffle, adaptive_max_pool1d)
from sporax.ops.functional.loss import (
    cross_entropy, nll_loss, kl_div, binary_cross_entropy, binary_cross_entropy_with_logits)
from sporax.ops.functional.regression_loss import (
    mse_loss, l1_loss, smooth_l1_loss, huber_loss, gaussian_nll_loss)
from sporax.ops.functional.margin_loss import (
    soft_margin_loss, margin_ranking_loss, cosine_embedding_loss, hinge_embedding_loss, triplet_margin_loss)
from sporax.ops.functional.normalization import (
    batch_norm, layer_norm, group_norm)
from sporax.ops.functional.debug import (
    print_)
from sporax.ops.functional.solve import lstsq, matrix_solve
from sporax.ops.functional.math import mvlgamma
from sporax.ops.functional.array_shaping import contiguous
from sporax.ops.functional.unpool import max_unpool1d, max_unpool2d, max_unpool3d

# --- autodiff functions (MindSpore's ops.functional re-exports them) ---
from sporax.ops.functional.dependencies import depend, stop_gradient
from sporax.autodiff.grad import get_grad, grad, value_and_grad
from sporax.autodiff.transforms import jacfwd, jacrev, jvp, vjp, vmap
from sporax.graph.composite import partial

# --- sparse functions and composites (MindSpore's ops.functional re-exports them) ---
from sporax.ops.functional.sparse import (
    coo2csr, coo_add, coo_tensor_get_dense_shape, coo_tensor_get_indices, coo_tensor_get_values, csr2coo, csr_add,
    csr_mm, csr_tensor_get_dense_shape, csr_tensor_get_indices, csr_tensor_get_indptr, csr_tensor_get_values,
    csr_to_coo, csr_to_dense, dense_to_sparse_coo, dense_to_sparse_csr, make_coo_tensor, make_csr_tensor,
    make_row_tensor)
from sporax.ops.functional.csr_arithmetic import (
    csr_div, csr_gather, csr_mul, csr_mv, csr_reduce_sum, csr_softmax)
from sporax.ops.functional.sparse_unary import (
    coo_abs, coo_acos, coo_acosh, coo_asin, coo_asinh, coo_atan, coo_atanh, coo_ceil, coo_cos, coo_cosh, coo_exp,
    coo_expm1, coo_floor, coo_inv, coo_isfinite, coo_isinf, coo_isnan, coo_log, coo_log1p, coo_neg, coo_relu,
    coo_relu6, coo_round, coo_sigmoid, coo_sin, coo_sinh, coo_softsign, coo_sqrt, coo_square, coo_tan, coo_tanh,
    csr_abs, csr_acos, csr_acosh, csr_asin, csr_asinh, csr_atan, csr_atanh, csr_ceil, csr_cos, csr_cosh, csr_exp,
    csr_expm1, csr_floor, csr_inv, csr_isfinite, csr_isinf, csr_isnan, csr_log, csr_log1p, csr_neg, csr_relu,
    csr_relu6, csr_round, csr_sigmoid, csr_sin, csr_sinh, csr_softsign, csr_sqrt, csr_square, csr_tan, csr_tanh)
from sporax.ops.functional import sparse_components as _sparse_components  # noqa: F401 - sparse_ops' entries
from sporax.ops.functional import sparse_value_sized as _sparse_value_sized  # noqa: F401 - sparse_ops' entries
from sporax.ops.functional import sparse_matrices as _sparse_matrices  # noqa: F401 - sparse_ops' entries
from sporax.ops.functional import sparse_unions as _sparse_unions  # noqa: F401 - sparse_ops' entries
from sporax.ops.functional import gradient_kernels as _gradient_kernels  # noqa: F401 - _grad_ops' entries
from sporax.ops.tensor_dump import tensordump
from sporax.ops.functional.sequence import make_range, tuple_len
from sporax.ops.functional.slicing import space_to_batch_nd
from sporax.ops.functional.sparse import coo_concat
from sporax.ops.functional.sequence import make_tuple
from sporax.ops.functional.ctc import ctc_loss
from sporax.ops.functional.ctc_decoding import ctc_greedy_decoder
from sporax.ops.functional.bessel import (
    bessel_i0, bessel_i0e, bessel_i1, bessel_i1e, bessel_j0, bessel_j1, bessel_k0, bessel_k0e, bessel_k1,
    bessel_k1e, bessel_y0, bessel_y1, i0, igamma, igammac)
from sporax.ops.functional.windows import (
    bartlett_window, blackman_window, hamming_window, hann_window, kaiser_window)
from sporax.ops.functional.fft import (
    fft, fft2, fftfreq, fftn, fftshift, hfft, hfft2, hfftn, ifft, ifft2, ifftn, ifftshift, ihfft, ihfft2, ihfftn,
    irfft, irfft2, irfftn)
from sporax.ops.functional.linalg_products import (
    addbmm, addmv, addr, adjoint, baddbmm, baddbmm_ext, batch_dot, block_diag, cartesian_prod, combinations, cov,
    einsum_ext, ger)
from sporax.ops.functional.decompositions import (
    cholesky, cholesky_inverse, cholesky_solve, cond, det, eig, eigvals, geqrf, inverse)
from sporax.ops.functional.math_counting import (
    aminmax, clip_by_norm, diagonal_scatter, diff_ext, eps, fills, gcd, intopk, is_floating_point, is_nonzero,
    is_tensor)
from sporax.ops.functional.complex_parts import angle, conj, imag, is_complex, isreal, real
from sporax.ops.functional.histograms import bincount, bucketize, histc
from sporax.ops.functional.native_sparse_attention import nsa_compress
from sporax.ops.functional import expert_routing  # noqa: F401 - the GroupTopk entry
from sporax.ops.functional.inplace import (
    bernoulli_, bernoulli_ext, clamp_, deepcopy, dyn_shape, erfinv_, exponential_, inplace_add,
    inplace_index_add, inplace_sigmoid, inplace_sub, inplace_update)
from sporax.ops.functional.graph_builtins import (
    augassign_add, augassign_div, augassign_floordiv, augassign_mod, augassign_mul, augassign_sub, bool_and,
    bool_eq, bool_not, bool_or, broadcast_gradient_args, dict_getitem, dict_setitem, hyper_add, in_dict, is_,
    is_not)
from sporax.ops.functional.update import assign, assign_add, assign_sub

# --- ops breadth, names l-z (owner: opsb) ---
from sporax.ops.functional.scalar import (
    SliceGetItem, list_equal, list_getitem, list_len, list_setitem, make_dict, make_list, make_slice, not_in_dict,
    reduced_shape, scalar_add, scalar_cast, scalar_div, scalar_eq, scalar_floordiv, scalar_ge, scalar_gt, scalar_le,
    scalar_log, scalar_lt, scalar_max, scalar_min, scalar_mod, scalar_mul, scalar_ne, scalar_pow, scalar_sub,
    scalar_to_array, scalar_uadd, scalar_usub, shape_, shape_mul, string_concat, string_eq, switch, tuple_div,
    tuple_equal, tuple_getitem, tuple_reversed, tuple_setitem, typeof)
from sporax.ops.functional.primitive_aliases import (
    float_power_ext, floordiv, floormod, isnan_ext, mixed_precision_cast, move_to, normal_, random_, reshape_,
    stop_gradient_, tanh_, tensor_add, tensor_div, tensor_exp, tensor_expm1, tensor_floordiv, tensor_ge, tensor_gt,
    tensor_le, tensor_lt, tensor_mod, tensor_mul, tensor_muls, tensor_pow, tensor_range, tensor_slice, tensor_sub,
    type_as, uniform_, zero_)
from sporax.ops.functional.special_math import (
    lcm, ldexp, nextafter, pdist, polar, polygamma, population_count, pows, renorm, vander, vecdot, zeta)
from sporax.ops.functional.matrix_functions import (
    log_matrix_determinant, logdet, matrix_determinant, matrix_exp, matrix_power, pinv, slogdet)
from sporax.ops.functional.factorizations import lu_solve, lu_unpack, orgqr, ormqr, qr, svd
from sporax.ops.functional.diagonal_bands import matrix_diag, matrix_diag_part, matrix_set_diag
from sporax.ops.functional.order_statistics import nanmedian, nanquantile, quantile, reverse, searchsorted, top_k
from sporax.ops.functional.activation import rrelu, swiglu
from sporax.ops.functional.regression_loss import mse_loss_ext
from sporax.ops.functional.margin_loss import (
    multi_margin_loss, multilabel_margin_loss, multilabel_soft_margin_loss)
from sporax.ops.functional.normalization import lrn, rms_norm
from sporax.ops.functional.array_embedding import (
    mirror_pad, padding, put_, select_scatter, slice_scatter, sparse_segment_mean, unfold, view_as_real)
from sporax.ops.functional.parameter_scatter import (
    scatter_div, scatter_max, scatter_min, scatter_mul, scatter_nd_div, scatter_nd_max, scatter_nd_min, scatter_nd_mul,
    scatter_nd_sub)
from sporax.ops.operations.order_statistics_ops import Median
from sporax.ops.operations.scalar_ops import TensorToTuple
from sporax.ops.operations.scatter_ops import Roll
from sporax.ops.functional.update import assign, assign_add
from sporax.ops.functional.categorical import random_categorical
from sporax.ops.functional.nn_spatial import (
    adaptive_avg_pool2d_ext, adaptive_avg_pool3d, adaptive_max_pool3d, add_layer_norm, add_rms_norm, affine_grid,
    batch_to_space_nd, bidense, col2im, conv3d_transpose, fold, grid_sample)
from sporax.ops.operations.nn_spatial_ops import AdaptiveMaxPool2D
from sporax.ops.functional.boxes import bounding_box_decode, bounding_box_encode, check_valid, iou
from sporax.ops.functional.random_distributions import gamma
from sporax.ops.functional.sparse import coalesce
from sporax.ops.functional.flash_attention import flash_attention_score
from sporax.ops.functional.real_fft import rfft, rfft2, rfftn, stft
from sporax.ops.functional.fft import rfftfreq
from sporax.ops.operations.random_distribution_ops import multinomial_with_replacement, poisson
from sporax.ops.operations.candidate_sampling_ops import log_uniform_candidate_sampler, uniform_candidate_sampler
from sporax.ops.functional.graph_constructs import (
    linearize, make_row_tensor_inner, make_sparse_tensor, row_tensor_get_dense_shape, row_tensor_get_indices,
    row_tensor_get_values, switch_layer)
from sporax.ops.functional.transformer_blocks import (
    moe_token_permute, moe_token_unpermute, ring_attention_update, rotary_position_embedding)
from sporax.ops.operations.placement_ops import reshard
from sporax.ops.functional.fractional_pooling import fractional_max_pool2d, fractional_max_pool3d
from sporax.ops.functional.flash_attention import fused_infer_attention_score, incre_flash_attention
from sporax.ops.functional.deformable import deformable_conv2d
from sporax.ops.functional.taylor import derivative, jet
from sporax.ops.functional.transformer_blocks import multi_scale_deformable_attn_function
from sporax.ops.functional.transformer_blocks import moe_init_routing_v2
from sporax.ops.functional.flash_attention import prompt_flash_attention
from sporax.ops.functional import rolling as _rolling  # noqa: F401 - declares the Rolling and Shift Primitives' ops
from sporax.ops.functional.graph_ir import (
    J, array_reduce, array_to_scalar, distribute, embed, env_get, environ_add, environ_create, environ_get,
    environ_set, geswitch, get_vm_impl_fn, hastype, is_dynamic_sequence_element_unknown, is_sequence_shape_unknown,
    is_sequence_value_unknown, is_tensor_bool_cond, isconstant, iter_converter, merge, prim_arg_register,
    recompute_block, ref_to_embed, row_tensor_add, tensor_operator_registry, vm_impl_registry)
from sporax.ops.functional.image_crop import crop_and_resize
from sporax.ops.functional.padded_unique import unique_with_pad
from sporax.ops.functional.speed_attention import speed_fusion_attention
# Primitives MindSpore's ops.functional module also exports
from sporax.ops.operations.dataflow_ops import DtypeToEnum
from sporax.ops.operations.consecutive_ops import UniqueConsecutive

# What ``from sporax.ops.functional import *`` (and so ``sporax.ops``) takes: every public name above,
# no submodules.
__all__ = [_name for _name, _value in list(globals().items())
           if not _name.startswith("_") and not isinstance(_value, type(sys))]
