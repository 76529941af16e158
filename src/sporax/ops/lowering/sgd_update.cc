// MindSpore's nn.SGD step on float32 buffers (PyTorch's rule), as an XLA FFI handler (see sgd_cpu.py).
//
// SporaxSgdUpdate(weight, accum, stat, gradient, learning_rate (1 element), momentum (1 element))
//   -> (weight, accum, stat), accum and stat aliased to their operands. Attributes: gradient_share
//   (float32, 1 - dampening), nesterov (int64, 0 or 1).
// With momentum > 0 (read at run time, as nn.SGD's momentum is a Parameter):
//   accum = stat > 0 ? gradient : momentum * accum + gradient_share * gradient; stat = 0;
//   direction = nesterov ? gradient + momentum * accum : accum.
// Without momentum accum and stat are neither read nor written (aliased: they keep their values) and
// direction = gradient. Then weight -= learning_rate * direction.
//
// Why a handler: as the Momentum update's (momentum_update.cc), XLA:CPU compiles the accumulator and weight
// updates as distinct kernels for every parameter shape; a handler is compiled once per machine.
//
// Rounding: XLA:CPU lets LLVM contract a multiply feeding an add into one fused multiply-add, so each
// multiply-add below is one fma and the results are bit-equal to XLA's form. With dampening the accumulator
// adds two products; XLA contracts the first (momentum * accum) around the rounded second, as here, for
// parameters of 32 elements and more (measured), and the other way round for smaller ones: there the
// accumulator can be one rounding away from XLA's (neither is the more exact).
#include <immintrin.h>

#include <cmath>
#include <cstdint>

#include "xla/ffi/api/ffi.h"

namespace ffi = xla::ffi;

namespace {

struct Operands {
  const float* weight;
  const float* gradient;
  const float* stat;
  float* accum;
  float* new_weight;
  float* new_stat;
  float rate, momentum, share;
  int64_t size;
};

// One element (also the tail of the vector loop): the rule above with std::fma (correctly rounded).
template <bool kMomentum, bool kNesterov, bool kDamped>
inline void Element(const Operands& o, int64_t i) {
  float gradient = o.gradient[i], direction = gradient;
  if (kMomentum) {
    float accum = o.stat[i] > 0.0f ? gradient
                                   : std::fma(o.momentum, o.accum[i], kDamped ? o.share * gradient : gradient);
    o.accum[i] = accum;
    o.new_stat[i] = 0.0f;
    direction = kNesterov ? std::fma(o.momentum, accum, gradient) : accum;
  }
  o.new_weight[i] = std::fma(direction, -o.rate, o.weight[i]);
}

template <bool kMomentum, bool kNesterov, bool kDamped>
__attribute__((target("avx2,fma"))) void UpdateFma(const Operands& o) {
  const __m256 momentum = _mm256_set1_ps(o.momentum), step = _mm256_set1_ps(-o.rate);
  const __m256 share = _mm256_set1_ps(o.share), zero = _mm256_setzero_ps();
  int64_t i = 0;
  for (; i + 8 <= o.size; i += 8) {
    __m256 gradient = _mm256_loadu_ps(o.gradient + i), direction = gradient;
    if (kMomentum) {
      __m256 added = kDamped ? _mm256_mul_ps(share, gradient) : gradient;
      __m256 blended = _mm256_fmadd_ps(momentum, _mm256_loadu_ps(o.accum + i), added);
      __m256 first = _mm256_cmp_ps(_mm256_loadu_ps(o.stat + i), zero, _CMP_GT_OQ);
      __m256 accum = _mm256_blendv_ps(blended, gradient, first);
      _mm256_storeu_ps(o.accum + i, accum);
      _mm256_storeu_ps(o.new_stat + i, zero);
      direction = kNesterov ? _mm256_fmadd_ps(momentum, accum, gradient) : accum;
    }
    _mm256_storeu_ps(o.new_weight + i, _mm256_fmadd_ps(direction, step, _mm256_loadu_ps(o.weight + i)));
  }
  for (; i < o.size; ++i) Element<kMomentum, kNesterov, kDamped>(o, i);
}

template <bool kMomentum, bool kNesterov, bool kDamped>
void UpdatePlain(const Operands& o) {
  for (int64_t i = 0; i < o.size; ++i) Element<kMomentum, kNesterov, kDamped>(o, i);
}

template <bool kMomentum, bool kNesterov, bool kDamped>
void Update(const Operands& o) {
  static const bool has_fma = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  has_fma ? UpdateFma<kMomentum, kNesterov, kDamped>(o) : UpdatePlain<kMomentum, kNesterov, kDamped>(o);
}

ffi::Error Sgd(ffi::Buffer<ffi::F32> weight, ffi::Buffer<ffi::F32> accum, ffi::Buffer<ffi::F32> stat,
    ffi::Buffer<ffi::F32> gradient, ffi::Buffer<ffi::F32> rate, ffi::Buffer<ffi::F32> momentum,
    ffi::ResultBuffer<ffi::F32> new_weight, ffi::ResultBuffer<ffi::F32> new_accum,
    ffi::ResultBuffer<ffi::F32> new_stat, float gradient_share, int64_t nesterov) {
  size_t size = weight.element_count();
  if (accum.element_count() != size || stat.element_count() != size || gradient.element_count() != size ||
      rate.element_count() != 1 || momentum.element_count() != 1) {
    return ffi::Error(ffi::ErrorCode::kInvalidArgument,
                      "sporax's SGD update: weight, accum, stat and gradient need one size, the rates one element");
  }
  // accum is updated where it lies: the aliased result is the operand's buffer.
  Operands o{weight.typed_data(), gradient.typed_data(), stat.typed_data(), new_accum->typed_data(),
             new_weight->typed_data(), new_stat->typed_data(), rate.typed_data()[0], momentum.typed_data()[0],
             gradient_share, static_cast<int64_t>(size)};
  bool damped = gradient_share != 1.0f;
  if (!(o.momentum > 0.0f)) {
    Update<false, false, false>(o);
  } else if (nesterov) {  // nn.SGD refuses Nesterov with dampening
    Update<true, true, false>(o);
  } else {
    damped ? Update<true, false, true>(o) : Update<true, false, false>(o);
  }
  return ffi::Error::Success();
}

}  // namespace

XLA_FFI_DEFINE_HANDLER_SYMBOL(SporaxSgdUpdate, Sgd,
    ffi::Ffi::Bind().Arg<ffi::Buffer<ffi::F32>>().Arg<ffi::Buffer<ffi::F32>>().Arg<ffi::Buffer<ffi::F32>>()
        .Arg<ffi::Buffer<ffi::F32>>().Arg<ffi::Buffer<ffi::F32>>().Arg<ffi::Buffer<ffi::F32>>()
        .Ret<ffi::Buffer<ffi::F32>>().Ret<ffi::Buffer<ffi::F32>>().Ret<ffi::Buffer<ffi::F32>>()
        .Attr<float>("gradient_share").Attr<int64_t>("nesterov"));
