// MindSpore's Adam and AdamWeightDecay updates on float32 buffers, as XLA FFI handlers (see adam_cpu.py).
//
// SporaxAdamUpdate(weight, m, v, gradient, step (1 element)) -> (weight, m, v), m and v aliased to their
//   operands. Attributes: beta1_share (1 - beta1), beta2_share (1 - beta2), epsilon (float32).
//   m += (gradient - m) * beta1_share; v += (gradient * gradient - v) * beta2_share;
//   weight -= step * m / (sqrt(v) + epsilon)   (step: the bias-corrected rate, computed by the caller).
// SporaxAdamWeightDecayUpdate(weight, m, v, gradient, learning_rate (1 element)) -> (weight, m, v), likewise.
//   Attributes: beta1, beta2, beta1_share, beta2_share, epsilon, decay (float32), decays (int64 0/1).
//   m = beta1 * m + beta1_share * gradient; v = beta2 * v + beta2_share * gradient * gradient;
//   update = m / (sqrt(v) + epsilon) (+ decay * weight when decays); weight -= learning_rate * update.
//
// Why handlers: as the Momentum update's (momentum_update.cc), XLA:CPU compiles each parameter shape's
// update as its own kernels; a handler is compiled once per machine.
//
// Rounding: each multiply feeding an add is one fma, contracted as XLA:CPU's LLVM contracts the same
// expressions (checked against XLA's output bit for bit: gradient * gradient - v is one fma, and of two added
// products the first is fused around the rounded second); sqrt and the division are IEEE (correctly rounded)
// in both, so the results are bit-equal to XLA's form.
#include <immintrin.h>

#include <cmath>
#include <cstdint>
#include <string>

#include "xla/ffi/api/ffi.h"

namespace ffi = xla::ffi;

