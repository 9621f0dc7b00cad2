#include "psfsim/aberration_batch.hpp"

namespace psfsim {

AberrationBatch::AberrationBatch(const RunSpec& spec) : spec_(spec) {
  if (spec.drawn) {
    draws_.emplace(*spec.drawn, spec.block_first);
    any_drawn_ = draws_->any_frame();
  }
}

std::size_t AberrationBatch::size() const noexcept { return batch_size(spec_); }

void AberrationBatch::prepare(std::size_t first, std::size_t count) {
  if (draws_) draws_->draw(first, count);
}

Aberration AberrationBatch::frame(std::size_t f) const {
  return draws_ ? draws_->frame(f) : spec_.frames[f];
}

std::span<const Aberration> AberrationBatch::shapes() const noexcept {
  if (draws_) return {&any_drawn_, 1};
  return spec_.frames;
}

}  // namespace psfsim
