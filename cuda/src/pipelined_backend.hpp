#pragma once
// What the cuFFT and cuBLAS backends are alike as a Backend: the plan, the device, and one
// CallPipeline that runs every call. Each backend adds its CallSteps: what a call enqueues,
// how it is launched and how it is timed.
#include <span>
#include <string>
#include <utility>

#include "call_pipeline.hpp"
#include "device_info.hpp"
#include "frame_memory.hpp"
#include "psfsim/backend.hpp"

namespace psfsim::cuda {

template <typename Real>
class PipelinedBackend : public Backend, protected CallSteps {
 public:
  [[nodiscard]] std::string name() const override { return "cuda"; }
  [[nodiscard]] std::string device_name() const override { return device_name_; }
  [[nodiscard]] const PsfPlan& plan() const override { return plan_; }
  [[nodiscard]] FrameBlock compute(std::span<const AberrationPolynomial> frames) override {
    submit(frames);
    return finish();
  }
  // The phase tables are packed and the batch indices copied there.
  [[nodiscard]] bool copies_frames_at_submit() const override { return true; }
  void submit(std::span<const AberrationPolynomial> frames) override {
    const CurrentDeviceKept kept;
    pipeline_.submit(frames, *this);
  }
  void prepare_next(std::span<const AberrationPolynomial> frames) override {
    const CurrentDeviceKept kept;
    pipeline_.prepare(frames, *this);
  }
  void submit_into(std::span<const AberrationPolynomial> frames, void* frames_out) override {
    const CurrentDeviceKept kept;
    pipeline_.submit(frames, *this, frames_out);
  }
  [[nodiscard]] FrameBlock finish() override {
    const CurrentDeviceKept kept;
    return pipeline_.finish(*this);
  }

  [[nodiscard]] std::shared_ptr<const void> lend_block() override { return pipeline_.lend(); }

  [[nodiscard]] std::shared_ptr<void> frame_memory(std::size_t bytes, int& device) const override {
    device = plan_.device;
    // On the stream the calls' copies into it are queued on (submit_into).
    return pooled_frame_memory(plan_.device, bytes, pipeline_.stream());
  }
  [[nodiscard]] std::shared_ptr<void> host_frame_memory(std::size_t bytes) const override {
    return pinned_frame_memory(bytes);
  }
  [[nodiscard]] MemoryCopy memory_copy() const override { return copy_memory; }
  void wait_for_stream(std::uintptr_t stream) override { wait_for_caller_stream(stream); }
  [[nodiscard]] int memory_device(const void* address) const override { return device_of(address); }

 protected:
  // `device_name`: from opening the plan's device, which must come before any CUDA object.
  // `inline_tables`: see CallPipeline.
  PipelinedBackend(const PsfPlan& plan, std::string device_name, bool inline_tables)
      : plan_(plan), device_name_(std::move(device_name)), pipeline_(plan_, inline_tables) {}
  // A backend's destructor calls pipeline_.stop() before its own buffers and plans go.
  ~PipelinedBackend() override = default;

  PsfPlan plan_;
  std::string device_name_;
  // Released after everything of the backend's own: its streams outlive every buffer, plan
  // and handle made on them.
  CallPipeline<Real> pipeline_;
};

}  // namespace psfsim::cuda
