#include "test_support.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <utility>

#include "psfsim/builtin_backends.hpp"
#include "psfsim/frame_collector.hpp"
#include "psfsim/psf_run.hpp"
#include "psfsim/pupil_maps.hpp"
#include "psfsim/pupil_math.hpp"

namespace psfsim::test {
namespace fs = std::filesystem;

Case make_case(int n, int m, Grid grid, Normalization norm, int crop, double eps,
               Aberration terms) {
  Case c;
  c.samples = n;
  c.padded = m;
  c.grid = grid;
  c.normalization = norm;
  c.crop = crop;
  c.obscuration = eps;
  c.terms = std::move(terms);
  return c;
}

PsfPlan plan_for(const Case& c, Precision precision, int max_batch) {
  return make_plan(spec_for("", c, precision), max_batch);
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
  s.fft_effort = FftEffort::estimate;  // planning time is not what the tests check
  s.wisdom = "none";                   // library tests leave no cache behind
  s.frames = {c.terms};
  return s;
}

std::vector<std::vector<double>> compute_frames(const std::string& backend, const Case& c,
                                                const std::vector<Aberration>& frames,
                                                Precision precision) {
  RunSpec spec = spec_for(backend, c, precision);
  spec.frames = frames;
  spec.chunk_frames = static_cast<int>(frames.size());  // one backend call, as before
  return run_spec_frames(spec);
}

std::vector<std::vector<double>> run_spec_frames(const RunSpec& spec) {
  // As psfsim run does (to_run_spec), the maps the aperture names are read before the run.
  RunSpec read = spec;
  read_pupil_maps(read.aperture);
  PsfRun run(std::move(read), builtin_backends());
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

std::vector<std::string> compiled_backends() { return builtin_backends().names(); }

std::vector<AberrationPolynomial> compile_all(const std::vector<Aberration>& frames) {
  int degree = 0;
  for (const auto& f : frames) degree = std::max(degree, required_degree(f));
  std::vector<AberrationPolynomial> out;
  for (const auto& f : frames) out.push_back(compile_phase(f, degree));
  return out;
}

std::vector<double> widen(const FrameBlock& block, const PsfPlan& plan) {
  const std::size_t n = block.frames * plan.frame_elements();
  std::vector<double> out(n);
  for (std::size_t i = 0; i < n; ++i)
    out[i] = plan.precision == Precision::single ? static_cast<const float*>(block.data)[i]
                                                 : static_cast<const double*>(block.data)[i];
  return out;
}

std::vector<unsigned char> bytes_of(const FrameBlock& block, const PsfPlan& plan) {
  const auto* p = static_cast<const unsigned char*>(block.data);
  return {p, p + block.frames * plan.frame_bytes()};
}

std::vector<double> direct_dft_psf(const Case& c) {
  const int n = c.samples;
  const int m = c.padded;
  const auto coord = [&](int i) {
    if (c.grid == Grid::centered) return (i - n / 2.0) * (2.0 / n);
    return i == n - 1 ? 1.0 : -1.0 + i * (2.0 / (n - 1));
  };
  const int o = (m - n) / 2;
  std::vector<std::complex<double>> pupil(static_cast<std::size_t>(m) * m);
  double aperture = 0.0;
  for (int r = 0; r < n; ++r)
    for (int col = 0; col < n; ++col) {
      const double x = coord(col), y = coord(r);
      const double rho = std::sqrt(x * x + y * y);
      if (rho > 1.0 || rho < c.obscuration) continue;
      aperture += 1.0;
      const double phi = std::atan2(y, x);
      double w = 0.0;
      for (const auto& s : c.terms.seidel)
        w += s.waves * std::pow(rho, s.l) * std::pow(std::cos(phi), s.m);
      pupil[static_cast<std::size_t>(o + r) * m + o + col] = std::polar(1.0, 2.0 * M_PI * w);
    }
  // NumPy: ifftshift rolls by -(m // 2), fftshift by +(m // 2).
  const int h = m / 2;
  std::vector<std::complex<double>> shifted(pupil.size());
  for (int r = 0; r < m; ++r)
    for (int col = 0; col < m; ++col)
      shifted[static_cast<std::size_t>(r) * m + col] =
          pupil[static_cast<std::size_t>((r + h) % m) * m + (col + h) % m];
  const auto twiddle = [m](long long k) {
    return std::polar(1.0, -2.0 * M_PI * static_cast<double>(k % m) / m);
  };
  std::vector<std::complex<double>> rows(pupil.size()), spectrum(pupil.size());
  for (int r = 0; r < m; ++r)
    for (int v = 0; v < m; ++v) {
      std::complex<double> s = 0.0;
      for (int col = 0; col < m; ++col)
        s += shifted[static_cast<std::size_t>(r) * m + col] * twiddle(1LL * v * col);
      rows[static_cast<std::size_t>(r) * m + v] = s;
    }
  for (int u = 0; u < m; ++u)
    for (int v = 0; v < m; ++v) {
      std::complex<double> s = 0.0;
      for (int r = 0; r < m; ++r)
        s += rows[static_cast<std::size_t>(r) * m + v] * twiddle(1LL * u * r);
      spectrum[static_cast<std::size_t>(u) * m + v] = s;
    }
  std::vector<double> full(pupil.size());
  for (int u = 0; u < m; ++u)
    for (int v = 0; v < m; ++v)
      full[static_cast<std::size_t>((u + h) % m) * m + (v + h) % m] =
          std::norm(spectrum[static_cast<std::size_t>(u) * m + v]);
  // Crop: rows and columns [M/2 - K/2, M/2 - K/2 + K); then normalize what is kept.
  const int k = c.crop > 0 ? c.crop : m;
  const int first = m / 2 - k / 2;
  std::vector<double> psf(static_cast<std::size_t>(k) * k);
  for (int r = 0; r < k; ++r)
    for (int col = 0; col < k; ++col)
      psf[static_cast<std::size_t>(r) * k + col] =
          full[static_cast<std::size_t>(first + r) * m + first + col];
  double scale = 1.0;
  if (c.normalization == Normalization::peak) scale = 1.0 / (aperture * aperture);
  if (c.normalization == Normalization::sum) {
    double sum = 0.0;
    for (const double v : psf) sum += v;
    scale = 1.0 / sum;
  }
  for (double& v : psf) v *= scale;
  return psf;
}

namespace {

void remove_temp_dir() {
  if (std::getenv("PSFSIM_KEEP_TEST_DIRS") != nullptr) {
    std::fprintf(stderr, "psfsim tests: kept %s\n", temp_dir().c_str());
    return;
  }
  std::error_code ec;
  fs::remove_all(temp_dir(), ec);
}

}  // namespace

std::string temp_dir() {
  static const std::string dir = [] {
    std::string pattern = (fs::temp_directory_path() / "psfsim-test-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    return pattern;
  }();
  // Registered after `dir` is complete, so it runs before `dir` is destroyed.
  static const bool removed_at_exit = (std::atexit(remove_temp_dir), true);
  (void)removed_at_exit;
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
    if (!PSFSIM_HAVE_NUMPY)
      return std::string("CMake found no NumPy for ") + PSFSIM_PYTHON_EXECUTABLE;
    const std::string probe =
        std::string(PSFSIM_PYTHON_EXECUTABLE) + " -c 'import numpy' >/dev/null 2>&1";
    return run_shell(probe) == 0
               ? std::string()
               : std::string("NumPy not importable by ") + PSFSIM_PYTHON_EXECUTABLE +
                     ": install python3-numpy (Debian) or configure with "
                     "-DPSFSIM_PYTHON_EXECUTABLE=...";
  }();
  return reason;
}

std::vector<double> numpy_reference(const Case& c) {
  static int counter = 0;
  const std::string out = temp_dir() + "/reference-" + std::to_string(counter++) + ".bin";
  std::string cmd = std::string(PSFSIM_PYTHON_EXECUTABLE) + " " + PSFSIM_REFERENCE_SCRIPT +
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

std::string fresh_dir(const std::string& name) {
  const fs::path dir = fs::path(temp_dir()) / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

std::vector<std::string> folder_entries(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

bool folder_is_empty_of_outputs(const std::string& dir) {
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".h5" ||
        e.path().filename().string().find(".partial") != std::string::npos)
      return false;
  return true;
}

std::string write_text(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
  return path;
}

CommandResult run_psfsim(const std::string& args, const std::string& shell_prefix) {
  static int counter = 0;
  const std::string base = temp_dir() + "/cmd-" + std::to_string(counter++);
  const std::string prefix = shell_prefix.empty() ? "" : shell_prefix + " ";
  const int code = run_shell(prefix + std::string(PSFSIM_BINARY) + " " + args + " >" + base +
                             ".out 2>" + base + ".err </dev/null");
  return {code, read_file(base + ".err"), read_file(base + ".out")};
}

}  // namespace psfsim::test
