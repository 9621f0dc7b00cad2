#include "psfsim/cpu/propagation_costs.hpp"

#include <algorithm>
#include <cmath>

#include "psfsim/cpu/tuning.hpp"

namespace psfsim::cpu {

PropagationCosts propagation_costs(const PropagationWork& work, CpuVectorUnits cpu) {
  const double n = work.samples, m = work.padded, k = work.frame;
  const double transform = m * std::log2(m) * 5.0;        // real operations of one length-M FFT
  const double products = (n * n * k + n * k * k) * 8.0;  // the MFT's two complex products
  const tuning::MftRates rates = cpu.avx512 ? tuning::mft_rates_avx512 : tuning::mft_rates_avx2;
  return {(n + k) * transform, products / rates.products_speedup + rates.per_frame_operations};
}

double run_seconds(const RunWork& work, CpuVectorUnits cpu, int cores) {
  const double per_frame = propagation_cost(propagation_costs(work.frame, cpu), work);
  const double parallel =
      std::clamp(work.propagations, 1.0, static_cast<double>(std::max(cores, 1)));
  return work.propagations * per_frame / (tuning::operations_per_core_second * parallel);
}

}  // namespace psfsim::cpu
