#include "cuda_graph.hpp"

#include "cuda_check.hpp"

namespace psfsim::cuda {

RecordedGraph::RecordedGraph(cudaGraph_t graph) : graph_(graph) {
  if (const cudaError_t err = cudaGraphInstantiate(&exec_, graph_, 0); err != cudaSuccess) {
    cudaGraphDestroy(graph_);  // no destructor runs for a constructor that throws
    PSFSIM_CUDA_CHECK(err);
  }
}

RecordedGraph::~RecordedGraph() {
  if (exec_ != nullptr) cudaGraphExecDestroy(exec_);
  if (graph_ != nullptr) cudaGraphDestroy(graph_);
}

void RecordedGraph::launch(cudaStream_t stream) const {
  PSFSIM_CUDA_CHECK(cudaGraphLaunch(exec_, stream));
}

StreamCapture::StreamCapture(cudaStream_t stream) : stream_(stream) {
  // Thread-local mode: other threads of the process may keep using CUDA while we record.
  PSFSIM_CUDA_CHECK(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal));
  capturing_ = true;
}

StreamCapture::~StreamCapture() {
  if (!capturing_) return;
  cudaGraph_t partial = nullptr;
  if (cudaStreamEndCapture(stream_, &partial) == cudaSuccess && partial != nullptr)
    cudaGraphDestroy(partial);
  cudaGetLastError();  // the error that interrupted the capture has already been thrown
}

RecordedGraph StreamCapture::finish() {
  capturing_ = false;
  cudaGraph_t graph = nullptr;
  PSFSIM_CUDA_CHECK(cudaStreamEndCapture(stream_, &graph));
  return RecordedGraph(graph);  // owns the graph from here, also if instantiation throws
}

}  // namespace psfsim::cuda