namespace {

struct Operands {
  const float* weight;
  const float* gradient;
  float* m;
  float* v;
  float* new_weight;
  float rate, beta1, beta2, beta1_share, beta2_share, epsilon, decay;
  int64_t size;
};

// kDecoupled: AdamWeightDecay's form (no bias correction, optional decay); else Adam's.
template <bool kDecoupled, bool kDecays>
inline void Element(const Operands& o, int64_t i) {
  float gradient = o.gradient[i], m, v;
  if (kDecoupled) {
    m = std::fma(o.beta1, o.m[i], o.beta1_share * gradient);
    v = std::fma(o.beta2, o.v[i], o.beta2_share * gradient * gradient);
  } else {
    m = std::fma(gradient - o.m[i], o.beta1_share, o.m[i]);
    v = std::fma(std::fma(gradient, gradient, -o.v[i]), o.beta2_share, o.v[i]);
  }
  o.m[i] = m;
  o.v[i] = v;
  float update = m / (std::sqrt(v) + o.epsilon);
  if (kDecays) update = std::fma(o.decay, o.weight[i], update);
  o.new_weight[i] = std::fma(update, -o.rate, o.weight[i]);
}

template <bool kDecoupled, bool kDecays>
__attribute__((target("avx2,fma"))) void UpdateFma(const Operands& o) {
  const __m256 beta1 = _mm256_set1_ps(o.beta1), beta2 = _mm256_set1_ps(o.beta2);
  const __m256 share1 = _mm256_set1_ps(o.beta1_share), share2 = _mm256_set1_ps(o.beta2_share);
  const __m256 epsilon = _mm256_set1_ps(o.epsilon), decay = _mm256_set1_ps(o.decay);
  const __m256 step = _mm256_set1_ps(-o.rate);
  int64_t i = 0;
  for (; i + 8 <= o.size; i += 8) {
    __m256 gradient = _mm256_loadu_ps(o.gradient + i), m = _mm256_loadu_ps(o.m + i), v = _mm256_loadu_ps(o.v + i);
    if (kDecoupled) {
      m = _mm256_fmadd_ps(beta1, m, _mm256_mul_ps(share1, gradient));
      v = _mm256_fmadd_ps(beta2, v, _mm256_mul_ps(_mm256_mul_ps(share2, gradient), gradient));
    } else {
      m = _mm256_fmadd_ps(_mm256_sub_ps(gradient, m), share1, m);
      v = _mm256_fmadd_ps(_mm256_fmsub_ps(gradient, gradient, v), share2, v);
    }
    _mm256_storeu_ps(o.m + i, m);
    _mm256_storeu_ps(o.v + i, v);
    __m256 weight = _mm256_loadu_ps(o.weight + i);
    __m256 update = _mm256_div_ps(m, _mm256_add_ps(_mm256_sqrt_ps(v), epsilon));
    if (kDecays) update = _mm256_fmadd_ps(decay, weight, update);
    _mm256_storeu_ps(o.new_weight + i, _mm256_fmadd_ps(update, step, weight));
  }
  for (; i < o.size; ++i) Element<kDecoupled, kDecays>(o, i);
}

template <bool kDecoupled, bool kDecays>
void Update(const Operands& o) {
  static const bool has_fma = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  if (has_fma) {
    UpdateFma<kDecoupled, kDecays>(o);
  } else {
    for (int64_t i = 0; i < o.size; ++i) Element<kDecoupled, kDecays>(o, i);
  }
}

ffi::Error CheckSizes(const char* owner, size_t size, size_t m, size_t v, size_t gradient, size_t rate) {
  if (m != size || v != size || gradient != size || rate != 1) {
    return ffi::Error(ffi::ErrorCode::kInvalidArgument,
                      std::string(owner) + ": weight, m, v and gradient need one size, the rate one element");
  }
  return ffi::Error::Success();
}

ffi::Error Adam(ffi::Buffer<ffi::F32> weight, ffi::Buffer<ffi::F32> m, ffi::Buffer<ffi::F32> v,
    ffi::Buffer<ffi::F32> gradient, ffi::Buffer<ffi::F32> step, ffi::ResultBuffer<ffi::F32> new_weight,
    ffi::ResultBuffer<ffi::F32> new_m, ffi::ResultBuffer<ffi::F32> new_v, float beta1_share, float beta2_share,
    float epsilon) {
  ffi::Error error = CheckSizes("sporax's Adam update", weight.element_count(), m.element_count(),
                                v.element_count(), gradient.element_count(), step.element_count());
  if (error.failure()) return error;
  // m and v are updated where they lie: their aliased results are the operands' buffers.
  Operands o{weight.typed_data(), gradient.typed_data(), new_m->typed_data(), new_v->typed_data(),
             new_weight->typed_data(), step.typed_data()[0], 0.0f, 0.0f, beta1_share, beta2_share, epsilon, 0.0f,
             static_cast<int64_t>(weight.element_count())};
  Update<false, false>(o);
  return ffi::Error::Success();
}

ffi::Error AdamWeightDecay(ffi::Buffer<ffi::F32> weight, ffi::Buffer<ffi::F32> m, ffi::Buffer<ffi::F32> v,
    ffi::Buffer<ffi::F32> gradient, ffi::Buffer<ffi::F32> rate, ffi::ResultBuffer<ffi::F32> new_weight,
    ffi::ResultBuffer<ffi::F32> new_m, ffi::ResultBuffer<ffi::F32> new_v, float beta1, float beta2,
    float beta1_share, float beta2_share, float epsilon, float decay, int64_t decays) {
  ffi::Error error = CheckSizes("sporax's AdamWeightDecay update", weight.element_count(), m.element_count(),
                                v.element_count(), gradient.element_count(), rate.element_count());
  if (error.failure()) return error;
  Operands o{weight.typed_data(), gradient.typed_data(), new_m->typed_data(), new_v->typed_data(),
             new_weight->typed_data(), rate.typed_data()[0], beta1, beta2, beta1_share, beta2_share, epsilon, decay,
             static_cast<int64_t>(weight.element_count())};
  decays ? Update<true, true>(o) : Update<true, false>(o);
  return ffi::Error::Success();
}

}  // namespace

XLA_FFI_DEFINE_HANDLER_SYMBOL(SporaxAdamUpdate, Adam,
    ffi::Ffi::Bind().Arg<ffi::Buffer<ffi::F32>>().Arg<ffi::Buffer<ffi::F32>>().Arg<ffi::Buffer<ffi::F32>>()
        .Arg<ffi::Buffer<ffi::F32>>().Arg<ffi::Buffer<ffi::F32>>().Ret<ffi::Buffer<ffi::F32>>()
        .Ret<ffi::Buffer<ffi::F32>>().Ret<ffi::Buffer<ffi::F32>>()
        .Attr<float>("beta1_share").Attr<float>("beta2_share").Attr<float>("epsilon"));

XLA_FFI_DEFINE_HANDLER_SYMBOL(SporaxAdamWeightDecayUpdate, AdamWeightDecay,
    ffi::Ffi::Bind().Arg<ffi::Buffer<ffi::F32>>().Arg<ffi::Buffer<ffi::F32>>().Arg<ffi::Buffer<ffi::F32>>()
        .Arg<ffi::Buffer<ffi::F32>>().Arg<ffi::Buffer<ffi::F32>>().Ret<ffi::Buffer<ffi::F32>>()
        .Ret<ffi::Buffer<ffi::F32>>().Ret<ffi::Buffer<ffi::F32>>()
        .Attr<float>("beta1").Attr<float>("beta2").Attr<float>("beta1_share").Attr<float>("beta2_share")
        .Attr<float>("epsilon").Attr<float>("decay").Attr<int64_t>("decays"));
