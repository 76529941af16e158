// 2-d convolutions of NHWC data with OIHW weights through oneDNN, as XLA FFI handlers (see conv_onednn.py).
//
// SporaxConvForward(x (N,H,W,C), w (O,C,kh,kw)) -> y (N,Ho,Wo,O)
// SporaxConvBackward(x, w, dy (N,Ho,Wo,O)) -> (dx (N,H,W,C), dw (O,C,kh,kw))
// Attributes: stride_h, stride_w, pad_top, pad_bottom, pad_left, pad_right (int64). One group, no
// dilation. The weights stay OIHW in XLA; each call reorders them to the primitive's blocked layout.
//
// The backward runs backward-data and backward-weights side by side, one OpenMP thread each, where oneDNN's team
// has two threads (the 2-core machines sporax is measured on): on two threads each primitive splits its work and
// meets the other thread at barriers, which cost 10-40% of a call's CPU (CPU ms of both, least of 10 alternated
// calls, b32 3x3, load 16: 64 ch 32x32 52.0 -> 34.5, 128 ch 16x16 48.5 -> 29.4, 256 ch 8x8 42.6 -> 33.4, 512 ch 4x4
// 72.5 -> 65.7; benchmarks/cpu_speed_notes.md, twentieth pass). With any other team size both run one after the
// other on the whole team (side by side on more cores would leave the rest idle), and so on a CPU whose oneDNN
// kernels are AVX2 ones (no AVX-512, or ONEDNN_MAX_CPU_ISA below it): there oneDNN's one-thread backward-weights
// kernel (jit:avx2) takes 1.4-2.6x the time of backward-data, so side by side the data thread idled for the rest
// of the call (AMD Zen3, b32, one thread, CPU ms: 64 ch 32x32 32 / 52, 256 ch 8x8 25 / 41, 512 ch 4x4 31 / 81;
// the ResNet-18 step kept 1.65 of 2 cores busy). On the team the step's backward convolutions took 873 against
// 1172 ms of wall a pass (medians of 10 alternated passes, loaded machine), every layer lower, the 512-channel
// 4x4 one most (67 against 116 ms); benchmarks/cpu_speed_notes.md, twenty-second pass.
//
// On AVX2 kernels the weight gradient of a window wider than 1x1 is no oneDNN convolution primitive at all but a
// GEMM (WeightGradientByGemm): each thread of the team takes a share of the input channels (of the batch where
// there are few channels), lays a chunk of its images out as rows of windows (im2col, (kh, kw, C) a row) and
// accumulates its dW columns (O x kh*kw*C) += dY^T . rows with oneDNN's sgemm on one thread, then lays them out OIHW
// (batch shares are added first). oneDNN 3.2 has no brgemm backward-weights on AVX2 and its jit:avx2 kernel ran at
// 25-45 GFLOP a CPU-second, the GEMM at 40-50 (AMD Zen3, b32, CPU ms a call on the two-thread team, least of 5,
// loaded machine: 64 ch 32x32 63 -> 49, 512 ch 4x4 114-138 -> 52-62, 256 -> 512 stride 2 63 -> 24-37;
// benchmarks/cpu_speed_notes.md, twenty-third pass).
#include <algorithm>
#include <array>
#include <cstring>
#include <exception>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "onednn_common.h"

extern "C" int omp_get_thread_num();
extern "C" int omp_get_max_threads();
extern "C" void omp_set_num_threads(int);
extern "C" int omp_get_num_threads();

namespace ffi = xla::ffi;
using dnnl::memory;
using Tag = memory::format_tag;
using namespace sporax_onednn;

