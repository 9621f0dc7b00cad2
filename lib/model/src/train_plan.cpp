#include "psfsim/train_plan.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <span>

#include "psfsim/angular_spectrum_grid.hpp"
#include "psfsim/aperture_geometry.hpp"
#include "psfsim/errors.hpp"
#include "psfsim/mft_matrix.hpp"
#include "psfsim/option_table.hpp"
#include "psfsim/pupil_math.hpp"
#include "psfsim/pupil_sampling.hpp"
#include "psfsim/text_fields.hpp"
#include "psfsim/units.hpp"

namespace psfsim {
namespace {

constexpr double pi = std::numbers::pi;

// The nested passes of a mask that covers the whole focal plane, in lambda_k/D. Each pass
// samples `spacing` over [-half, half] and keeps the ring between the window it takes over
// from the coarser pass and the one it hands to the finer. The outermost samples one period
// of the sampled pupil's spectrum, as an FFT padded four times would; the finer ones resolve
// the mask's centre, where a vortex's phase turns fastest: at radius r a charge l turns once
// in 2 pi r / l lambda/D, so the spacing halves towards the centre. The spacings and radii
// were chosen against brute-force FFTs padded 32 times, and against the same passes twice as
// fine (docs/coronagraphy.md gives the accuracy).
struct PassDesign {
  double spacing;
  double half;   // 0: the whole period
  double cut;    // the window handed to the finer pass: 1 inside cut - width/2
  double width;  // ... 0 outside cut + width/2
};
constexpr PassDesign vortex_passes[] = {
    {0.25, 0.0, 8.0, 4.0},
    {1.0 / 8.0, 10.5, 2.0, 1.0},
    {1.0 / 16.0, 2.5, 0.6, 0.4},
    {1.0 / 128.0, 0.85, 0.0, 0.0},
};
// Four quadrants turn nowhere faster at the centre, but their edges run through every
// radius: 1/16 lambda/D out to where the outermost pass takes over, which the vortex's
// 1/8 there would make 1.5 times less accurate.
constexpr PassDesign four_quadrant_passes[] = {
    {0.25, 0.0, 8.0, 4.0},
    {1.0 / 16.0, 10.5, 0.6, 0.4},
    {1.0 / 128.0, 0.85, 0.0, 0.0},
};
std::span<const PassDesign> full_plane_passes(FocalMask::Kind kind) {
  if (kind == FocalMask::Kind::vortex) return vortex_passes;
  return four_quadrant_passes;
}
// The outermost pass must hold the second one's window: a period of at least this many
// lambda/D.
constexpr double min_full_plane_period = 2 * 10.5;

// 1 inside cut - width/2, 0 outside cut + width/2, a raised cosine between.
double window(double r, double cut, double width) {
  if (width <= 0.0) return r < cut ? 1.0 : 0.0;
  const double t = std::clamp((r - (cut - width / 2)) / width, 0.0, 1.0);
  return 0.5 * (1.0 + std::cos(pi * t));
}

std::size_t area(std::size_t a, std::size_t b) { return a * b; }

// A pass of m points at `spacing`, the optical axis at index `centre`, its weights from
// weight(theta_x, theta_y) times dtheta^2 dxi^2.
template <typename Weight>
MaskPass make_pass(const std::vector<double>& coordinates, double dxi, int m, double centre,
                   double spacing, Weight&& weight) {
  const std::size_t n = coordinates.size();
  MaskPass p;
  p.points = m;
  p.spacing = spacing;
  p.centre = centre;
  p.forward.resize(area(m, n));
  const MftAxis axis{coordinates, m, centre, spacing};
  write_mft_matrix(
      axis, [](double turns) { return mft_phasor(turns); }, p.forward.begin());
  p.inverse.resize(area(n, m));
  for (int q = 0; q < m; ++q)
    for (std::size_t i = 0; i < n; ++i) p.inverse[i * m + q] = std::conj(p.forward[q * n + i]);
  p.weights.resize(area(m, m));
  const double scale = spacing * spacing * dxi * dxi;
  for (int r = 0; r < m; ++r)
    for (int c = 0; c < m; ++c)
      p.weights[area(r, m) + c] = scale * weight(axis.theta(c), axis.theta(r));
  return p;
}

TrainStep spot_step(const FocalMask& mask, const std::vector<double>& x, double dxi, double ratio,
                    double sampling) {
  // The samples theta = j / Q lambda_ref/D with |theta| <= r, as an FFT padded Q times has
  // them: in lambda_k/D both scale by lambda_ref/lambda_k.
  const double rq = mask.radius * sampling;
  const int j = static_cast<int>(std::floor(rq));
  const double leak = std::sqrt(mask.transmission) - 1.0;
  const double spacing = ratio / sampling;
  const auto inside = [rq](double jx, double jy) { return jx * jx + jy * jy <= rq * rq; };
  // Where the outermost rows and columns hold one sample each, the four on the axes at
  // |j| = J (r Q a whole number: every whole radius at the default Q), they go in a 3 x 3 pass
  // of their own, spaced J samples apart, each weighted by the main grid's cell: the same
  // sum, with the main pass at 2J - 1 points rather than 2J + 1, which at Q = 16 is one past
  // a multiple of 32 and would cost the products a whole row of tiles.
  // A small spot keeps one pass: its products are cheap either way.
  const bool peel = j >= 16 && rq * rq < static_cast<double>(j) * j + 1.0;
  const int half = peel ? j - 1 : j;
  TrainStep s;
  s.kind = TrainStep::Kind::mask;
  s.keep = 1.0;
  s.passes.push_back(make_pass(x, dxi, 2 * half + 1, half, spacing, [&](double tx, double ty) {
    return Complex128(inside(std::round(tx / spacing), std::round(ty / spacing)) ? leak : 0.0);
  }));
  if (peel) {
    const double cell = 1.0 / (static_cast<double>(j) * j);  // (spacing / (J spacing))^2
    s.passes.push_back(make_pass(x, dxi, 3, 1, j * spacing, [&](double tx, double ty) {
      const double jx = j * std::round(tx / (j * spacing)), jy = j * std::round(ty / (j * spacing));
      const bool outer = std::abs(jx) == j || std::abs(jy) == j;
      return Complex128(outer && inside(jx, jy) ? leak * cell : 0.0);
    }));
  }
  return s;
}

TrainStep map_step(const FocalMask& mask, const std::vector<double>& x, double dxi, double ratio) {
  const MaskMap& map = *mask.map_values;
  const int m = static_cast<int>(map.columns);
  const double spacing = mask.map_sampling * ratio;
  TrainStep s;
  s.kind = TrainStep::Kind::mask;
  s.keep = 1.0;
  s.passes.push_back(make_pass(x, dxi, m, (m - 1) / 2.0, spacing, [&](double tx, double ty) {
    const auto c = static_cast<std::size_t>(std::lround(tx / spacing + (m - 1) / 2.0));
    const auto r = static_cast<std::size_t>(std::lround(ty / spacing + (m - 1) / 2.0));
    return map.values[r * map.columns + c] - 1.0;
  }));
  return s;
}

Complex128 full_plane_mask(const FocalMask& mask, double tx, double ty) {
  if (mask.kind == FocalMask::Kind::vortex) {
    if (tx == 0.0 && ty == 0.0) return 0.0;  // the singular point: the mean of the ring
    return std::polar(1.0, mask.charge * std::atan2(ty, tx));
  }
  const auto sign = [](double v) { return v > 0.0 ? 1.0 : (v < 0.0 ? -1.0 : 0.0); };
  return sign(tx) * sign(ty);  // four quadrants, pi in the second and fourth; 0 on the axes
}

TrainStep full_plane_step(const FocalMask& mask, const std::vector<double>& x, double dxi) {
  const double period = 1.0 / dxi;
  TrainStep s;
  s.kind = TrainStep::Kind::mask;
  s.keep = 0.0;
  double outer_cut = -1.0, outer_width = 0.0;  // the first pass has no outer window
  for (const PassDesign& d : full_plane_passes(mask.kind)) {
    int m;
    double centre;
    if (d.half == 0.0) {
      m = static_cast<int>(std::lround(period / d.spacing));
      centre = m / 2;
    } else {
      const int j = static_cast<int>(std::ceil(d.half / d.spacing));
      m = 2 * j + 1;
      centre = j;
    }
    s.passes.push_back(make_pass(x, dxi, m, centre, d.spacing, [&](double tx, double ty) {
      const double r = std::hypot(tx, ty);
      const double outer = outer_cut < 0.0 ? 1.0 : window(r, outer_cut, outer_width);
      const double inner = d.cut > 0.0 ? window(r, d.cut, d.width) : 0.0;
      const double w = outer - inner;
      return w == 0.0 ? Complex128{} : w * full_plane_mask(mask, tx, ty);
    }));
    outer_cut = d.cut;
    outer_width = d.width;
  }
  return s;
}

// V of A = U F V (MaskPass::twist) where the pass's forward matrix has that structure to
// within rounding, checked entry by entry; empty where it does not. With v_0 = 1, u_q is
// A[q][0] and v_i is A[0][i] / A[0][0].
std::vector<Complex128> periodic_twist(const MaskPass& p, std::size_t n) {
  const std::size_t m = p.points;
  if (m < n || p.forward.size() != m * n) return {};
  const auto& a = p.forward;
  std::vector<Complex128> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = a[i] / a[0];
  for (std::size_t q = 0; q < m; ++q)
    for (std::size_t i = 0; i < n; ++i) {
      const double turns = static_cast<double>((q * i) % m) / static_cast<double>(m);
      if (std::abs(a[q * n + i] - a[q * n] * mft_phasor(turns) * v[i]) > 1e-11) return {};
    }
  return v;
}

// The angular spectrum (angular_spectrum_grid.hpp, the one transfer function and range check)
// as a pass: the DFT of the field zero-padded to 2N, the transfer function, the inverse DFT
// cropped back to N.
TrainStep distance_step(const Distance& d, int n, double dx, double wavelength) {
  const int p = 2 * n;
  const AngularSpectrumGrid grid{n, p, dx, wavelength, d.metres};
  check_angular_spectrum(grid);
  TrainStep s;
  s.kind = TrainStep::Kind::mask;
  s.keep = 0.0;
  MaskPass pass;
  pass.points = p;
  pass.forward.resize(area(p, n));
  pass.inverse.resize(area(n, p));
  for (int u = 0; u < p; ++u)
    for (int i = 0; i < n; ++i) {
      const Complex128 e = std::polar(1.0, -2 * pi * ((static_cast<long long>(u) * i) % p) / p);
      pass.forward[area(u, n) + i] = e;
      pass.inverse[area(i, p) + u] = std::conj(e);
    }
  pass.weights = angular_spectrum_transfer(grid, 1.0 / (static_cast<double>(p) * p));
  s.passes.push_back(std::move(pass));
  return s;
}

// C (rows x cols) = X (rows x inner) Y (inner x cols), plainly.
std::vector<Complex128> product(const std::vector<Complex128>& a, const std::vector<Complex128>& b,
                                std::size_t rows, std::size_t inner, std::size_t cols) {
  std::vector<Complex128> c(rows * cols);
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t k = 0; k < inner; ++k) {
      const Complex128 v = a[i * inner + k];
      if (v == Complex128{}) continue;
      for (std::size_t j = 0; j < cols; ++j) c[i * cols + j] += v * b[k * cols + j];
    }
  return c;
}

std::vector<Complex128> transposed(const std::vector<Complex128>& a, std::size_t rows,
                                   std::size_t cols) {
  std::vector<Complex128> t(rows * cols);
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j) t[j * rows + i] = a[i * cols + j];
  return t;
}

