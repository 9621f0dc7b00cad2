#include "psfsim/backend_registry.hpp"

#include "psfsim/errors.hpp"
#include "psfsim/option_table.hpp"

namespace psfsim {

Propagation faster_propagation(const BackendEntry& entry, const PropagationWork& work) {
  if (!entry.propagation_costs) return Propagation::fft;
  const PropagationCosts costs = entry.propagation_costs(work);
  return costs.mft < costs.fft ? Propagation::mft : Propagation::fft;
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
