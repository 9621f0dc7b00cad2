#include "test_support.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "psfsim/builtin_backends.hpp"
#include "psfsim/frame_collector.hpp"
#include "psfsim/psf_run.hpp"
#include "psfsim/pupil_math.hpp"

namespace psfsim::test {
namespace fs = std::filesystem;

PsfPlan plan_for(const Case& c, Precision precision, int max_batch) {
  PsfPlan p;
  p.samples = c.samples;
  p.padded = c.padded;
  p.grid = c.grid;
  p.precision = precision;
  p.obscuration = c.obscuration;
  p.normalization = c.normalization;
  p.frame = c.crop > 0 ? c.crop : c.padded;
  p.max_batch = max_batch;
  p.threads = 0;
  p.fft_effort = FftEffort::estimate;  // planning time is not what the tests check
  return with_pupil_facts(std::move(p));
}

std::string skip_reason(const std::string& backend) {
  const BackendEntry* e = builtin_backends().find(backend);
  if (e == nullptr) return backend + " backend not compiled into this build";
  return e->unusable_reason();
}

RunSpec spec_for(const std::string& backend, const Case& c, Precision precision) {
  RunSpec s;
  s.backend = backend;
  s.samples = c.samples;
  s.padded_size = c.padded;
  s.grid = c.grid;
  s.precision = precision;
  s.normalization = c.normalization;
  s.obscuration = c.obscuration;
  if (c.crop > 0) s.crop = c.crop;
  s.fft_effort = FftEffort::estimate;
  s.frames = {c.terms};
  return s;
}

std::vector<std::vector<double>> compute_frames(const std::string& backend, const Case& c,
                                                const std::vector<PhaseTerms>& frames,
                                                Precision precision) {
  RunSpec spec = spec_for(backend, c, precision);
  spec.frames = frames;
  spec.chunk_frames = static_cast<int>(frames.size());  // one backend call, as before
  PsfRun run(spec, builtin_backends());
  FrameCollector collected;
  (void)run.execute(collected);
  std::vector<std::vector<double>> out;
  for (std::size_t f = 0; f < collected.frames(); ++f) {
    const auto frame = collected.frame(f);
    out.emplace_back(frame.begin(), frame.end());
  }
  return out;
}

std::vector<double> compute_frame(const std::string& backend, const Case& c, Precision precision) {
  return compute_frames(backend, c, {c.terms}, precision).front();
}

std::string temp_dir() {
  static const std::string dir = [] {
    std::string pattern = (fs::temp_directory_path() / "psfsim-test-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    return pattern;
  }();
  return dir;
}

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

int run_shell(const std::string& command) {
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

std::string numpy_missing_reason() {
  static const std::string reason = [] {
    if (!PSFSIM_HAVE_NUMPY) return std::string("CMake found no NumPy for ") + PSFSIM_PYTHON;
    const std::string probe = std::string(PSFSIM_PYTHON) + " -c 'import numpy' >/dev/null 2>&1";
    return run_shell(probe) == 0
               ? std::string()
               : std::string("NumPy not importable by ") + PSFSIM_PYTHON +
                     ": install python3-numpy (Debian) or configure with -DPSFSIM_PYTHON=...";
  }();
  return reason;
}

std::vector<double> numpy_reference(const Case& c) {
  static int counter = 0;
  const std::string out = temp_dir() + "/reference-" + std::to_string(counter++) + ".bin";
  std::string cmd = std::string(PSFSIM_PYTHON) + " " + PSFSIM_REFERENCE_SCRIPT +
                    " --samples " + std::to_string(c.samples) + " --padded " +
                    std::to_string(c.padded) + " --grid " + std::string(to_string(c.grid)) +
                    " --obscuration " + std::to_string(c.obscuration) + " --out " + out;
  for (const auto& t : c.terms.seidel) cmd += " --seidel " + to_string(t);
  for (const auto& t : c.terms.zernike) cmd += " --zernike " + to_string(t);
  if (run_shell(cmd) != 0) throw std::runtime_error("reference failed: " + cmd);
  const std::string bytes = read_file(out);
  std::vector<double> v(bytes.size() / sizeof(double));
  std::memcpy(v.data(), bytes.data(), v.size() * sizeof(double));
  if (v.size() != static_cast<std::size_t>(c.padded) * c.padded)
    throw std::runtime_error("reference wrote " + std::to_string(v.size()) + " values");
  return v;
}

double relative_l2(const std::vector<double>& a, const std::vector<double>& ref) {
  if (a.size() != ref.size()) return INFINITY;
  double num = 0.0;
  double den = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double d = a[i] - ref[i];
    num += d * d;
    den += ref[i] * ref[i];
  }
  return std::sqrt(num / den);  // NaN anywhere makes this NaN, which fails every bound
}

CommandResult run_psfsim(const std::string& args) {
  static int counter = 0;
  const std::string base = temp_dir() + "/cmd-" + std::to_string(counter++);
  const int code = run_shell(std::string(PSFSIM_BINARY) + " " + args + " >" + base +
                             ".out 2>" + base + ".err </dev/null");
  return {code, read_file(base + ".err"), read_file(base + ".out")};
}

}  // namespace psfsim::test
