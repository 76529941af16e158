// sporax's implementation of the part of MindSpore's C++ custom-operator API that CPU operators built by
// ops.CustomOpBuilder use: ms::TypeId, ms::Tensor over host buffers (NumPy arrays), the factories
// ms::tensor/ones/zeros, and ms::pynative::PyboostRunner, which runs an operator synchronously on the host.
// Tensors cross into Python as NumPy arrays; sporax's Python side turns them into sporax Tensors.
#ifndef SPORAX_MS_EXTENSION_API_H_
#define SPORAX_MS_EXTENSION_API_H_

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace py = pybind11;

namespace ms {

enum TypeId : int {
  kTypeUnknown = 0,
  kNumberTypeBegin,
  kNumberTypeBool,
  kNumberTypeInt,
  kNumberTypeInt8,
  kNumberTypeInt16,
  kNumberTypeInt32,
  kNumberTypeInt64,
  kNumberTypeUInt,
  kNumberTypeUInt8,
  kNumberTypeUInt16,
  kNumberTypeUInt32,
  kNumberTypeUInt64,
  kNumberTypeFloat,
  kNumberTypeFloat16,
  kNumberTypeFloat32,
  kNumberTypeFloat64,
  kNumberTypeBFloat16,
  kNumberTypeDouble,
  kNumberTypeComplex,
  kNumberTypeComplex64,
  kNumberTypeComplex128,
  kNumberTypeInt4,
  kNumberTypeGLUInt,
  kNumberTypeEnd,
};

using ShapeVector = std::vector<int64_t>;

namespace detail {

// The NumPy dtype name of a TypeId (the aliases Int/UInt/Float/Double/Complex name their default widths).
inline const char *DtypeName(TypeId type) {
  switch (type) {
    case kNumberTypeBool: return "bool";
    case kNumberTypeInt8: return "int8";
    case kNumberTypeInt16: return "int16";
    case kNumberTypeInt:
    case kNumberTypeInt32: return "int32";
    case kNumberTypeInt64: return "int64";
    case kNumberTypeUInt8: return "uint8";
    case kNumberTypeUInt16: return "uint16";
    case kNumberTypeUInt:
    case kNumberTypeUInt32: return "uint32";
    case kNumberTypeUInt64: return "uint64";
    case kNumberTypeFloat16: return "float16";
    case kNumberTypeFloat:
    case kNumberTypeFloat32: return "float32";
    case kNumberTypeDouble:
    case kNumberTypeFloat64: return "float64";
    case kNumberTypeBFloat16: return "bfloat16";
    case kNumberTypeComplex:
    case kNumberTypeComplex64: return "complex64";
    case kNumberTypeComplex128: return "complex128";
    default: throw std::invalid_argument("ms::Tensor: TypeId " + std::to_string(static_cast<int>(type)) +
                                         " has no host storage in sporax");
  }
}

inline py::dtype Dtype(TypeId type) {
  if (type == kNumberTypeBFloat16) {
    return py::dtype::from_args(py::module_::import("ml_dtypes").attr("bfloat16"));
  }
  return py::dtype(DtypeName(type));
}

inline TypeId TypeOf(const py::dtype &dtype) {
  const std::string name = py::str(dtype);
  const std::pair<const char *, TypeId> table[] = {
      {"bool", kNumberTypeBool},       {"int8", kNumberTypeInt8},         {"int16", kNumberTypeInt16},
      {"int32", kNumberTypeInt32},     {"int64", kNumberTypeInt64},       {"uint8", kNumberTypeUInt8},
      {"uint16", kNumberTypeUInt16},   {"uint32", kNumberTypeUInt32},     {"uint64", kNumberTypeUInt64},
      {"float16", kNumberTypeFloat16}, {"float32", kNumberTypeFloat32},   {"float64", kNumberTypeFloat64},
      {"bfloat16", kNumberTypeBFloat16}, {"complex64", kNumberTypeComplex64},
      {"complex128", kNumberTypeComplex128}};
  for (const auto &entry : table) {
    if (name == entry.first) return entry.second;
  }
  throw std::invalid_argument("ms::Tensor: NumPy dtype " + name + " has no MindSpore TypeId");
}

inline py::module_ Numpy() { return py::module_::import("numpy"); }

}  // namespace detail

// A tensor over a C-contiguous host buffer (a NumPy array, shared by copies of the Tensor).
class Tensor {
 public:
  Tensor() = default;