namespace {

using Key = std::array<int64_t, 13>;

// oneDNN 3.2's first choice on AVX-512 is its brgemm convolution; on deep layers with a tiny image (ResNet-18's
// 512-channel 4x4 stage) its plain direct JIT kernel is faster, forward and backward-data (b32, 512 -> 512, 3x3,
// 4x4, CPU ms a call with the weight reorder, 2 threads: 37.7-42.5 -> 28.2-31.2 forward, 39.6 -> 28.8-30.4
// backward-data; 1 thread 26.7-37.2 -> 20.1-22.6 and 26.9-36.9 -> 14.7-15.1), and so on the strided layer into
// that stage (256 -> 512, 3x3, stride 2, 8x8 -> 4x4; 1 thread, least of 30 alternated calls in two runs:
// forward 13.1 / 17.6 -> 8.2 / 12.7, backward-data 14.5 / 20.8 -> 10.8 / 14.9; benchmarks/cpu_speed_notes.md,
// twentieth pass). At 8x8 outputs and wider the two are level or brgemm wins (the strided 128 -> 256 layer:
// 8.0-12.0 brgemm against 8.6-13.1 forward), so only windows wider than 1x1 whose output has at most 16 pixels
// take it, at any stride.
constexpr const char* kDirectJit = "jit:avx512";

bool PrefersDirectJit(const Key& k, int64_t ho, int64_t wo) { return ho * wo <= 16 && k[5] * k[6] > 1; }

// Moves ``pd`` on to its implementation whose name starts with ``name``: whether there is one. (A copy of a
// primitive_desc shares its handle, so a failed search leaves ``pd`` past the last one: build a fresh one.)
template <class PrimitiveDesc>
bool SeekImplementation(PrimitiveDesc& pd, const char* name) {
  do {
    if (std::string(pd.impl_info_str()).rfind(name, 0) == 0) return true;
  } while (pd.next_impl());
  return false;
}

// Whether oneDNN runs its AVX-512 kernels here (the CPU has them and ONEDNN_MAX_CPU_ISA allows them).
bool Avx512Kernels() {
  auto avx512 = static_cast<unsigned>(dnnl::cpu_isa::avx512_core);
  return (static_cast<unsigned>(dnnl::get_effective_cpu_isa()) & avx512) == avx512;
}

struct Conv {
  dnnl::engine engine{dnnl::engine::kind::cpu, 0};
  memory::desc src, dst, weights_user;
  dnnl::convolution_forward::primitive_desc forward_pd;
  dnnl::convolution_backward_data::primitive_desc data_pd;
  dnnl::convolution_backward_weights::primitive_desc weights_pd;
  dnnl::convolution_forward forward;
  dnnl::convolution_backward_data backward_data;
  dnnl::convolution_backward_weights backward_weights;
  bool side_by_side = false;  // the backward primitives were made for one thread each (see the file's comment)
  bool gemm_weights = false;  // the weight gradient is WeightGradientByGemm's, backward_weights is not made

