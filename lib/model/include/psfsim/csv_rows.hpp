#pragma once
// The line reading of psfsim's CSV tables (--frames, field tables): lines are read into a
// bounded buffer, so that a file without line ends (/dev/zero, a binary file given by
// mistake) is refused instead of filling memory; a leading byte-order mark (Excel's "CSV
// UTF-8") and a trailing '\r' are dropped; blank lines and '#' comments are skipped.
#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace psfsim {

// Calls `row` for every other line with its comma-separated fields (views into the line,
// valid during the call) and `where`, "NAME:LINE" for messages. Throws InputError for a line
// longer than 1 MiB.
void for_each_csv_row(std::istream& in, const std::string& name,
                      const std::function<void(const std::string& where,
                                               const std::vector<std::string_view>& fields)>& row);

}  // namespace psfsim