  Tensor(TypeId type_id, const ShapeVector &shape)
      : Tensor(py::array(detail::Numpy().attr("zeros")(py::cast(shape), detail::Dtype(type_id)))) {}

  explicit Tensor(py::array array) {
    array_ = py::array(detail::Numpy().attr("require")(array, py::none(), "C"));
    type_ = detail::TypeOf(array_.dtype());
    shape_.assign(array_.shape(), array_.shape() + array_.ndim());
  }

  bool is_defined() const { return static_cast<bool>(array_); }
  TypeId data_type() const { return type_; }
  const ShapeVector &shape() const { return shape_; }
  size_t numel() const { return is_defined() ? static_cast<size_t>(array_.size()) : 0; }

  std::vector<int64_t> stride() const {
    std::vector<int64_t> strides(shape_.size(), 1);
    for (size_t i = shape_.size(); i > 1; --i) strides[i - 2] = strides[i - 1] * shape_[i - 1];
    return strides;
  }
  int64_t storage_offset() const { return 0; }
  bool is_contiguous() const { return true; }
  void SetNeedContiguous(bool flag) const { need_contiguous_ = flag; }
  bool need_contiguous() const { return need_contiguous_; }

  // Writable even for an input: sporax hands each operator its own copy of the input data.
  void *GetDataPtr() const { return const_cast<void *>(array_.data()); }

  Tensor cast(TypeId dtype) const { return Tensor(py::array(array_.attr("astype")(detail::Dtype(dtype)))); }
  Tensor contiguous() const { return *this; }
  Tensor reshape(const std::vector<int64_t> &shape) const {
    return Tensor(py::array(array_.attr("reshape")(py::cast(shape))));
  }
  Tensor flatten(int64_t start_dim = 0, int64_t end_dim = -1) const {
    const int64_t rank = static_cast<int64_t>(shape_.size());
    if (rank == 0) return reshape({1});
    start_dim = start_dim < 0 ? start_dim + rank : start_dim;
    end_dim = end_dim < 0 ? end_dim + rank : end_dim;
    ShapeVector shape(shape_.begin(), shape_.begin() + start_dim);
    int64_t merged = 1;
    for (int64_t i = start_dim; i <= end_dim; ++i) merged *= shape_[i];
    shape.push_back(merged);
    shape.insert(shape.end(), shape_.begin() + end_dim + 1, shape_.end());
    return reshape(shape);
  }
  std::vector<Tensor> chunk(int64_t chunks, int64_t dim = 0) const {
    if (chunks <= 0) throw std::invalid_argument("ms::Tensor::chunk: 'chunks' must be positive");
    dim = dim < 0 ? dim + static_cast<int64_t>(shape_.size()) : dim;
    const int64_t size = shape_.at(dim), step = (size + chunks - 1) / chunks;
    std::vector<Tensor> pieces;
    for (int64_t begin = 0; begin < size; begin += step) {
      py::object indices = detail::Numpy().attr("arange")(begin, std::min(begin + step, size));
      pieces.emplace_back(py::array(detail::Numpy().attr("take")(array_, indices, dim)));
    }
    return pieces;
  }
  Tensor index_select(int64_t dim, const Tensor &index) const {
    return Tensor(py::array(detail::Numpy().attr("take")(array_, index.array(), dim)));
  }
  Tensor repeat(const std::vector<int64_t> &repeats) const {
    return Tensor(py::array(detail::Numpy().attr("tile")(array_, py::cast(repeats))));
  }
  Tensor repeat_interleave(int64_t repeats, std::optional<int64_t> dim = std::nullopt,
                           std::optional<int64_t> output_size = std::nullopt) const {
    (void)output_size;
    py::object axis = dim ? py::cast(*dim) : py::none();
    return Tensor(py::array(detail::Numpy().attr("repeat")(array_, repeats, axis)));
  }
  Tensor repeat_interleave(const Tensor &repeats, std::optional<int64_t> dim = std::nullopt,
                           std::optional<int64_t> output_size = std::nullopt) const {
    (void)output_size;
    py::object axis = dim ? py::cast(*dim) : py::none();
    return Tensor(py::array(detail::Numpy().attr("repeat")(array_, repeats.array(), axis)));
  }

  // sporax: the NumPy array holding the data (what crosses into Python).
  const py::array &array() const { return array_; }

