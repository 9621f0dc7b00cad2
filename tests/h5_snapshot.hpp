#pragma once
// What a psfsim file holds, read back without Python: every dataset's values (as double) and
// every attribute (as text), by path, for comparing two files in C++ tests.
#include <map>
#include <string>
#include <vector>

namespace psfsim::test {

struct H5Snapshot {
  std::map<std::string, std::vector<double>> datasets;  // "/psf", "/parameters/Z4", ...
  std::map<std::string, std::vector<unsigned long long>> shapes;
  std::map<std::string, std::string> attributes;  // "/psf@normalization" -> "sum"
};

// Throws std::runtime_error when the file cannot be read.
[[nodiscard]] H5Snapshot read_h5(const std::string& path);

}  // namespace psfsim::test
