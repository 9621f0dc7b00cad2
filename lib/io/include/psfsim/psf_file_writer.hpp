#pragma once
// The HDF5 file of docs/spec.md §3 as a FrameSink. The file is built under a partial name in the
// target's folder and put into place by close() (never over a file that appeared meanwhile,
// unless `force`); a writer destroyed before close() removes it, so a failed run never
// leaves a partial file behind.
#include <cstddef>
#include <filesystem>
#include <memory>
#include <span>
#include <string>

#include "psfsim/frame_sink.hpp"
#include "psfsim/output_path.hpp"

namespace psfsim {

class PsfFileWriter final : public FrameSink {
 public:
  // Checks the path at once (check_output_path: an existing file without `force`, one of
  // `inputs`, a folder where nothing can be created), so that nothing is computed for a file
  // that cannot be written. `command_line` is recorded.
  PsfFileWriter(std::filesystem::path path, bool force, std::string command_line,
                std::span<const InputFile> inputs = {});
  ~PsfFileWriter() override;

  void open(const RunHeader& header) override;
  void write_frames(std::size_t first, std::size_t count, const void* data) override;
  void write_metrics(std::size_t first, std::size_t count, const double* values) override;
  // Writes /timings, then renames the file into place. /parameters is written with the frames.
  void close(TimingLog& log) override;

 private:
  struct Impl;
  // Runs one step; a failure's message gains the file's name.
  template <typename Step>
  void naming_the_file(Step&& step);
  void create(const RunHeader& header);
  void write_hyperslab(std::size_t first, std::size_t count, const void* data);
  void finish(TimingLog& log);

  std::filesystem::path path_;
  bool force_;
  std::string command_line_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace psfsim