// The entrance pupil's aberration-free amplitude, N x N.
std::vector<Complex128> entrance_amplitude(const SampledPupil& pupil) {
  const std::size_t n = pupil.samples;
  std::vector<Complex128> a(n * n);
  if (const double* map = pupil.amplitude_of(-1)) {
    for (std::size_t i = 0; i < n * n; ++i) a[i] = map[i];
    return a;
  }
  for (std::size_t r = 0; r < n; ++r) {
    const ApertureSpan& s = pupil.spans[r];
    for (int c = s.lo; c < s.hi; ++c)
      if (c < s.obscured_lo || c >= s.obscured_hi) a[r * n + c] = 1.0;
  }
  return a;
}

}  // namespace

std::string train_sampling_text(const OpticalTrain& train, int samples) {
  std::string text;
  for (const TrainPlane& p : train.planes) {
    std::string line = to_string(p) + ": ";
    if (const auto* m = std::get_if<FocalMask>(&p)) {
      if (m->kind == FocalMask::Kind::spot) {
        const int j = static_cast<int>(std::floor(m->radius * train.mask_sampling));
        line += "one MFT pass, " + std::to_string(2 * j + 1) + " x " + std::to_string(2 * j + 1) +
                " samples at 1/" + format_number(train.mask_sampling) + " lambda/D";
      } else if (m->kind == FocalMask::Kind::map) {
        line += "one MFT pass at the map's samples, " + format_number(m->map_sampling) +
                " lambda/D apart";
      } else {
        line += "MFT passes at";
        for (const PassDesign& d : full_plane_passes(m->kind))
          line += " " + format_number(d.spacing) + " lambda/D" +
                  (d.half == 0.0 ? " (one period, " + std::to_string(samples) + " lambda/D)"
                                 : " (to " + format_number(d.half) + ")") +
                  (d.cut > 0.0 ? " handing over at " + format_number(d.cut) + " +- " +
                                     format_number(d.width / 2) + ","
                               : "");
        line += " raised-cosine windows";
      }
    } else if (std::holds_alternative<PupilStop>(p)) {
      line += "multiplies the field on the pupil's " + std::to_string(samples) + " x " +
              std::to_string(samples) + " grid";
    } else {
      line += "angular spectrum on the field zero-padded to " + std::to_string(2 * samples) +
              " x " + std::to_string(2 * samples);
    }
    text += (text.empty() ? "" : "\n") + line;
  }
  return text;
}

