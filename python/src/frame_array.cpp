#include "frame_array.hpp"

#include <pybind11/stl.h>


namespace psfsim::python {
namespace py = pybind11;
namespace {

// What a capsule's tensor owns: the shape it points to and a hold on the frames.
struct Exported {
  DLManagedTensor tensor{};
  std::vector<std::int64_t> shape;
  std::shared_ptr<void> data;
};

void delete_exported(DLManagedTensor* tensor) {
  delete static_cast<Exported*>(tensor->manager_ctx);
}

// A capsule never consumed still owns its tensor; a consumer renames it "used_dltensor".
void delete_capsule(PyObject* capsule) {
  if (PyCapsule_IsValid(capsule, "dltensor") == 0) return;
  auto* tensor = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule, "dltensor"));
  if (tensor != nullptr && tensor->deleter != nullptr) tensor->deleter(tensor);
}


}  // namespace

MemoryKind memory_kind(int dlpack_device_type) noexcept {
  switch (dlpack_device_type) {
    case kDLCPU: return MemoryKind::host;
    case kDLCUDA: return MemoryKind::gpu;
    default: return MemoryKind::other;
  }
}

FrameArray::FrameArray(std::shared_ptr<void> data, DLDevice device, Precision precision,
                       std::vector<std::int64_t> shape, Backend::MemoryCopy copy)
    : data_(std::move(data)),
      device_(device),
      precision_(precision),
      shape_(std::move(shape)),
      copy_(copy) {}

py::capsule FrameArray::dlpack(const py::object& /*stream*/) const {
  auto exported = std::make_unique<Exported>();
  exported->shape = shape_;
  exported->data = data_;
  DLTensor& t = exported->tensor.dl_tensor;
  t.data = data_.get();
  t.device = device_;
  t.ndim = static_cast<int>(shape_.size());
  t.dtype = DLDataType{kDLFloat, static_cast<std::uint8_t>(8 * bytes_per_real(precision_)), 1};
  t.shape = exported->shape.data();
  t.strides = nullptr;  // C order
  t.byte_offset = 0;
  exported->tensor.manager_ctx = exported.get();
  exported->tensor.deleter = delete_exported;
  DLManagedTensor* tensor = &exported->tensor;
  py::capsule capsule(tensor, "dltensor", delete_capsule);
  (void)exported.release();
  return capsule;
}

py::tuple FrameArray::dlpack_device() const {
  return py::make_tuple(static_cast<int>(device_.device_type), device_.device_id);
}

py::dict FrameArray::cuda_array_interface() const {
  if (memory_kind(device_.device_type) != MemoryKind::gpu)
    throw py::attribute_error("__cuda_array_interface__: these frames are in host memory");
  py::dict d;
  d["shape"] = py::tuple(py::cast(shape_));
  d["typestr"] = precision_ == Precision::single ? "<f4" : "<f8";
  d["data"] = py::make_tuple(reinterpret_cast<std::uintptr_t>(data_.get()), false);
  d["version"] = 3;
  d["strides"] = py::none();
  d["stream"] = py::none();  // complete before the object exists: nothing to wait for
  return d;
}

py::array FrameArray::numpy() const {
  const py::dtype dtype(precision_ == Precision::single ? "float32" : "float64");
  if (memory_kind(device_.device_type) == MemoryKind::host) {
    // The capsule's hold on the frames keeps them alive while the view lives.
    auto* hold = new std::shared_ptr<void>(data_);
    const py::capsule base(hold, [](void* p) { delete static_cast<std::shared_ptr<void>*>(p); });
    return py::array(dtype, shape_, {}, data_.get(), base);
  }
  py::array host(dtype, shape_);
  const std::size_t bytes = static_cast<std::size_t>(host.nbytes());
  void* to = host.mutable_data();
  {
    const py::gil_scoped_release release;
    copy_(to, data_.get(), bytes, device_.device_id);
  }
  return host;
}

void bind_frame_array(py::module_& module) {
  py::class_<FrameArray>(module, "FrameArray", R"(Frames in memory psfsim allocated.

Returned by ``result="device"``: on the cuda backend in GPU memory, on the cpu backend in
host memory. Hand it to ``torch.from_dlpack``, ``cupy.from_dlpack``,
``jax.dlpack.from_dlpack`` or ``numpy.from_dlpack`` without a copy. The frames are complete
when the object is returned, so any consumer stream may read them at once.)")
      .def_property_readonly("shape",
                             [](const FrameArray& a) { return py::tuple(py::cast(a.shape())); })
      .def_property_readonly(
          "dtype",
          [](const FrameArray& a) {
            return py::dtype(a.precision() == Precision::single ? "float32" : "float64");
          })
      .def_property_readonly("ndim", [](const FrameArray& a) { return a.shape().size(); })
      .def("__dlpack__", &FrameArray::dlpack, py::arg("stream") = py::none(),
           "A DLPack capsule of the frames (no copy); `stream` needs no wait.")
      .def("__dlpack_device__", &FrameArray::dlpack_device)
      .def_property_readonly("__cuda_array_interface__", &FrameArray::cuda_array_interface)
      .def("numpy", &FrameArray::numpy,
           "The frames as a NumPy array: a view of host frames, a copy of device frames.")
      .def(
          "__array__",
          [](const FrameArray& a, const py::object& dtype) {
            py::array view = a.numpy();
            return dtype.is_none() ? view : view.attr("astype")(dtype).cast<py::array>();
          },
          py::arg("dtype") = py::none())
      .def("__len__", [](const FrameArray& a) { return a.shape().empty() ? 0 : a.shape()[0]; });
}

}  // namespace psfsim::python
