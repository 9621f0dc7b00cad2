#include "psfsim/cpu/propagation_costs.hpp"

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

}  // namespace psfsim::cpu
