#include "psfsim/frames_file.hpp"

#include <fstream>

#include "psfsim/errors.hpp"
#include "psfsim/option_table.hpp"

namespace psfsim {

std::vector<Aberration> read_frames_csv(const Aberration& fixed, const std::filesystem::path& path,
                                        const ZernikeConvention& convention) {
  std::ifstream in(path);
  if (!in) throw InputError(flag(Option::frames) + " " + path.string() + ": cannot read the file");
  return parse_frames_csv(fixed, in, path, convention);
}

}  // namespace psfsim
