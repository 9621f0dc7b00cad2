#include "psfsim/rank_files.hpp"

#include <string>
#include <system_error>

namespace psfsim {

FrameRange rank_frames(std::size_t frames, int rank, int ranks) noexcept {
  const auto r = static_cast<std::size_t>(rank);
  const auto n = static_cast<std::size_t>(ranks);
  const std::size_t base = frames / n;
  const std::size_t extra = frames % n;
  return {r * base + (r < extra ? r : extra), base + (r < extra ? 1 : 0)};
}

std::filesystem::path rank_file_path(const std::filesystem::path& output, int rank, int ranks) {
  std::filesystem::path path = output;
  path += ".rank-" + std::to_string(rank) + "-of-" + std::to_string(ranks) + ".h5";
  return path;
}

namespace {

// N of a name OUTPUT.rank-I-of-N.h5, else -1.
int ranks_in_name(const std::string& name, const std::string& output) {
  const std::string prefix = output + ".rank-";
  const std::string suffix = ".h5";
  if (name.size() <= prefix.size() + suffix.size() || name.rfind(prefix, 0) != 0 ||
      name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
    return -1;
  const std::string middle =
      name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());  // I-of-N
  const auto of = middle.find("-of-");
  const auto digits = [](const std::string& s) {
    return !s.empty() && s.size() < 9 && s.find_first_not_of("0123456789") == std::string::npos;
  };
  if (of == std::string::npos || !digits(middle.substr(0, of)) || !digits(middle.substr(of + 4)))
    return -1;
  return std::stoi(middle.substr(of + 4));
}

}  // namespace

void remove_other_rank_files(const std::filesystem::path& output, int ranks) noexcept {
  try {
    const std::filesystem::path folder =
        output.parent_path().empty() ? std::filesystem::path(".") : output.parent_path();
    const std::string name = output.filename().string();
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(folder, ec)) {
      const int n = ranks_in_name(entry.path().filename().string(), name);
      if (n >= 0 && n != ranks) std::filesystem::remove(entry.path(), ec);
    }
  } catch (...) {  // tidying only: the run has succeeded
  }
}

}  // namespace psfsim
