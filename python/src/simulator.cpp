#include "simulator.hpp"

#include <cmath>
#include <optional>

#include "psfsim/aberration_batch.hpp"
#include "psfsim/aberration_sources.hpp"
#include "psfsim/builtin_backends.hpp"
#include "psfsim/errors.hpp"
#include "psfsim/option_table.hpp"

namespace psfsim::python {
namespace {

// "--zernike=4,0.1" and "--quiet" name the options zernike and quiet.
Option option_of(const std::string& word) {
  const std::size_t end = word.find('=');
  const std::string name = word.substr(2, end == std::string::npos ? end : end - 2);
  const OptionInfo* info = find_option(Command::run, name);
  if (word.rfind("--", 0) != 0 || info == nullptr)
    throw std::logic_error("not an option of psfsim run: " + word);
  return info->id;
}

bool defines_batch(const RunSpec& spec) {
  return !spec.vary.empty() || !spec.random.empty() || !spec.frames_file.empty() ||
         !spec.field.grid_text.empty() || batch_size(spec) > 1;
}

std::vector<Aberration> frames_of(const RunSpec& spec) {
  if (!spec.drawn) return spec.frames;
  AberrationBatch batch(spec);
  const std::size_t count = batch.size();
  batch.prepare(0, count);
  std::vector<Aberration> frames(count);
  for (std::size_t f = 0; f < count; ++f) frames[f] = batch.frame(f);
  return frames;
}

}  // namespace

bool is_phase_option(Option id) noexcept {
  switch (id) {
    case Option::zernike:
    case Option::seidel:
    case Option::vary:
    case Option::random:
    case Option::frames:
    case Option::field:
    case Option::field_grid: return true;
    default: return false;
  }
}

Simulator::Simulator(const std::vector<std::string>& arguments, const std::string& config,
                     bool keep_on_device)
    : config_(config) {
  for (const std::string& word : arguments)
    (is_phase_option(option_of(word)) ? phase_arguments_ : arguments_).push_back(word);
  spec_ = parse_run(arguments, config).spec;
  // A Simulator's calls share one start-up, so auto takes the first usable backend (a GPU
  // before the CPU), not the one a single run of its options would take; the runs it makes
  // are given that backend by name.
  const BackendEntry& entry = builtin_backends().select(spec_.backend);
  spec_.backend = entry.name;
  backend_name_ = entry.name;
  site_ = entry.site;
  spec_.frames_on_device = keep_on_device && site_ == ComputeSite::device;
  spec_.untimed = true;  // a call's stage times are not returned to Python
  makes_batch_ = defines_batch(spec_);
  columns_ = psfsim::metric_columns(spec_.metrics);
  if (!spec_.metrics.stores_metrics()) columns_.clear();
  for (const MetricColumn& c : columns_) metric_values_ += c.width;
  plan_for(batch_size(spec_));
  frame_edge_ = run_->geometry().frame;
}

Backend::MemoryCopy Simulator::memory_copy() {
  const std::lock_guard lock(mutex_);
  return run_->backend().memory_copy();
}

void Simulator::require_on_device(const void* address) {
  const std::lock_guard lock(mutex_);
  const int where = run_->backend().memory_device(address);
  if (where == spec_.device) return;
  throw InputError(where < 0 ? std::string("out: the array is not in GPU memory")
                             : "out: the array is on CUDA device " + std::to_string(where) +
                                   ", the frames on device " + std::to_string(spec_.device) +
                                   " (device=" + std::to_string(spec_.device) + ")");
}

void Simulator::wait_for_stream(std::uintptr_t stream) {
  const std::lock_guard lock(mutex_);
  run_->backend().wait_for_stream(stream);
}

std::string Simulator::device_name() {
  const std::lock_guard lock(mutex_);
  return run_->backend().device_name();
}

void Simulator::plan_for(std::size_t batch) {
  if (run_ && batch <= planned_batch_) return;
  RunSpec spec = spec_;
  if (run_) {
    // Only the batch's size matters to the plan; each call brings its own terms.
    spec.drawn.reset();
    spec.frames.assign(batch, Aberration{});
  }
  try {
    auto run = std::make_unique<PsfRun>(std::move(spec), builtin_backends());
    // The plan is made here, not at the first call: a device that cannot start fails now.
    (void)run->backend();
    run_ = std::move(run);
    planned_batch_ = batch;
  } catch (const InputError&) {
    if (!run_) throw;  // a stack of pupil maps fixes the batch: the plan stays as it is
    planned_batch_ = SIZE_MAX;
  }
}

std::vector<Aberration> Simulator::own_frames() const { return frames_of(spec_); }

std::vector<Aberration> Simulator::frames_with(const std::vector<std::string>& phase_arguments,
                                               bool& batch) const {
  for (const std::string& word : phase_arguments)
    if (!is_phase_option(option_of(word))) throw std::logic_error("not a phase option: " + word);
  std::vector<std::string> arguments = arguments_;
  arguments.insert(arguments.end(), phase_arguments.begin(), phase_arguments.end());
  const RunSpec spec = parse_run(arguments, config_).spec;
  batch = defines_batch(spec);
  return frames_of(spec);
}

Aberration Simulator::frame_with_terms(const std::vector<std::string>& zernike,
                                       const std::vector<std::string>& seidel) const {
  Aberration written;
  for (const std::string& t : seidel)
    written.seidel.push_back(parse_seidel(t, keyword(Option::seidel)));
  for (const std::string& t : zernike)
    written.zernike.push_back(parse_zernike(t, keyword(Option::zernike), spec_.zernike.order));
  return to_noll(written, spec_.zernike);
}

void Simulator::compute(const TermTable& table, const PsfRun::FrameDestination& out,
                        double* metrics, const PsfRun::Progress& after_call) {
  std::vector<TermId> ids;
  for (std::size_t j = 0; j < table.names.size(); ++j) {
    ids.push_back(parse_term_id(table.names[j], "terms", spec_.zernike));
    for (std::size_t k = 0; k < j; ++k)
      if (ids[k] == ids[j])
        throw InputError("terms: '" + table.names[j] + "' names the same term as '" +
                         table.names[k] + "'");
  }
  const auto value = [&](std::size_t r, std::size_t j) {
    return table.values[r * table.row_stride + j * table.column_stride];
  };
  for (std::size_t r = 0; r < table.rows; ++r)
    for (std::size_t j = 0; j < ids.size(); ++j)
      if (!std::isfinite(value(r, j)))
        throw InputError("coefficients: row " + std::to_string(r) + ", term " + table.names[j] +
                         " is not finite");
  const Aberration base = to_noll(spec_.fixed_terms, spec_.zernike);
  const std::lock_guard lock(mutex_);
  plan_for(table.rows);
  if (const std::optional<PhaseTemplate> shape = run_->phase_template(base, ids)) {
    const std::size_t terms = ids.size();
    stored_.resize(table.rows * terms);
    for (std::size_t r = 0; r < table.rows; ++r)
      for (std::size_t j = 0; j < terms; ++j)
        stored_[r * terms + j] = stored_value(ids[j], value(r, j));
    run_->compute(*shape, stored_.data(), table.rows, terms, 1, out, metrics, noise_next_,
                  after_call);
  } else {
    std::vector<Aberration> frames(table.rows, base);
    for (std::size_t r = 0; r < table.rows; ++r)
      for (std::size_t j = 0; j < ids.size(); ++j) set_term(frames[r], ids[j], value(r, j));
    run_->compute(frames, out, metrics, noise_next_, after_call);
  }
  noise_next_ += table.rows;
}

void Simulator::compute(std::span<const Aberration> frames, const PsfRun::FrameDestination& out,
                        double* metrics, const PsfRun::Progress& after_call) {
  const std::lock_guard lock(mutex_);
  plan_for(frames.size());
  run_->compute(frames, out, metrics, noise_next_, after_call);
  noise_next_ += frames.size();
}

}  // namespace psfsim::python
