#pragma once
// Stream capture into an executable CUDA graph: one launch replays the whole per-call
// sequence (kernels, cuFFT, copies, event records) at a fraction of the launch overhead.
#include <cuda_runtime_api.h>

#include <utility>

namespace psfsim::cuda {

// A recorded graph and its executable instance. The graph is kept so that its nodes can
// be found and retargeted in the instance (cudaGraphExec*SetParams).
class RecordedGraph {
 public:
  RecordedGraph() = default;
  explicit RecordedGraph(cudaGraph_t graph);  // takes ownership and instantiates
  RecordedGraph(RecordedGraph&& other) noexcept
      : graph_(std::exchange(other.graph_, nullptr)), exec_(std::exchange(other.exec_, nullptr)) {}
  RecordedGraph& operator=(RecordedGraph&& other) noexcept {
    std::swap(graph_, other.graph_);
    std::swap(exec_, other.exec_);
    return *this;
  }
  RecordedGraph(const RecordedGraph&) = delete;
  RecordedGraph& operator=(const RecordedGraph&) = delete;
  ~RecordedGraph();

  [[nodiscard]] cudaGraph_t graph() const noexcept { return graph_; }
  [[nodiscard]] cudaGraphExec_t exec() const noexcept { return exec_; }
  void launch(cudaStream_t stream) const;

 private:
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

// Everything issued on `stream` (and on streams it forks to) between construction and
// finish() is recorded, not run. If an error interrupts the recording, the destructor ends
// the capture so that the stream is usable again.
class StreamCapture {
 public:
  explicit StreamCapture(cudaStream_t stream);
  StreamCapture(const StreamCapture&) = delete;
  StreamCapture& operator=(const StreamCapture&) = delete;
  ~StreamCapture();

  [[nodiscard]] RecordedGraph finish();

 private:
  cudaStream_t stream_;
  bool capturing_ = false;
};

}  // namespace psfsim::cuda