  explicit Conv(const Key& k) {
    // k: N, C, H, W, O, kh, kw, stride_h, stride_w, pad_top, pad_bottom, pad_left, pad_right
    int64_t ho = (k[2] + k[9] + k[10] - k[5]) / k[7] + 1, wo = (k[3] + k[11] + k[12] - k[6]) / k[8] + 1;
    auto f32 = memory::data_type::f32;
    src = memory::desc({k[0], k[1], k[2], k[3]}, f32, Tag::nhwc);
    dst = memory::desc({k[0], k[4], ho, wo}, f32, Tag::nhwc);
    weights_user = memory::desc({k[4], k[1], k[5], k[6]}, f32, Tag::oihw);
    memory::desc weights_any({k[4], k[1], k[5], k[6]}, f32, Tag::any);
    memory::dims strides = {k[7], k[8]}, low = {k[9], k[11]}, high = {k[10], k[12]};
    auto attributes = UserScratchpad();
    auto direct = dnnl::algorithm::convolution_direct;
    auto make_forward = [&] {
      return dnnl::convolution_forward::primitive_desc(engine, dnnl::prop_kind::forward_training, direct, src,
          weights_any, dst, strides, low, high, attributes);
    };
    auto make_data = [&] {
      return dnnl::convolution_backward_data::primitive_desc(engine, direct, src, weights_any, dst, strides, low,
          high, forward_pd, attributes);
    };
    forward_pd = make_forward();
    bool direct_jit = PrefersDirectJit(k, ho, wo);
    if (direct_jit) {
      auto candidate = make_forward();
      if (SeekImplementation(candidate, kDirectJit)) forward_pd = candidate;
    }
    forward = dnnl::convolution_forward(forward_pd);
    // oneDNN sizes a primitive's work split by the team it sees when the primitive is made: one thread here.
    int threads = omp_get_max_threads();
    side_by_side = threads == 2 && Avx512Kernels();
    gemm_weights = !Avx512Kernels() && k[5] * k[6] > 1;
    if (side_by_side) omp_set_num_threads(1);
    try {
      data_pd = make_data();
      if (direct_jit) {
        auto candidate = make_data();
        if (SeekImplementation(candidate, kDirectJit)) data_pd = candidate;
      }
      backward_data = dnnl::convolution_backward_data(data_pd);
      if (!gemm_weights) {
        weights_pd = dnnl::convolution_backward_weights::primitive_desc(engine, direct, src, weights_any, dst,
            strides, low, high, forward_pd, attributes);
        backward_weights = dnnl::convolution_backward_weights(weights_pd);
      }
    } catch (...) {
      omp_set_num_threads(threads);
      throw;
    }
    omp_set_num_threads(threads);
  }
};

Conv& Primitives(const Key& key, bool* made = nullptr) {
  // Never destroyed: at exit, an XLA thread may still be running a program that uses a cached primitive
  // (an asynchronous call the script did not wait for) while static destructors run (a segfault after
  // ResNet's predict.py printed its result).
  static std::mutex& cache_mutex = *new std::mutex;
  static std::map<Key, std::unique_ptr<Conv>>& cache = *new std::map<Key, std::unique_ptr<Conv>>;
  std::lock_guard<std::mutex> lock(cache_mutex);
  auto& entry = cache[key];
  if (made) *made = !entry;
  if (!entry) entry = std::make_unique<Conv>(key);
  return *entry;
}

using F32 = ffi::Buffer<ffi::F32>;

Key MakeKey(ffi::Span<const int64_t> x, ffi::Span<const int64_t> w, int64_t sh, int64_t sw, int64_t pt, int64_t pb,
            int64_t pl, int64_t pr) {
  // x is NHWC, w is OIHW
  return Key{x[0], x[3], x[1], x[2], w[0], w[2], w[3], sh, sw, pt, pb, pl, pr};
}

// The forward call on host pointers (x NHWC, w OIHW); throws dnnl::error.
void Forward(const Key& key, const float* array, const float* weight, float* result) {
  Conv& conv = Primitives(key);
  auto& e = conv.engine;
  std::lock_guard<std::mutex> lock(CallMutex());
  if (Stopped()) return;
  dnnl::stream stream(e);
  memory weights = Reordered(conv.weights_user, conv.forward_pd.weights_desc(), weight, e, stream);
  conv.forward.execute(stream, {{DNNL_ARG_SRC, Wrap(conv.src, e, array)},
      {DNNL_ARG_WEIGHTS, weights}, {DNNL_ARG_DST, Wrap(conv.dst, e, result)},
      {DNNL_ARG_SCRATCHPAD, Scratchpad(conv.forward_pd.scratchpad_desc(), e)}});
  stream.wait();
}

ffi::Error RunForward(F32 array, F32 weight, ffi::ResultBuffer<ffi::F32> result, int64_t sh, int64_t sw, int64_t pt,
                      int64_t pb, int64_t pl, int64_t pr) {
  try {
    if (Stopped()) return ffi::Error::Success();
    Forward(MakeKey(array.dimensions(), weight.dimensions(), sh, sw, pt, pb, pl, pr), array.typed_data(),
            weight.typed_data(), result->typed_data());
  } catch (const dnnl::error& error) {
    return Failed("oneDNN convolution", error);
  }
  return ffi::Error::Success();
}

// The rows of images ``image`` .. ``image + images`` in the (positions x (kh, kw, channels)) window matrix of
// ``array`` (NHWC), channels ``channel`` .. ``channel + channels`` only, into ``rows``: positions are (image,
// output row, output column) in order, a window's taps outside the image are 0.
void WindowRows(const Key& k, int64_t ho, int64_t wo, const float* array, int64_t image, int64_t images,
                int64_t channel, int64_t channels, float* rows) {
  int64_t height = k[2], width = k[3];
  size_t bytes = sizeof(float) * channels;
  for (int64_t n = image; n < image + images; ++n)
    for (int64_t y = 0; y < ho; ++y)
      for (int64_t x = 0; x < wo; ++x)
        for (int64_t i = 0; i < k[5]; ++i) {
          int64_t row = y * k[7] - k[9] + i;
          for (int64_t j = 0; j < k[6]; ++j, rows += channels) {
            int64_t column = x * k[8] - k[11] + j;
            if (row < 0 || row >= height || column < 0 || column >= width) std::memset(rows, 0, bytes);
            else std::memcpy(rows, array + ((n * height + row) * width + column) * k[1] + channel, bytes);
          }
        }
}

// The weight gradient (OIHW) as a GEMM, shared out over the OpenMP team (see the file's comment); under CallMutex
// (the buffers are kept between calls, as the scratchpads). Each thread takes a share of the input channels over
// the whole batch (its own columns of dW: no shares to add, no barrier), or where there are fewer than 16 channels a
// thread (the stem) a share of the batch over all channels, the shares added at the end. By channels, CPU ms a call
// (AMD Zen3, b32, two threads, least of 5): quiet, 512 ch 4x4 40.7 -> 31.3 and the other 3x3 layers level (31-33,
// 15-16); at load 20, 0.7-0.9x on every layer (64 ch 32x32 56-65 -> 46-59, 512 ch 4x4 61 -> 45-50), the batch
// shares' sum and OIHW re-layout being 15% of the 512-channel call; benchmarks/cpu_speed_notes.md, 24th pass.
void WeightGradientByGemm(const Key& k, const float* array, const float* gradient, float* weight_gradient) {
  int64_t ho = (k[2] + k[9] + k[10] - k[5]) / k[7] + 1, wo = (k[3] + k[11] + k[12] - k[6]) / k[8] + 1;
  int64_t outputs = k[4], taps = k[5] * k[6], positions = ho * wo;
  // A chunk of about 2048 window rows (4.5 MB at 64 channels 3x3): the GEMM's K, its rows read from cache.
  int64_t chunk = std::max<int64_t>(1, 2048 / positions);
  static std::vector<std::vector<float>>& buffers = *new std::vector<std::vector<float>>;  // never destroyed
  int team = std::max(1, omp_get_max_threads());
  if (static_cast<int>(buffers.size()) < 2 * team) buffers.resize(2 * team);
  std::string failure;
#pragma omp parallel num_threads(team)
  {
    int thread = omp_get_thread_num(), threads = omp_get_num_threads();
    bool by_channels = k[1] >= 16 * threads;
    int64_t begin = 0, end = k[0], channel = 0, channels = k[1];
    if (by_channels) {
      channel = k[1] * thread / threads;
      channels = k[1] * (thread + 1) / threads - channel;
    } else {
      begin = k[0] * thread / threads;
      end = k[0] * (thread + 1) / threads;
    }
    int64_t width = taps * channels;
    std::vector<float>& sum = buffers[2 * thread];
    std::vector<float>& rows = buffers[2 * thread + 1];
    if (sum.size() < static_cast<size_t>(outputs * width)) sum.resize(outputs * width);
    if (rows.size() < static_cast<size_t>(std::min(chunk, end - begin) * positions * width))
      rows.resize(std::min(chunk, end - begin) * positions * width);
    if (begin == end) std::fill(sum.begin(), sum.begin() + outputs * width, 0.f);
    for (int64_t image = begin; image < end; image += chunk) {
      int64_t images = std::min(chunk, end - image);
      WindowRows(k, ho, wo, array, image, images, channel, channels, rows.data());
      // sum (O x width) (+)= dY^T (O x rows) . rows (rows x width); inside a parallel region oneDNN's sgemm runs on
      // the calling thread alone.
      dnnl_status_t status = dnnl_sgemm('T', 'N', outputs, width, images * positions, 1.f,
                                        gradient + image * positions * outputs, outputs, rows.data(), width,
                                        image == begin ? 0.f : 1.f, sum.data(), width);
      if (status != dnnl_success) {
#pragma omp critical
        failure = "sgemm failed with status " + std::to_string(status);
      }
    }
    if (by_channels) {  // this thread's columns (tap, channel) of dW into OIHW
      for (int64_t o = 0; o < outputs; ++o)
        for (int64_t tap = 0; tap < taps; ++tap)
          for (int64_t c = 0; c < channels; ++c)
            weight_gradient[(o * k[1] + channel + c) * taps + tap] = sum[(o * taps + tap) * channels + c];
    } else {
#pragma omp barrier
#pragma omp for
      for (int64_t o = 0; o < outputs; ++o)
        for (int64_t tap = 0; tap < taps; ++tap)
          for (int64_t c = 0; c < k[1]; ++c) {
            float total = 0.f;
            for (int t = 0; t < threads; ++t) total += buffers[2 * t][(o * taps + tap) * k[1] + c];
            weight_gradient[(o * k[1] + c) * taps + tap] = total;
          }
    }
  }
  if (!failure.empty()) throw std::runtime_error(failure);
}

// Backward-data (part 0) or backward-weights (part 1) of ``conv``, on its own stream and scratchpad.
void RunPart(const Key& key, Conv& conv, int part, const float* array, const float* weight, const float* gradient,
             float* array_gradient, float* weight_gradient) {
  auto& e = conv.engine;
  dnnl::stream stream(e);
  if (part == 0) {
    memory weights = Reordered(conv.weights_user, conv.data_pd.weights_desc(), weight, e, stream);
    conv.backward_data.execute(stream, {{DNNL_ARG_DIFF_DST, Wrap(conv.dst, e, gradient)},
        {DNNL_ARG_WEIGHTS, weights}, {DNNL_ARG_DIFF_SRC, Wrap(conv.src, e, array_gradient)},
        {DNNL_ARG_SCRATCHPAD, Scratchpad(conv.data_pd.scratchpad_desc(), e, 0)}});
  } else if (conv.gemm_weights) {
    WeightGradientByGemm(key, array, gradient, weight_gradient);
  } else {
    memory user = Wrap(conv.weights_user, e, weight_gradient);
    bool same = conv.weights_pd.diff_weights_desc() == conv.weights_user;
    memory blocked = same ? user : memory(conv.weights_pd.diff_weights_desc(), e);
    conv.backward_weights.execute(stream, {{DNNL_ARG_SRC, Wrap(conv.src, e, array)},
        {DNNL_ARG_DIFF_DST, Wrap(conv.dst, e, gradient)}, {DNNL_ARG_DIFF_WEIGHTS, blocked},
        {DNNL_ARG_SCRATCHPAD, Scratchpad(conv.weights_pd.scratchpad_desc(), e, 1)}});
    if (!same) dnnl::reorder(blocked, user).execute(stream, blocked, user);
  }
  stream.wait();
}

// The backward call on host pointers: "" or what failed; throws dnnl::error.
std::string Backward(const Key& key, const float* array, const float* weight, const float* gradient,
                     float* array_gradient, float* weight_gradient) {
  std::string failures[2];
  Conv& conv = Primitives(key);
  std::lock_guard<std::mutex> lock(CallMutex());
  if (Stopped()) return "";
  auto part = [&](int which) {
    try {
      RunPart(key, conv, which, array, weight, gradient, array_gradient, weight_gradient);
    } catch (const std::exception& error) {  // an exception must not leave an OpenMP region
      failures[which] = error.what();
    }
  };
  if (conv.side_by_side) {
    // A team of one (a nested region, a thread limit) runs both parts in turn.
#pragma omp parallel for num_threads(2) schedule(static, 1)
    for (int which = 0; which < 2; ++which) part(which);
  } else {
    part(0);
    part(1);
  }
  return failures[0].empty() ? failures[1] : failures[0];
}

ffi::Error RunBackward(F32 array, F32 weight, F32 gradient, ffi::ResultBuffer<ffi::F32> array_gradient,
                       ffi::ResultBuffer<ffi::F32> weight_gradient, int64_t sh, int64_t sw, int64_t pt, int64_t pb,
                       int64_t pl, int64_t pr) {
  std::string failure;
  try {
    if (Stopped()) return ffi::Error::Success();
    failure = Backward(MakeKey(array.dimensions(), weight.dimensions(), sh, sw, pt, pb, pl, pr),
                       array.typed_data(), weight.typed_data(), gradient.typed_data(),
                       array_gradient->typed_data(), weight_gradient->typed_data());
  } catch (const dnnl::error& error) {
    return Failed("oneDNN convolution backward", error);
  }
  if (!failure.empty()) return ffi::Error(ffi::ErrorCode::kInternal, "oneDNN convolution backward: " + failure);
  return ffi::Error::Success();
}

// ``key``'s 13 numbers (MakeKey's order) from the host entry points' shapes and attributes.
Key HostKey(const int64_t* x, const int64_t* w, const int64_t* a) {
  return Key{x[0], x[3], x[1], x[2], w[0], w[2], w[3], a[0], a[1], a[2], a[3], a[4], a[5]};
}

}  // namespace

