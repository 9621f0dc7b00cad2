#include "psfsim/enums.hpp"

namespace psfsim {

std::string_view to_string(Precision p) noexcept {
  return p == Precision::single ? "single" : "double";
}

std::string_view to_string(Grid g) noexcept {
  return g == Grid::centered ? "centered" : "linspace";
}

std::string_view to_string(Normalization n) noexcept {
  switch (n) {
    case Normalization::none: return "none";
    case Normalization::peak: return "peak";
    case Normalization::sum: return "sum";
  }
  return "?";
}

std::string_view to_string(FftEffort e) noexcept {
  switch (e) {
    case FftEffort::estimate: return "estimate";
    case FftEffort::measure: return "measure";
    case FftEffort::patient: return "patient";
    case FftEffort::exhaustive: return "exhaustive";
    case FftEffort::automatic: return "auto";
  }
  return "?";
}

std::string_view to_string(Propagation p) noexcept {
  switch (p) {
    case Propagation::fft: return "fft";
    case Propagation::mft: return "mft";
    case Propagation::automatic: return "auto";
  }
  return "?";
}

std::optional<Propagation> parse_propagation(std::string_view s) noexcept {
  for (const Propagation p : {Propagation::fft, Propagation::mft, Propagation::automatic})
    if (s == to_string(p)) return p;
  return std::nullopt;
}

std::optional<FftEffort> parse_fft_effort(std::string_view s) noexcept {
  for (const FftEffort e : {FftEffort::estimate, FftEffort::measure, FftEffort::patient,
                            FftEffort::exhaustive, FftEffort::automatic})
    if (s == to_string(e)) return e;
  return std::nullopt;
}

std::optional<Precision> parse_precision(std::string_view s) noexcept {
  if (s == "single") return Precision::single;
  if (s == "double") return Precision::double_;
  return std::nullopt;
}

std::optional<Grid> parse_grid(std::string_view s) noexcept {
  if (s == "centered") return Grid::centered;
  if (s == "linspace") return Grid::linspace;
  return std::nullopt;
}

std::optional<Normalization> parse_normalization(std::string_view s) noexcept {
  if (s == "none") return Normalization::none;
  if (s == "peak") return Normalization::peak;
  if (s == "sum") return Normalization::sum;
  return std::nullopt;
}

}  // namespace psfsim
