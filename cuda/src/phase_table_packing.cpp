#include "phase_table_packing.hpp"

#include <algorithm>
#include <string>

#include "psfsim/errors.hpp"

namespace psfsim::cuda {
namespace {

bool any_nonzero(const std::vector<double>& table) {
  return std::any_of(table.begin(), table.end(), [](double v) { return v != 0.0; });
}

// Copies a (d+1)^2 table into the top-left corner of a zeroed (D+1)^2 one.
void pad_table(const std::vector<double>& table, int degree, int common_degree, double* out) {
  const int from = degree + 1;
  const int to = common_degree + 1;
  if (from == to && !table.empty()) {  // a batch of one shape: every frame's tables
    std::copy_n(table.data(), static_cast<std::size_t>(to) * to, out);
    return;
  }
  std::fill(out, out + static_cast<std::size_t>(to) * to, 0.0);
  if (table.empty()) return;
  for (int a = 0; a < from; ++a)
    std::copy_n(table.data() + static_cast<std::size_t>(a) * from, from,
                out + static_cast<std::size_t>(a) * to);
}

}  // namespace

BatchTableLayout batch_table_layout(std::span<const AberrationPolynomial> frames) {
  BatchTableLayout layout;
  layout.frames = static_cast<int>(frames.size());
  for (const AberrationPolynomial& p : frames) {
    const std::size_t cells = static_cast<std::size_t>(p.stride()) * p.stride();
    if (p.degree < 0 || p.plain.size() != cells ||
        (!p.with_rho.empty() && p.with_rho.size() != cells))
      throw RuntimeFailure("cuda backend: phase polynomial of degree " + std::to_string(p.degree) +
                           " has tables of the wrong size");
    layout.degree = std::max(layout.degree, p.degree);
    layout.with_rho = layout.with_rho || any_nonzero(p.with_rho);
  }
  return layout;
}

void pack_phase_tables(std::span<const AberrationPolynomial> frames, const BatchTableLayout& layout,
                       double* out) {
  const std::size_t table = layout.doubles_per_frame() / (layout.with_rho ? 2 : 1);
  for (const AberrationPolynomial& p : frames) {
    pad_table(p.plain, p.degree, layout.degree, out);
    if (layout.with_rho) pad_table(p.with_rho, p.degree, layout.degree, out + table);
    out += layout.doubles_per_frame();
  }
}

}  // namespace psfsim::cuda
