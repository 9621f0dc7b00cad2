#include "psfsim/csv_rows.hpp"

#include <istream>

#include "psfsim/errors.hpp"
#include "psfsim/text_fields.hpp"

namespace psfsim {

void for_each_csv_row(std::istream& in, const std::string& name,
                      const std::function<void(const std::string& where,
                                               const std::vector<std::string_view>& fields)>& row) {
  constexpr std::streamsize max_line = 1 << 20;
  std::vector<char> buffer(max_line + 1);
  int line_number = 0;
  while (in.getline(buffer.data(), max_line + 1) || in.gcount() > 0) {
    ++line_number;
    const std::string where = name + ":" + std::to_string(line_number);
    if (in.fail() && !in.eof()) throw InputError(where + ": a line longer than 1 MiB");
    std::string line(line_number == 1 ? without_bom(buffer.data()) : buffer.data());
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (trim(line).empty() || trim(line).front() == '#') continue;
    row(where, split_fields(line, ','));
  }
}

}  // namespace psfsim
