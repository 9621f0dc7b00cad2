#include "psfsim/backend_registry.hpp"

#include <algorithm>
#include <cstdio>

#include "psfsim/errors.hpp"
#include "psfsim/option_table.hpp"

namespace psfsim {

Propagation faster_propagation(const BackendEntry& entry, const PropagationWork& work) {
  if (!entry.propagation_costs) return Propagation::fft;
  const PropagationCosts costs = entry.propagation_costs(work);
  if (costs.fft_for_call(work.frames)) return Propagation::fft;
  return costs.mft < costs.fft ? Propagation::mft : Propagation::fft;
}

double propagation_cost(const PropagationCosts& costs, const RunWork& work) {
  if (work.propagation == Propagation::fft) return costs.fft;
  if (work.propagation == Propagation::mft || work.frame.padded == 0) return costs.mft;
  return std::min(costs.fft, costs.mft);
}

void BackendRegistry::add(BackendEntry entry) { entries_.push_back(std::move(entry)); }

void BackendRegistry::set_up_process() const {
  for (const auto& e : entries_)
    if (e.compiled && e.set_up_process) e.set_up_process();
}

int BackendRegistry::device_count() const {
  for (const auto& e : entries_)
    if (e.compiled && e.site == ComputeSite::device && e.device_count) return e.device_count();
  return 0;
}

const BackendEntry* BackendRegistry::find(const std::string& name) const noexcept {
  for (const auto& e : entries_)
    if (e.name == name) return &e;
  return nullptr;
}

std::vector<std::string> BackendRegistry::names() const {
  std::vector<std::string> out;
  for (const auto& e : entries_) out.push_back(e.name);
  return out;
}

std::string BackendRegistry::summaries() const {
  std::string out;
  for (const auto& e : entries_) out += (out.empty() ? "" : "; ") + e.name + ": " + e.summary;
  return out;
}

const BackendEntry& BackendRegistry::resolve(const std::string& name) const {
  const BackendEntry& e = select(name);
  if (name != "auto") require_usable(e);
  return e;
}

void BackendRegistry::require_usable(const BackendEntry& entry) {
  if (const std::string why = entry.unusable_reason(); !why.empty())
    throw RuntimeFailure(flag(Option::backend) + " " + entry.name + ": " + why);
}

BackendChoice BackendRegistry::choose(const std::string& name, const RunWork& work) const {
  if (name != "auto") return {&select(name), ""};
  struct Estimate {
    const BackendEntry* entry;
    double seconds;
  };
  std::vector<Estimate> estimates;
  for (const auto& e : entries_)
    if (e.compiled)
      estimates.push_back({&e, e.start_up_seconds + (e.run_seconds ? e.run_seconds(work) : 0.0)});
  // Stable: on a tie, registration order (the device first).
  std::stable_sort(estimates.begin(), estimates.end(),
                   [](const Estimate& a, const Estimate& b) { return a.seconds < b.seconds; });
  const auto seconds = [](double s) {
    char text[32];
    if (s < 1e-3) std::snprintf(text, sizeof text, "%.0f us", s * 1e6);
    else if (s < 1.0) std::snprintf(text, sizeof text, "%.1f ms", s * 1e3);
    else std::snprintf(text, sizeof text, "%.2f s", s);
    return std::string(text);
  };
  for (std::size_t i = 0; i < estimates.size(); ++i) {
    const BackendEntry& e = *estimates[i].entry;
    if (!e.unusable_reason().empty()) continue;
    std::string others;
    for (std::size_t j = 0; j < estimates.size(); ++j)
      if (j != i)
        others += "; " + estimates[j].entry->name + " " + seconds(estimates[j].seconds) +
                  (estimates[j].entry->start_up_seconds > 0 ? " with its start-up" : "") +
                  (j < i ? ", not usable" : "");
    return {&e, "auto: " + e.name + " (estimated " + seconds(estimates[i].seconds) + others + ")"};
  }
  throw RuntimeFailure("no usable backend");
}

const BackendEntry& BackendRegistry::select(const std::string& name) const {
  if (name == "auto") {
    for (const auto& e : entries_)
      if (e.unusable_reason().empty()) return e;
    throw RuntimeFailure("no usable backend");
  }
  const BackendEntry* e = find(name);
  if (e == nullptr) {
    std::string known;
    for (const auto& n : names()) known += (known.empty() ? "" : ", ") + n;
    // Only known names reach here (the CLI checks them), so a miss is a build without it.
    throw RuntimeFailure(flag(Option::backend) + " " + name +
                         ": not compiled into this psfsim (available: " + known + ")");
  }
  return *e;
}

}  // namespace psfsim
