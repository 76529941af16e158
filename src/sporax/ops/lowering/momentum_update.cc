// MindSpore's ApplyMomentum on float32 buffers, updated in place, as an XLA FFI handler (see momentum_cpu.py).
//
// SporaxMomentumUpdate(weight, moment, learning_rate (1 element), gradient, momentum (1 element))
//   -> (weight, moment), aliased to the first two operands. Attributes: nesterov (int64, 0 or 1), threads
//   (int64: 2 lets a large update split over the calling thread's OpenMP team of two, 1 keeps it on one).
// moment = moment * momentum + gradient; weight -= learning_rate * moment
// (Nesterov: weight -= (gradient + moment * momentum) * learning_rate).
//
// Why a handler and not XLA's elementwise form: XLA:CPU generates machine code for every distinct
// fused computation, and a parameter's two update kernels are distinct for every parameter shape
// (the CIFAR ResNet-18's step: 40 of its 91 kernels, ~0.6 s of its ~2 s compile CPU). A handler is
// compiled once per machine.
//
// Rounding: XLA:CPU lets LLVM contract a multiply feeding an add into one fused multiply-add, and it
// does so in these kernels, so each step below is one std::fma: the results are bit-equal to XLA's.
#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <mutex>

#include "onednn_common.h"
#include "xla/ffi/api/ffi.h"

extern "C" int omp_get_thread_num();
extern "C" int omp_get_num_threads();

namespace ffi = xla::ffi;

namespace {

// Updates of at least this many elements (1 MiB of float32) may split over two threads.
constexpr int64_t kSplitElements = 1 << 18;

// Compiled for AVX2 + FMA (eight lanes a step; _mm256_fmadd_ps and std::fma round once, as XLA's
// vfmadd does), and plain (std::fma is glibc's correctly rounded fmaf: equal results, slower) for CPUs
// without FMA.
template <bool kNesterov>
__attribute__((target("avx2,fma"))) void UpdateFma(const float* weight, const float* moment, const float* gradient,
    float rate, float momentum, int64_t size, float* new_weight, float* new_moment) {
  const __m256 factor = _mm256_set1_ps(momentum), step = _mm256_set1_ps(-rate);
  int64_t i = 0;
  for (; i + 8 <= size; i += 8) {
    __m256 grad = _mm256_loadu_ps(gradient + i);
    __m256 updated = _mm256_fmadd_ps(_mm256_loadu_ps(moment + i), factor, grad);
    _mm256_storeu_ps(new_moment + i, updated);
    __m256 direction = kNesterov ? _mm256_fmadd_ps(updated, factor, grad) : updated;
    _mm256_storeu_ps(new_weight + i, _mm256_fmadd_ps(direction, step, _mm256_loadu_ps(weight + i)));
  }
  for (; i < size; ++i) {
    float updated = std::fma(moment[i], momentum, gradient[i]);
    new_moment[i] = updated;
    new_weight[i] = std::fma(kNesterov ? std::fma(updated, momentum, gradient[i]) : updated, -rate, weight[i]);
  }
}

template <bool kNesterov>
void UpdatePlain(const float* weight, const float* moment, const float* gradient, float rate, float momentum,
    int64_t size, float* new_weight, float* new_moment) {
  for (int64_t i = 0; i < size; ++i) {
    float updated = std::fma(moment[i], momentum, gradient[i]);
    new_moment[i] = updated;
    new_weight[i] = std::fma(kNesterov ? std::fma(updated, momentum, gradient[i]) : updated, -rate, weight[i]);
  }
}

ffi::Error Momentum(ffi::Buffer<ffi::F32> weight, ffi::Buffer<ffi::F32> moment, ffi::Buffer<ffi::F32> rate,
    ffi::Buffer<ffi::F32> gradient, ffi::Buffer<ffi::F32> momentum, ffi::ResultBuffer<ffi::F32> new_weight,
    ffi::ResultBuffer<ffi::F32> new_moment, int64_t nesterov, int64_t threads) {
  int64_t size = static_cast<int64_t>(weight.element_count());
  if (moment.element_count() != weight.element_count() || gradient.element_count() != weight.element_count() ||
      rate.element_count() != 1 || momentum.element_count() != 1) {
    return ffi::Error(ffi::ErrorCode::kInvalidArgument,
                      "sporax's momentum update: weight, moment and gradient need one size, the rates one element");
  }
  static const bool has_fma = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  auto update = nesterov ? (has_fma ? UpdateFma<true> : UpdatePlain<true>)
                         : (has_fma ? UpdateFma<false> : UpdatePlain<false>);
  auto run = [&](int64_t begin, int64_t end) {
    update(weight.typed_data() + begin, moment.typed_data() + begin, gradient.typed_data() + begin,
           rate.typed_data()[0], momentum.typed_data()[0], end - begin, new_weight->typed_data() + begin,
           new_moment->typed_data() + begin);
  };
  // Why split: XLA runs a step's updates while its other thread often has nothing ready (the updates of
  // the ResNet-18 step ran with one thread of the process runnable), and an update streams five arrays.
  // Only while no oneDNN call holds the call lock: two OpenMP teams on two cores would fight.
  std::unique_lock<std::mutex> lock(sporax_onednn::CallMutex(), std::defer_lock);
  if (threads > 1 && size >= kSplitElements && lock.try_lock()) {
#pragma omp parallel num_threads(2)
    {
      // Parts of whole 64-byte lines; each element is computed as alone, so the result is the same.
      int64_t parts = omp_get_num_threads(), chunk = ((size + parts - 1) / parts + 15) / 16 * 16;
      int64_t begin = std::min(size, omp_get_thread_num() * chunk);
      run(begin, std::min(size, begin + chunk));
    }
  } else {
    run(0, size);
  }
  return ffi::Error::Success();
}

}  // namespace

XLA_FFI_DEFINE_HANDLER_SYMBOL(SporaxMomentumUpdate, Momentum,
    ffi::Ffi::Bind().Arg<ffi::Buffer<ffi::F32>>().Arg<ffi::Buffer<ffi::F32>>().Arg<ffi::Buffer<ffi::F32>>()
        .Arg<ffi::Buffer<ffi::F32>>().Arg<ffi::Buffer<ffi::F32>>().Ret<ffi::Buffer<ffi::F32>>()
        .Ret<ffi::Buffer<ffi::F32>>().Attr<int64_t>("nesterov").Attr<int64_t>("threads"));