#define SPORAX_CONV_ATTRIBUTES                                                                          \
  .Attr<int64_t>("stride_h").Attr<int64_t>("stride_w").Attr<int64_t>("pad_top").Attr<int64_t>("pad_bottom") \
      .Attr<int64_t>("pad_left").Attr<int64_t>("pad_right")

// Makes the primitives of ``count`` convolutions ahead of their first call (``keys``: 13 int64 each, in MakeKey's
// order), with their weight reorders, and sizes the scratchpads for them, so that a program's first run finds them
// made: conv_onednn.py calls it from a background thread while the main thread traces and XLA compiles (the first
// call would otherwise make them on the program's critical path). Returns how many of the shapes were new (0: all
// made before, or stopped), -1 where oneDNN failed (the first call then reports it).
extern "C" int64_t SporaxConvPrepare(const int64_t* keys, int64_t count) {
  int64_t made = 0;
  try {
    size_t bytes[2] = {0, 0};  // the scratchpads' sizes, slot by slot (see RunForward and RunPart)
    for (int64_t i = 0; i < count; ++i) {
      if (Stopped()) return made;
      Key key;
      std::copy(keys + 13 * i, keys + 13 * (i + 1), key.begin());
      bool new_shape = false;
      Conv& conv = Primitives(key, &new_shape);
      made += new_shape;
      if (new_shape) {  // the calls' weight reorders too: oneDNN's primitive cache then has them for the calls
        auto reorder = [&](const memory::desc& from, const memory::desc& to) {
          if (from != to) dnnl::reorder(dnnl::reorder::primitive_desc(conv.engine, from, conv.engine, to));
        };
        reorder(conv.weights_user, conv.forward_pd.weights_desc());
        reorder(conv.weights_user, conv.data_pd.weights_desc());
        if (!conv.gemm_weights) reorder(conv.weights_pd.diff_weights_desc(), conv.weights_user);
      }
      bytes[0] = std::max({bytes[0], conv.forward_pd.scratchpad_desc().get_size(),
                           conv.data_pd.scratchpad_desc().get_size()});
      if (!conv.gemm_weights) bytes[1] = std::max(bytes[1], conv.weights_pd.scratchpad_desc().get_size());
    }
    std::lock_guard<std::mutex> lock(CallMutex());
    if (Stopped()) return made;
    for (int slot = 0; slot < 2; ++slot) ScratchpadBuffer(bytes[slot], slot);
  } catch (const dnnl::error&) {
    return -1;
  }
  return made;
}