 private:
  py::array array_;
  TypeId type_ = kTypeUnknown;
  ShapeVector shape_;
  mutable bool need_contiguous_ = true;
};

inline Tensor tensor(int64_t value, TypeId dtype = TypeId::kNumberTypeInt64) {
  return Tensor(py::array(detail::Numpy().attr("array")(value, detail::Dtype(dtype))));
}
inline Tensor tensor(const std::vector<int64_t> &value, TypeId dtype = TypeId::kNumberTypeInt64) {
  return Tensor(py::array(detail::Numpy().attr("array")(py::cast(value), detail::Dtype(dtype))));
}
inline Tensor tensor(double value, TypeId dtype = TypeId::kNumberTypeFloat64) {
  return Tensor(py::array(detail::Numpy().attr("array")(value, detail::Dtype(dtype))));
}
inline Tensor tensor(const std::vector<double> &value, TypeId dtype = TypeId::kNumberTypeFloat64) {
  return Tensor(py::array(detail::Numpy().attr("array")(py::cast(value), detail::Dtype(dtype))));
}
inline Tensor ones(const ShapeVector &shape, TypeId dtype = TypeId::kNumberTypeFloat32) {
  return Tensor(py::array(detail::Numpy().attr("ones")(py::cast(shape), detail::Dtype(dtype))));
}
inline Tensor zeros(const ShapeVector &shape, TypeId dtype = TypeId::kNumberTypeFloat32) {
  return Tensor(dtype, shape);
}

namespace pynative {

// Runs a custom operator: Run() sizes and allocates the workspace (CalcWorkspace), then calls LaunchKernel,
// synchronously on the host (MindSpore pipelines these stages; the results are the same).
class PyboostRunner : public std::enable_shared_from_this<PyboostRunner> {
 public:
  explicit PyboostRunner(const std::string &op_name) : op_name_(op_name) {}
  virtual ~PyboostRunner() = default;

  virtual size_t CalcWorkspace() { return 0; }
  virtual void LaunchKernel() = 0;

  void Run(const std::vector<Tensor> &inputs, const std::vector<Tensor> &outputs) {
    inputs_ = inputs;
    outputs_ = outputs;
    workspace_.assign(CalcWorkspace(), 0);
    LaunchKernel();
  }

  template <int OUT_NUM, typename FuncType, typename... Args>
  static py::object Call(FuncType func, Args &&... args) {
    return ToPython(func(std::forward<Args>(args)...), OUT_NUM);
  }

  const std::string &op_name() const { return op_name_; }
  const std::vector<Tensor> &inputs() const { return inputs_; }
  const std::vector<Tensor> &outputs() const { return outputs_; }
  uint32_t stream_id() const { return 0; }
  void *stream() { return nullptr; }
  void *workspace_ptr() { return workspace_.empty() ? nullptr : workspace_.data(); }

 private:
  static py::object ToPython(const Tensor &output, int out_num) {
    return ToPython(std::vector<Tensor>{output}, out_num);
  }
  static py::object ToPython(const std::vector<Tensor> &outputs, int out_num) {
    if (static_cast<int>(outputs.size()) != out_num) {
      throw std::runtime_error("PyboostRunner::Call<" + std::to_string(out_num) + ">: the function returned " +
                               std::to_string(outputs.size()) + " tensors; OUT_NUM must match that count");
    }
    if (out_num == 1) return outputs[0].array();
    py::tuple result(outputs.size());
    for (size_t i = 0; i < outputs.size(); ++i) result[i] = outputs[i].array();
    return std::move(result);
  }

  std::string op_name_;
  std::vector<Tensor> inputs_;
  std::vector<Tensor> outputs_;
  std::vector<unsigned char> workspace_;
};

}  // namespace pynative
}  // namespace ms

// ms::Tensor arguments and results cross the Python boundary as NumPy arrays.
namespace pybind11 {
namespace detail {
template <>
struct type_caster<ms::Tensor> {
  PYBIND11_TYPE_CASTER(ms::Tensor, const_name("numpy.ndarray"));

  bool load(handle source, bool) {
    if (!isinstance<array>(source)) return false;
    value = ms::Tensor(reinterpret_borrow<array>(source));
    return true;
  }
  static handle cast(const ms::Tensor &source, return_value_policy, handle) {
    return source.is_defined() ? source.array().inc_ref() : none().release();
  }
};
}  // namespace detail
}  // namespace pybind11

#endif  // SPORAX_MS_EXTENSION_API_H_
