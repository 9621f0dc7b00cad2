#include "psfsim/batch_terms.hpp"

namespace psfsim {

BatchTerms::BatchTerms(const RunSpec& spec) : spec_(spec) {
  if (spec.drawn) {
    draws_.emplace(*spec.drawn, spec.block_first);
    any_drawn_ = draws_->any_frame();
  }
}

std::size_t BatchTerms::size() const noexcept { return batch_size(spec_); }

void BatchTerms::prepare(std::size_t first, std::size_t count) {
  if (draws_) draws_->draw(first, count);
}

PhaseTerms BatchTerms::frame(std::size_t f) const {
  return draws_ ? draws_->frame(f) : spec_.frames[f];
}

std::span<const PhaseTerms> BatchTerms::shapes() const noexcept {
  if (draws_) return {&any_drawn_, 1};
  return spec_.frames;
}

}  // namespace psfsim