// Called once at process exit (sporax.core.process_setup): waits for the running call, then stops all.
extern "C" void SporaxOnednnStop() {
  std::lock_guard<std::mutex> lock(sporax_onednn::CallMutex());
  sporax_onednn::Stopped() = true;
}

// The same two calls on host memory, without XLA (benchmarks/first_step_host_eval.py runs a step's convolutions
// through them): ``x_shape`` NHWC, ``w_shape`` OIHW (4 numbers each), ``attributes`` the handlers' six in their
// order (stride_h, stride_w, pad_top, pad_bottom, pad_left, pad_right). 0 on success, -1 where oneDNN failed.
extern "C" int64_t SporaxConvForwardHost(const float* x, const int64_t* x_shape, const float* w, const int64_t* w_shape,
                                         const int64_t* attributes, float* y) {
  try {
    if (!Stopped()) Forward(HostKey(x_shape, w_shape, attributes), x, w, y);
  } catch (const dnnl::error&) {
    return -1;
  }
  return 0;
}

extern "C" int64_t SporaxConvBackwardHost(const float* x, const int64_t* x_shape, const float* w,
                                          const int64_t* w_shape, const float* dy, const int64_t* attributes,
                                          float* dx, float* dw) {
  try {
    if (!Stopped() && !Backward(HostKey(x_shape, w_shape, attributes), x, w, dy, dx, dw).empty()) return -1;
  } catch (const dnnl::error&) {
    return -1;
  }
  return 0;
}

XLA_FFI_DEFINE_HANDLER_SYMBOL(SporaxConvForward, RunForward,
    ffi::Ffi::Bind().Arg<F32>().Arg<F32>().Ret<F32>() SPORAX_CONV_ATTRIBUTES);
XLA_FFI_DEFINE_HANDLER_SYMBOL(SporaxConvBackward, RunBackward,
    ffi::Ffi::Bind().Arg<F32>().Arg<F32>().Arg<F32>().Ret<F32>().Ret<F32>() SPORAX_CONV_ATTRIBUTES);
