#include "graph_cache.hpp"

#include <cstring>
#include <utility>

#include "cuda_check.hpp"
#include "psfsim/errors.hpp"

namespace psfsim::cuda {

template <typename Real>
typename GraphCache<Real>::CachedGraph& GraphCache<Real>::find_or_record(
    const GraphKey& key, const InlineTables& tables, cudaStream_t stream,
    const std::function<void()>& issue_pipeline) {
  for (CachedGraph& g : graphs_)
    if (g.key == key) return g;
  if (graphs_.size() >= max_cached_graphs) {
    PSFSIM_CUDA_CHECK(cudaStreamSynchronize(stream));  // it may be the one running
    graphs_.erase(graphs_.begin());
  }
  StreamCapture capture(stream);
  issue_pipeline();
  CachedGraph recorded{key, capture.finish(), nullptr, tables};
  if (key.tables == TableSource::parameters) {
    recorded.pupil_node =
        find_inline_pupil_node<Real>(recorded.graph.graph(), key.phase_tables(nullptr));
    if (recorded.pupil_node == nullptr)
      throw RuntimeFailure("cuda backend: the recorded graph holds no pupil kernel node");
  }
  graphs_.push_back(std::move(recorded));
  return graphs_.back();
}

template <typename Real>
void GraphCache<Real>::update_inline_tables(CachedGraph& cached, const InlineTables& tables,
                                            DeviceComplex<Real>* pupil, const PupilShape& shape) {
  const PhaseTables phase = cached.key.phase_tables(nullptr);
  const std::size_t bytes =
      static_cast<std::size_t>(phase.frames) * phase.doubles_per_frame() * sizeof(double);
  if (std::memcmp(cached.tables_in_node.values, tables.values, bytes) == 0) return;
  set_inline_tables<Real>(cached.graph.exec(), cached.pupil_node, pupil, shape, phase, tables);
  cached.tables_in_node = tables;
}

template class GraphCache<float>;
template class GraphCache<double>;

}  // namespace psfsim::cuda
