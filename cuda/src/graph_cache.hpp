#pragma once
// The executable graphs of a backend's pipeline: one per batch shape, table source and output
// slot, recorded on first use: a graph launch brings a small call's host result sooner than
// the same calls launched one by one (bench/results/code-constants.md).
#include <cuda_runtime_api.h>

#include <cstddef>
#include <functional>
#include <vector>

#include "cuda_graph.hpp"
#include "device_complex.hpp"
#include "pupil_kernel.hpp"

namespace psfsim::cuda {

// Executable graphs kept per backend: three call slots (CallQueue) times a few batch shapes.
inline constexpr std::size_t max_cached_graphs = 12;

// Where the pupil kernel finds a call's phase tables.
enum class TableSource {
  parameters,   // in its launch parameters (InlineTables)
  host_memory,  // read over the bus from the pinned staging buffer
  device_copy,  // copied from the staging buffer by the graph's first node
};

// What a recorded graph depends on beyond the plan.
struct GraphKey {
  int frames = 0;
  int degree = 0;
  bool with_rho = false;
  TableSource tables = TableSource::device_copy;
  int slot = 0;  // the call's slot (CallQueue): its pinned buffers and events
  bool operator==(const GraphKey&) const = default;

  // The tables as the pupil kernel reads them, from `coefficients` (null with parameters).
  [[nodiscard]] PhaseTables phase_tables(const double* coefficients) const noexcept {
    return {coefficients, degree, with_rho, frames};
  }
};

template <typename Real>
class GraphCache {
 public:
  struct CachedGraph {
    GraphKey key;
    RecordedGraph graph;
    cudaGraphNode_t pupil_node = nullptr;  // holds the tables with TableSource::parameters
    InlineTables tables_in_node{};         // what that node holds now
  };

  // The graph of `key`, or else the one recorded from what `issue_pipeline` issues on
  // `stream`, the oldest graph giving way past max_cached_graphs (once the calls in flight
  // are done). `tables` are the inline tables the pipeline's pupil kernel is given.
  CachedGraph& find_or_record(const GraphKey& key, const InlineTables& tables, cudaStream_t stream,
                              const std::function<void()>& issue_pipeline);
  // Rewrites the tables in the graph's pupil node (launched on `pupil` with `shape`), unless
  // it holds these very values already (the same frames computed again).
  static void update_inline_tables(CachedGraph& cached, const InlineTables& tables,
                                   DeviceComplex<Real>* pupil, const PupilShape& shape);
  // Before buffers that the graphs use are replaced.
  void clear() noexcept { graphs_.clear(); }

 private:
  std::vector<CachedGraph> graphs_;
};

}  // namespace psfsim::cuda
