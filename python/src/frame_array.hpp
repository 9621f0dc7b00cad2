#pragma once
// psfsim.FrameArray: frames in memory psfsim allocated, on the host or a device, handed to
// NumPy, CuPy, PyTorch or JAX without a copy through DLPack (__dlpack__, __dlpack_device__)
// and, on a GPU, __cuda_array_interface__ (version 3). The frames are complete when the
// object is made, so a consumer's stream needs no synchronisation (docs/python.md).
#include <dlpack/dlpack.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "psfsim/backend.hpp"
#include "psfsim/enums.hpp"

namespace psfsim::python {

// Where a DLPack device type's memory is, for the arrays psfsim writes into and hands out:
// host memory, a GPU's, or a kind psfsim neither reads nor writes.
enum class MemoryKind { host, gpu, other };
[[nodiscard]] MemoryKind memory_kind(int dlpack_device_type) noexcept;

class FrameArray {
 public:
  // `data` holds the frames and frees them when the last holder lets go; `copy` copies them
  // to the host (Backend::memory_copy).
  FrameArray(std::shared_ptr<void> data, DLDevice device, Precision precision,
             std::vector<std::int64_t> shape, Backend::MemoryCopy copy);

  [[nodiscard]] void* data() const noexcept { return data_.get(); }
  [[nodiscard]] const std::vector<std::int64_t>& shape() const noexcept { return shape_; }
  [[nodiscard]] Precision precision() const noexcept { return precision_; }
  [[nodiscard]] DLDevice device() const noexcept { return device_; }

  // A "dltensor" capsule of the frames; `stream` is the consumer's, which needs no wait.
  [[nodiscard]] pybind11::capsule dlpack(const pybind11::object& stream) const;
  [[nodiscard]] pybind11::tuple dlpack_device() const;
  // Raises AttributeError for host memory, as the protocol asks of non-CUDA objects.
  [[nodiscard]] pybind11::dict cuda_array_interface() const;
  // Host frames as a NumPy view that keeps them alive; device frames copied to the host.
  [[nodiscard]] pybind11::array numpy() const;

 private:
  std::shared_ptr<void> data_;
  DLDevice device_;
  Precision precision_;
  std::vector<std::int64_t> shape_;
  Backend::MemoryCopy copy_;
};

// Registers the class on `module`.
void bind_frame_array(pybind11::module_& module);

}  // namespace psfsim::python
