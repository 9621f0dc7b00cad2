#include "psfsim/compression.hpp"

#include "psfsim/errors.hpp"
#include "psfsim/text_fields.hpp"

namespace psfsim {

std::string Compression::text() const {
  switch (kind) {
    case Kind::none: return "none";
    case Kind::deflate: return "deflate:" + std::to_string(level);
    case Kind::lz4: return "lz4";
    case Kind::zstd: return "zstd:" + std::to_string(level);
  }
  return "none";
}

Compression parse_compression(std::string_view text) {
  const auto fields = split_fields(text, ':');
  const std::string_view name = fields[0];
  const auto reject = [&](const std::string& why) {
    throw InputError("--compression " + std::string(text) + ": " + why);
  };
  if (fields.size() > 2) reject("expected NAME or NAME:LEVEL");
  const auto level = [&](int lo, int hi, int fallback) {
    if (fields.size() == 1) return fallback;
    const auto v = parse_integer(fields[1]);
    if (!v || *v < lo || *v > hi)
      reject("the level must be an integer from " + std::to_string(lo) + " to " +
             std::to_string(hi));
    return static_cast<int>(*v);
  };
  Compression c;
  if (name == "none" || name == "lz4") {
    if (fields.size() != 1) reject(std::string(name) + " takes no level");
    c.kind = name == "none" ? Compression::Kind::none : Compression::Kind::lz4;
  } else if (name == "deflate") {
    c.kind = Compression::Kind::deflate;
    c.level = level(1, 9, 4);
  } else if (name == "zstd") {
    c.kind = Compression::Kind::zstd;
    c.level = level(1, 9, 5);
  } else {
    reject("expected none, deflate[:LEVEL], lz4 or zstd[:LEVEL]");
  }
  return c;
}

}  // namespace psfsim
