#include "psfsim/spectrum.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

#include "psfsim/errors.hpp"
#include "psfsim/text_fields.hpp"
#include "psfsim/units.hpp"

namespace psfsim {
namespace {

[[noreturn]] void reject(std::string_view option, std::string_view text, const std::string& why) {
  throw InputError(std::string(option) + " '" + std::string(text) + "': " + why);
}

std::string quoted(std::string_view s) { return "'" + std::string(s) + "'"; }

// `names[i]` is how line i was written, for the message.
void require_distinct(const std::vector<SpectralLine>& lines, const std::vector<std::string>& names,
                      std::string_view option, std::string_view text) {
  std::vector<std::size_t> order(lines.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return lines[a].wavelength_m < lines[b].wavelength_m;
  });
  for (std::size_t i = 1; i < order.size(); ++i) {
    const double a = lines[order[i - 1]].wavelength_m, b = lines[order[i]].wavelength_m;
    if (b - a <= 1e-12 * b)
      reject(option, text,
             quoted(names[order[i - 1]]) + " and " + quoted(names[order[i]]) +
                 " are the same wavelength");
  }
}

void normalize(std::vector<SpectralLine>& lines, std::string_view option, std::string_view text) {
  double sum = 0.0;
  for (const auto& l : lines) sum += l.weight;
  if (!std::isfinite(sum)) reject(option, text, "the weights' sum overflows");
  for (auto& l : lines) l.weight /= sum;
}

// Every length unit ends in 'm', and a '-' inside a number follows a digit or an 'e' (5e-7m),
// so the range's separator is the first '-' after an 'm'.
std::size_t range_separator(std::string_view range) {
  for (std::size_t i = 1; i < range.size(); ++i) {
    if (range[i] != '-') continue;
    const std::string_view left = trim(range.substr(0, i));
    if (!left.empty() && left.back() == 'm') return i;
  }
  // None: split at the first inner '-' anyway, so that the message names a side's problem.
  return range.find('-', 1);
}

}  // namespace

std::vector<SpectralLine> parse_wavelengths(std::string_view text, std::string_view option) {
  const auto fields = split_fields(text);
  if (fields.size() > static_cast<std::size_t>(max_spectral_lines))
    reject(option, text, "more than " + std::to_string(max_spectral_lines) + " wavelengths");
  std::vector<SpectralLine> lines;
  std::vector<std::string> names;
  for (const std::string_view field : fields) {
    if (field.empty()) reject(option, text, "an empty entry: expected wavelength[:weight]");
    const auto colon = field.find(':');
    double weight = 1.0;
    if (colon != std::string_view::npos) {
      const std::string_view w_text = trim(field.substr(colon + 1));
      const auto w = parse_finite_double(w_text);
      if (!w || !(*w > 0))
        reject(option, text,
               "the weight " + quoted(w_text) + " of " + quoted(field) +
                   " must be a finite number greater than zero");
      weight = *w;
    }
    lines.push_back({parse_length(trim(field.substr(0, colon)), option, Sign::positive), weight});
    names.emplace_back(field);
  }
  require_distinct(lines, names, option, text);
  normalize(lines, option, text);
  return lines;
}

std::vector<SpectralLine> band_spectrum(std::string_view text, std::string_view option) {
  const auto fields = split_fields(text);
  if (fields.size() != 2) reject(option, text, "expected MIN-MAX,COUNT, e.g. 500nm-600nm,5");
  const std::string_view range = fields[0];
  const std::size_t dash = range_separator(range);
  if (dash == std::string_view::npos)
    reject(option, text, "expected MIN-MAX,COUNT, e.g. 500nm-600nm,5");
  const std::string_view lo_text = trim(range.substr(0, dash));
  const std::string_view hi_text = trim(range.substr(dash + 1));
  const double lo = parse_length(lo_text, option, Sign::positive);
  const double hi = parse_length(hi_text, option, Sign::positive);
  if (!(lo < hi))
    reject(option, text,
           "the shortest wavelength " + quoted(lo_text) + " must be below the longest " +
               quoted(hi_text));
  const auto count = parse_integer(fields[1]);
  if (!count || *count < 1 || *count > max_spectral_lines)
    reject(option, text,
           "COUNT " + quoted(fields[1]) + " must be an integer from 1 to " +
               std::to_string(max_spectral_lines));

  const auto n = static_cast<std::size_t>(*count);
  std::vector<SpectralLine> lines(n, SpectralLine{0.0, 1.0 / static_cast<double>(n)});
  for (std::size_t i = 0; i < n; ++i) {
    const double t = n == 1 ? 0.5 : static_cast<double>(i) / static_cast<double>(n - 1);
    lines[i].wavelength_m = lo + (hi - lo) * t;
  }
  if (n > 1) lines.back().wavelength_m = hi;  // pinned, as numpy.linspace does
  for (std::size_t i = 1; i < n; ++i) {
    if (lines[i].wavelength_m - lines[i - 1].wavelength_m <= 1e-12 * lines[i].wavelength_m)
      reject(option, text,
             "the band is too narrow for COUNT " + quoted(fields[1]) + " distinct wavelengths");
  }
  return lines;
}

double reference_wavelength(std::span<const SpectralLine> lines, std::optional<double> explicit_m) {
  if (explicit_m) return *explicit_m;
  if (lines.empty()) throw std::invalid_argument("reference_wavelength: an empty spectrum");
  double weighted = 0.0, total = 0.0;
  for (const auto& l : lines) {
    weighted += l.weight * l.wavelength_m;
    total += l.weight;
  }
  return weighted / total;
}

std::vector<double> spectral_frame_weights(std::span<const SpectralLine> lines,
                                           double reference_m) {
  std::vector<double> weights;
  weights.reserve(lines.size());
  for (const auto& l : lines) {
    const double ratio = reference_m / l.wavelength_m;
    weights.push_back(l.weight * ratio * ratio);
  }
  return weights;
}

}  // namespace psfsim
