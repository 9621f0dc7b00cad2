#include "psfsim/frame_collector.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace psfsim {
namespace {

template <typename T>
void widen(const void* data, std::size_t count, double* out) {
  const T* in = static_cast<const T*>(data);
  for (std::size_t i = 0; i < count; ++i) out[i] = static_cast<double>(in[i]);
}

}  // namespace

void FrameCollector::open(const RunHeader& header) {
  frames_ = batch_size(header.spec);
  edge_ = header.geometry.frame;
  precision_ = header.spec.precision;
  if (header.spec.metrics.stores_frames())
    values_.assign(frames_ * static_cast<std::size_t>(edge_) * edge_, 0.0);
  if (header.spec.metrics.stores_metrics())
    for (const auto& c : metric_columns(header.spec.metrics)) metric_width_ += c.width;
  metrics_.assign(frames_ * metric_width_, 0.0);
}

void FrameCollector::write_metrics(std::size_t first, std::size_t count, const double* values) {
  if (first + count > frames_)
    throw std::out_of_range("metrics of frames " + std::to_string(first) + "+" +
                            std::to_string(count) + " past the batch of " +
                            std::to_string(frames_));
  std::copy(values, values + count * metric_width_, metrics_.begin() + first * metric_width_);
}

std::span<const double> FrameCollector::metrics(std::size_t index) const {
  if (index >= frames_) throw std::out_of_range("frame " + std::to_string(index));
  return {metrics_.data() + index * metric_width_, metric_width_};
}

void FrameCollector::write_frames(std::size_t first, std::size_t count, const void* data) {
  const std::size_t per_frame = static_cast<std::size_t>(edge_) * edge_;
  if (first + count > frames_)
    throw std::out_of_range("frames " + std::to_string(first) + "+" + std::to_string(count) +
                            " past the batch of " + std::to_string(frames_));
  double* out = values_.data() + first * per_frame;
  if (precision_ == Precision::single) widen<float>(data, count * per_frame, out);
  else widen<double>(data, count * per_frame, out);
}

std::span<const double> FrameCollector::frame(std::size_t index) const {
  const std::size_t per_frame = static_cast<std::size_t>(edge_) * edge_;
  if (index >= frames_) throw std::out_of_range("frame " + std::to_string(index));
  if (values_.empty()) throw std::logic_error("no frames kept: the run stores metrics only");
  return {values_.data() + index * per_frame, per_frame};
}

}  // namespace psfsim