std::vector<double> stop_mask(const PupilStop& s, const std::vector<double>& coordinates) {
  std::vector<double> scaled(coordinates);
  for (double& x : scaled) x /= s.diameter;
  ApertureSpec spec;
  if (s.spiders) {
    Spiders sp = *s.spiders;
    sp.width /= s.diameter;
    spec.spiders = sp;
  }
  return aperture_mask(scaled, s.obscuration / s.diameter, spec);
}

void apply_train(const ChannelTrain& channel, int samples, std::vector<Complex128>& field) {
  const std::size_t n = samples;
  for (const TrainStep& s : channel.steps) {
    if (s.kind == TrainStep::Kind::stop) {
      for (std::size_t i = 0; i < n * n; ++i) field[i] *= s.stop[i];
    } else {
      std::vector<Complex128> out(field.size());
      for (std::size_t i = 0; i < out.size(); ++i) out[i] = s.keep * field[i];
      for (const MaskPass& p : s.passes) {
        const std::size_t m = p.points;
        const auto at = transposed(p.forward, m, n);                        // N x m
        auto f = product(p.forward, product(field, at, n, n, m), m, n, m);  // m x m
        for (std::size_t i = 0; i < m * m; ++i) f[i] *= p.weights[i];
        const auto bt = transposed(p.inverse, n, m);  // m x N
        const auto l = product(p.inverse, product(f, bt, m, m, n), n, m, n);
        for (std::size_t i = 0; i < n * n; ++i) out[i] += l[i];
      }
      field = std::move(out);
    }
  }
}

