#include "test_support.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "psfsim/backend_registry.hpp"
#include "psfsim/phase_polynomial.hpp"
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
  return p;
}

std::string skip_reason(const std::string& backend) {
  const BackendEntry* e = builtin_backends().find(backend);
  if (e == nullptr) return backend + " backend not compiled into this build";
  return e->unusable_reason();
}

std::vector<std::vector<double>> compute_frames(const std::string& backend, const Case& c,
                                                const std::vector<PhaseTerms>& frames,
                                                Precision precision) {
  const BackendEntry* e = builtin_backends().find(backend);
  if (e == nullptr) throw std::runtime_error("no backend " + backend);
  int degree = 0;
  for (const auto& f : frames) degree = std::max(degree, required_degree(f));
  std::vector<PhasePolynomial> phases;
  for (const auto& f : frames) phases.push_back(compile_phase(f, degree));
  const auto b = e->create(plan_for(c, precision, static_cast<int>(frames.size())));
  const FrameBlock block = b->compute(phases);
  const std::size_t n = b->plan().frame_elements();
  std::vector<std::vector<double>> out(block.frames, std::vector<double>(n));
  for (std::size_t f = 0; f < block.frames; ++f)
    for (std::size_t i = 0; i < n; ++i)
      out[f][i] = precision == Precision::single
                      ? static_cast<const float*>(block.data)[f * n + i]
                      : static_cast<const double*>(block.data)[f * n + i];
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
