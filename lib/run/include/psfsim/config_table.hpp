#pragma once
// One table of a config file as psfsim writes it (a run's effective configuration, a sweep's):
// each key named by the option table, in the order set, each line written by toml++, the
// library that reads config files, so that what is read back is what was set.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "psfsim/option_table.hpp"

namespace psfsim {

class ConfigTable {
 public:
  explicit ConfigTable(std::string_view name) : name_(name) {}  // "run": [run]

  void text(Option id, std::string_view value);
  void integer(Option id, long long value);
  void number(Option id, double value);
  void boolean(Option id, bool value);
  // A seed as a TOML integer, or as its digits where it exceeds TOML's integers (2^63 - 1).
  void seed(Option id, std::uint64_t value);
  void texts(Option id, const std::vector<std::string>& values);
  void integers(Option id, const std::vector<int>& values);

  // "[run]\nsamples = 128\n...": the header and a line for each key.
  [[nodiscard]] std::string toml() const;

 private:
  std::string name_;
  std::vector<std::string> lines_;
};

}  // namespace psfsim
