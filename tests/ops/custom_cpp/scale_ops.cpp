// Custom operators for tests/ops/test_custom_op_builder.py, written against MindSpore's C++ extension API.
#include "ms_extension/api.h"

// out = alpha * x + y (float32), using a workspace for alpha * x
class ScaleAdd : public ms::pynative::PyboostRunner {
 public:
  ScaleAdd(const std::string &name, float alpha) : PyboostRunner(name), alpha_(alpha) {}
  size_t CalcWorkspace() override { return inputs()[0].numel() * sizeof(float); }
  void LaunchKernel() override {
    const float *x = static_cast<const float *>(inputs()[0].GetDataPtr());
    const float *y = static_cast<const float *>(inputs()[1].GetDataPtr());
    float *scratch = static_cast<float *>(workspace_ptr());
    float *out = static_cast<float *>(outputs()[0].GetDataPtr());
    size_t n = inputs()[0].numel();
    for (size_t i = 0; i < n; ++i) scratch[i] = alpha_ * x[i];
    for (size_t i = 0; i < n; ++i) out[i] = scratch[i] + y[i];
  }
  static ms::Tensor Eval(const ms::Tensor &x, const ms::Tensor &y, double alpha) {
    ms::Tensor out(x.data_type(), x.shape());
    std::make_shared<ScaleAdd>("ScaleAdd", static_cast<float>(alpha))->Run({x, y}, {out});
    return out;
  }

 private:
  float alpha_;
};

// Row sums and row maxima of a 2-D float32 tensor: two outputs of shape [rows].
class RowStats : public ms::pynative::PyboostRunner {
 public:
  using PyboostRunner::PyboostRunner;
  void LaunchKernel() override {
    const auto &x = inputs()[0];
    int64_t rows = x.shape()[0], cols = x.shape()[1];
    const float *data = static_cast<const float *>(x.GetDataPtr());
    float *sums = static_cast<float *>(outputs()[0].GetDataPtr());
    float *maxima = static_cast<float *>(outputs()[1].GetDataPtr());
    for (int64_t r = 0; r < rows; ++r) {
      float total = 0, best = data[r * cols];
      for (int64_t c = 0; c < cols; ++c) {
        total += data[r * cols + c];
        best = data[r * cols + c] > best ? data[r * cols + c] : best;
      }
      sums[r] = total;
      maxima[r] = best;
    }
  }
  static std::vector<ms::Tensor> Eval(const ms::Tensor &x) {
    ms::Tensor sums(x.data_type(), {x.shape()[0]});
    ms::Tensor maxima(x.data_type(), {x.shape()[0]});
    std::make_shared<RowStats>("RowStats")->Run({x}, {sums, maxima});
    return {sums, maxima};
  }
};

// Integer op without a workspace: out = x * x (int32).
class SquareInt : public ms::pynative::PyboostRunner {
 public:
  using PyboostRunner::PyboostRunner;
  void LaunchKernel() override {
    const int32_t *x = static_cast<const int32_t *>(inputs()[0].GetDataPtr());
    int32_t *out = static_cast<int32_t *>(outputs()[0].GetDataPtr());
    for (size_t i = 0; i < inputs()[0].numel(); ++i) out[i] = x[i] * x[i];
  }
  static ms::Tensor Eval(const ms::Tensor &x) {
    ms::Tensor out(x.data_type(), x.shape());
    std::make_shared<SquareInt>("SquareInt")->Run({x}, {out});
    return out;
  }
};

// The tensor API and factories: each result is checked against NumPy by the test.
std::vector<ms::Tensor> api_results(const ms::Tensor &x) {
  std::vector<int64_t> picks{2, 0};
  return {ms::ones({2, 2}),
          ms::zeros({3}, ms::TypeId::kNumberTypeInt32),
          ms::tensor(std::vector<double>{1.5, 2.5}),
          ms::tensor(int64_t{7}),
          x.flatten(),
          x.cast(ms::TypeId::kNumberTypeFloat64),
          x.chunk(2, 0)[1],
          x.repeat({1, 2}),
          x.index_select(1, ms::tensor(picks)),
          x.repeat_interleave(2, 0),
          x.reshape({3, -1})};
}

py::object api_check(const ms::Tensor &x) { return ms::pynative::PyboostRunner::Call<11>(api_results, x); }

// Plain values pass through: (numel, strides, whether the dtype is float32)
py::tuple describe(const ms::Tensor &x) {
  return py::make_tuple(x.numel(), x.stride(), x.data_type() == ms::TypeId::kNumberTypeFloat32);
}

py::object scale_add(const ms::Tensor &x, const ms::Tensor &y, double alpha) {
  return ms::pynative::PyboostRunner::Call<1>(ScaleAdd::Eval, x, y, alpha);
}
py::object row_stats(const ms::Tensor &x) { return ms::pynative::PyboostRunner::Call<2>(RowStats::Eval, x); }
py::object square_int(const ms::Tensor &x) { return ms::pynative::PyboostRunner::Call<1>(SquareInt::Eval, x); }

PYBIND11_MODULE(MS_EXTENSION_NAME, m) {
  m.def("scale_add", &scale_add, "alpha * x + y", pybind11::arg("x"), pybind11::arg("y"), pybind11::arg("alpha"));
  m.def("row_stats", &row_stats, "row sums and maxima", pybind11::arg("x"));
  m.def("square_int", &square_int, "x * x", pybind11::arg("x"));
  m.def("api_check", &api_check, "tensor API results", pybind11::arg("x"));
  m.def("describe", &describe, "numel, strides, is float32", pybind11::arg("x"));
}
