#include "slot_frames.hpp"

#include "device_info.hpp"

namespace psfsim::cuda {

template <typename Real>
void SlotFrames<Real>::allocate(std::size_t values, bool on_device) {
  auto memory = std::make_shared<Memory>();
  if (on_device) {
    memory->device = DeviceBuffer<Real>(values);
    data_ = view_ = memory->device.data();
  } else {
    memory->host = PinnedBuffer<Real>(values);
    data_ = memory->host.data();
    view_ = device_view(memory->host);
  }
  memory_ = std::move(memory);
  waits_for_release_ = false;
}

template <typename Real>
std::shared_ptr<const void> SlotFrames<Real>::lend(int device) {
  memory_->lent.store(true, std::memory_order_release);
  waits_for_release_ = true;
  // The deleter holds the memory: it outlives the backend while lent.
  return {data_, [memory = memory_, device](const void*) {
            {
              const CurrentDeviceKept kept;
              // At exit, or after a device error, there is no later call to order.
              if (cudaSetDevice(device) == cudaSuccess)
                (void)cudaEventRecord(memory->released.get(), cudaStreamLegacy);
              (void)cudaGetLastError();
            }
            memory->lent.store(false, std::memory_order_release);
          }};
}

template <typename Real>
void SlotFrames<Real>::wait_for_release(cudaStream_t stream) {
  if (!waits_for_release_) return;
  PSFSIM_CUDA_CHECK(cudaStreamWaitEvent(stream, memory_->released.get(), 0));
  waits_for_release_ = false;
}

template class SlotFrames<float>;
template class SlotFrames<double>;

}  // namespace psfsim::cuda
