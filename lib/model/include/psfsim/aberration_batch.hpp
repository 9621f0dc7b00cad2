#pragma once
// The phase terms of a run's frames, held (RunSpec::frames) or drawn (RunSpec::drawn), read
// chunk by chunk: by the run to compile them, by the file writer for /parameters.
#include <cstddef>
#include <optional>
#include <span>

#include "psfsim/aberration_sources.hpp"
#include "psfsim/run_spec.hpp"

namespace psfsim {

class AberrationBatch {
 public:
  explicit AberrationBatch(const RunSpec& spec);  // `spec` outlives this object
  [[nodiscard]] std::size_t size() const noexcept;
  // Readies frames [first, first + count); frame() then reads any of them, from any thread,
  // until the next prepare().
  void prepare(std::size_t first, std::size_t count);
  [[nodiscard]] Aberration frame(std::size_t f) const;
  // Frames that between them hold every term of the batch: all of them when held, one with
  // placeholder values when drawn. For the batch's degree and /parameters' columns.
  [[nodiscard]] std::span<const Aberration> shapes() const noexcept;
  // The draws when the frames are drawn (nullptr when held): their values without the frames.
  [[nodiscard]] const RandomAberrationDraws* drawn() const noexcept {
    return draws_ ? &*draws_ : nullptr;
  }

 private:
  const RunSpec& spec_;
  std::optional<RandomAberrationDraws> draws_;
  Aberration any_drawn_;
};

}  // namespace psfsim
