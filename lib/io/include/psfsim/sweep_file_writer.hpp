#pragma once
// The /sweep table of docs/spec.md §3: one row per (backend, precision, propagation, store,
// samples,
// padded_size, crop, batch).
#include <filesystem>
#include <string>
#include <vector>

namespace psfsim {

struct SweepRow {
  std::string backend;
  std::string precision;
  std::string propagation;       // fft or mft, as the run resolved it
  std::string store = "frames";  // frames, metrics or both (--store)
  int samples = 0;
  int padded_size = 0;
  int batch = 0;
  int crop = 0;  // K; the padded size when not cropped
  int repeats = 0;
  // Median seconds per stage; NaN where the backend has no such stage.
  double pupil = 0.0;
  double fft = 0.0;
  double mft = 0.0;  // the MFT's products (its pupil and intensity stages are the others)
  double intensity = 0.0;
  double metrics = 0.0;  // docs/spec.md §7's metrics where a backend times them apart (the CPU)
  double transfer = 0.0;
  // A backend that times several stages as one (the GPU's graph): their names joined by "+"
  // and the median seconds; "" and NaN where there is none.
  std::string fused_stages;
  double fused = 0.0;
  double total_median = 0.0;
  double total_min = 0.0;
  double total_max = 0.0;
  double psfs_per_second = 0.0;
};

// Written under a partial name and put into place when complete, like every psfsim file:
// never over a file that appeared meanwhile, unless `force`.
void write_sweep_file(const std::filesystem::path& path, bool force,
                      const std::vector<SweepRow>& rows, const std::string& command_line,
                      const std::string& config_toml);

}  // namespace psfsim