std::shared_ptr<const TrainPlan> make_train_plan(const OpticalTrain& train,
                                                 const TrainSampling& sampling,
                                                 const SampledPupil& pupil) {
  auto plan = std::make_shared<TrainPlan>();
  const int n = sampling.samples;
  const std::vector<double>& x = pupil.coordinates;
  const double dxi = (x[1] - x[0]) / 2.0;  // D per sample
  plan->support_lo = 0;
  plan->support_hi = n;
  for (const TrainPlane& p : train.planes) {
    plan->description += (plan->description.empty() ? "" : "\n") + to_string(p);
    if (const auto* m = std::get_if<FocalMask>(&p)) {
      const bool full =
          m->kind == FocalMask::Kind::vortex || m->kind == FocalMask::Kind::four_quadrant;
      if (full && 1.0 / dxi < min_full_plane_period)
        throw InputError(flag(Option::coronagraph) + " " + to_string(*m) +
                         ": a mask over the whole focal plane needs a focal-plane period of at "
                         "least " +
                         format_number(min_full_plane_period) +
                         " lambda/D: --samples 21 or more (22 on the linspace grid)");
      if (m->kind == FocalMask::Kind::map && m->map_values->rows != m->map_values->columns)
        throw InputError(flag(Option::coronagraph) + " " + to_string(*m) + ": the map is " +
                         std::to_string(m->map_values->rows) + " x " +
                         std::to_string(m->map_values->columns) + ", a mask map must be square");
    }
  }
  for (const double ratio : sampling.wavelength_ratios) {
    ChannelTrain channel;
    int lo = 0, hi = n;
    for (const TrainPlane& p : train.planes) {
      if (const auto* m = std::get_if<FocalMask>(&p)) {
        if (m->kind == FocalMask::Kind::spot)
          channel.steps.push_back(spot_step(*m, x, dxi, ratio, train.mask_sampling));
        else if (m->kind == FocalMask::Kind::map)
          channel.steps.push_back(map_step(*m, x, dxi, ratio));
        else channel.steps.push_back(full_plane_step(*m, x, dxi));
        lo = 0;
        hi = n;
      } else if (const auto* s = std::get_if<PupilStop>(&p)) {
        TrainStep step;
        step.kind = TrainStep::Kind::stop;
        step.stop = stop_mask(*s, x);
        int first = n, last = -1;
        for (int r = 0; r < n; ++r)
          for (int c = 0; c < n; ++c)
            if (step.stop[area(r, n) + c] != 0.0) {
              first = std::min({first, r, c});
              last = std::max({last, r, c});
            }
        lo = std::max(lo, first);
        hi = std::min(hi, last + 1);
        channel.steps.push_back(std::move(step));
      } else {
        const auto& d = std::get<Distance>(p);
        if (!(sampling.diameter_m > 0.0 && sampling.reference_wavelength_m > 0.0))
          throw InputError(flag(Option::plane) + " " + to_string(p) +
                           ": a distance needs --diameter and a wavelength");
        channel.steps.push_back(distance_step(d, n, sampling.diameter_m * dxi,
                                              sampling.reference_wavelength_m / ratio));
        lo = 0;
        hi = n;
      }
    }
    for (TrainStep& s : channel.steps)
      for (MaskPass& pass : s.passes)
        pass.twist = periodic_twist(pass, static_cast<std::size_t>(n));
    plan->support_lo = lo;
    plan->support_hi = std::max(lo, hi);
    ChannelTrain unmasked;
    for (std::size_t i = 0; i < channel.steps.size(); ++i)
      if (!std::holds_alternative<FocalMask>(train.planes[i]))
        unmasked.steps.push_back(channel.steps[i]);
    std::vector<Complex128> field = entrance_amplitude(pupil);
    apply_train(unmasked, n, field);
    Complex128 sum{};
    for (const Complex128& v : field) sum += v;
    channel.unmasked_peak = std::norm(sum);
    if (!(channel.unmasked_peak > 0.0))
      throw InputError("the optical train's stops leave no light on the optical axis");
    plan->channels.push_back(std::move(channel));
  }
  return plan;
}

}  // namespace psfsim
