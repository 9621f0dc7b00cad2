// --zernike-order and --zernike-norm (docs/spec.md §7): the ANSI and Fringe index maps against
// their
// published tables, the polynomials each convention names against their closed forms, Fringe
// Z9 against Noll Z11 / sqrt(5) as phases and as PSFs, and --vary, --random and CSV headers
// reaching the same Noll terms as --zernike does.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>

#include "h5_snapshot.hpp"
#include "psfsim/builtin_backends.hpp"
#include "psfsim/errors.hpp"
#include "psfsim/frame_collector.hpp"
#include "psfsim/aberration_sources.hpp"
#include "psfsim/frames_file.hpp"
#include "psfsim/text_fields.hpp"
#include "psfsim/aberration_polynomial.hpp"
#include "psfsim/psf_run.hpp"
#include "psfsim/zernike.hpp"
#include "psfsim/zernike_convention.hpp"
#include "test_support.hpp"

namespace psfsim::test {
namespace {

constexpr ZernikeConvention noll{ZernikeOrdering::noll, ZernikeNorm::rms};
constexpr ZernikeConvention ansi{ZernikeOrdering::ansi, ZernikeNorm::rms};
constexpr ZernikeConvention fringe{ZernikeOrdering::fringe, ZernikeNorm::unit};

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no InputError)";
}

TEST(ZernikeOrder, AnsiIndexIsNTimesNPlus2PlusMOverTwoForEveryJBelow66) {
  // ANSI Z80.28-2004 / Thibos et al., JOSA A 19, 2329 (2002): j = (n(n+2)+m)/2, which numbers
  // every (n, m) with n <= 10 exactly once by j = 0 ... 65.
  std::set<std::pair<int, int>> seen;
  for (int j = 0; j < 66; ++j) {
    const auto [n, m] = ansi_to_nm(j);
    SCOPED_TRACE("j=" + std::to_string(j));
    EXPECT_EQ((n * (n + 2) + m) / 2, j);
    EXPECT_LE(std::abs(m), n);
    EXPECT_EQ((n - std::abs(m)) % 2, 0);
    EXPECT_LE(n, 10);
    seen.insert({n, m});
  }
  EXPECT_EQ(seen.size(), 66u);
  // Table 1 of Thibos et al. (m < 0 is the sine term).
  EXPECT_EQ(ansi_to_nm(1).m, -1);  // vertical tilt
  EXPECT_EQ(ansi_to_nm(2).m, 1);   // horizontal tilt
  EXPECT_EQ(ansi_to_nm(3).m, -2);  // oblique astigmatism
  EXPECT_EQ(ansi_to_nm(4).n, 2);   // defocus
  EXPECT_EQ(ansi_to_nm(12).n, 4);  // spherical
  EXPECT_EQ(ansi_to_nm(12).m, 0);
}

TEST(ZernikeOrder, FringeMatchesWyantsTableForAll37Terms) {
  // J. C. Wyant and K. Creath (1992), table 2 (there numbered from 0); Zemax's Zernike Fringe
  // list: n, |m| and whether the term is cos(|m| phi), sin(|m| phi) or round ('-').
  struct Entry {
    int n;
    int m_abs;
    char angular;
  };
  const Entry table[37] = {
      {0, 0, '-'},  {1, 1, 'c'}, {1, 1, 's'}, {2, 0, '-'}, {2, 2, 'c'}, {2, 2, 's'}, {3, 1, 'c'},
      {3, 1, 's'},  {4, 0, '-'}, {3, 3, 'c'}, {3, 3, 's'}, {4, 2, 'c'}, {4, 2, 's'}, {5, 1, 'c'},
      {5, 1, 's'},  {6, 0, '-'}, {4, 4, 'c'}, {4, 4, 's'}, {5, 3, 'c'}, {5, 3, 's'}, {6, 2, 'c'},
      {6, 2, 's'},  {7, 1, 'c'}, {7, 1, 's'}, {8, 0, '-'}, {5, 5, 'c'}, {5, 5, 's'}, {6, 4, 'c'},
      {6, 4, 's'},  {7, 3, 'c'}, {7, 3, 's'}, {8, 2, 'c'}, {8, 2, 's'}, {9, 1, 'c'}, {9, 1, 's'},
      {10, 0, '-'}, {12, 0, '-'}};
  std::set<int> noll_terms;
  for (int j = 1; j <= 37; ++j) {
    const Entry& e = table[j - 1];
    const auto [n, m] = fringe_to_nm(j);
    SCOPED_TRACE("Fringe Z" + std::to_string(j));
    EXPECT_EQ(n, e.n);
    EXPECT_EQ(m, e.angular == 's' ? -e.m_abs : e.m_abs);
    const NollMapping noll = to_noll(j, fringe);
    EXPECT_EQ(noll_to_nm(noll.j).n, e.n);
    EXPECT_EQ(noll_to_nm(noll.j).m, m);
    noll_terms.insert(noll.j);
  }
  EXPECT_EQ(noll_terms.size(), 37u);
}

TEST(ZernikeOrder, EveryIndexMapsToADistinctNollTerm) {
  for (const ZernikeOrdering order :
       {ZernikeOrdering::noll, ZernikeOrdering::ansi, ZernikeOrdering::fringe}) {
    const auto [first, last] = index_range(order);
    std::set<int> noll_terms;
    for (int j = first; j <= last; ++j) {
      const int noll_j = to_noll(j, {order, ZernikeNorm::rms}).j;
      EXPECT_GE(noll_j, 1);
      EXPECT_LE(noll_j, 325);
      noll_terms.insert(noll_j);
    }
    EXPECT_EQ(noll_terms.size(), static_cast<std::size_t>(last - first + 1)) << to_string(order);
  }
  for (int j = 1; j <= 325; ++j) EXPECT_EQ(nm_to_noll(noll_to_nm(j)), j);
  EXPECT_EQ(index_range(ZernikeOrdering::ansi).first, 0);
  EXPECT_EQ(index_range(ZernikeOrdering::ansi).last, 324);
  EXPECT_EQ(index_range(ZernikeOrdering::fringe).last, 37);
}

// c * Z_j as the phase model evaluates it, for a term written under `convention`.
double written_term(int j, double c, const ZernikeConvention& convention, double x, double y) {
  return compile_phase(to_noll(Aberration{{}, {{j, c}}}, convention)).evaluate(x, y);
}

TEST(ZernikeOrder, EachConventionNamesThePolynomialOfItsTable) {
  struct Form {
    ZernikeConvention convention;
    int j;
    double (*value)(double rho, double phi);
  };
  static const double r5 = std::sqrt(5.0), r6 = std::sqrt(6.0), r8 = std::sqrt(8.0);
  const Form forms[] = {
      // Fringe, unnormalized (Wyant's table, Zemax's Zernike Fringe).
      {fringe, 1, [](double, double) { return 1.0; }},
      {fringe, 2, [](double r, double p) { return r * std::cos(p); }},
      {fringe, 3, [](double r, double p) { return r * std::sin(p); }},
      {fringe, 4, [](double r, double) { return 2 * r * r - 1; }},
      {fringe, 5, [](double r, double p) { return r * r * std::cos(2 * p); }},
      {fringe, 6, [](double r, double p) { return r * r * std::sin(2 * p); }},
      {fringe, 7, [](double r, double p) { return (3 * std::pow(r, 3) - 2 * r) * std::cos(p); }},
      {fringe, 8, [](double r, double p) { return (3 * std::pow(r, 3) - 2 * r) * std::sin(p); }},
      {fringe, 9, [](double r, double) { return 6 * std::pow(r, 4) - 6 * r * r + 1; }},
      {fringe, 10, [](double r, double p) { return std::pow(r, 3) * std::cos(3 * p); }},
      {fringe, 11, [](double r, double p) { return std::pow(r, 3) * std::sin(3 * p); }},
      {fringe, 12,
       [](double r, double p) { return (4 * std::pow(r, 4) - 3 * r * r) * std::cos(2 * p); }},
      {fringe, 16,
       [](double r, double) { return 20 * std::pow(r, 6) - 30 * std::pow(r, 4) + 12 * r * r - 1; }},
      {fringe, 17, [](double r, double p) { return std::pow(r, 4) * std::cos(4 * p); }},
      {fringe, 25,
       [](double r, double) {
         return 70 * std::pow(r, 8) - 140 * std::pow(r, 6) + 90 * std::pow(r, 4) - 20 * r * r + 1;
       }},
      {fringe, 36,
       [](double r, double) {
         return 252 * std::pow(r, 10) - 630 * std::pow(r, 8) + 560 * std::pow(r, 6) -
                210 * std::pow(r, 4) + 30 * r * r - 1;
       }},
      {fringe, 37,
       [](double r, double) {
         return 924 * std::pow(r, 12) - 2772 * std::pow(r, 10) + 3150 * std::pow(r, 8) -
                1680 * std::pow(r, 6) + 420 * std::pow(r, 4) - 42 * r * r + 1;
       }},
      // ANSI, RMS-normalized (Thibos et al. 2002, table 2).
      {ansi, 0, [](double, double) { return 1.0; }},
      {ansi, 1, [](double r, double p) { return 2 * r * std::sin(p); }},
      {ansi, 2, [](double r, double p) { return 2 * r * std::cos(p); }},
      {ansi, 3, [](double r, double p) { return r6 * r * r * std::sin(2 * p); }},
      {ansi, 5, [](double r, double p) { return r6 * r * r * std::cos(2 * p); }},
      {ansi, 7, [](double r, double p) { return r8 * (3 * std::pow(r, 3) - 2 * r) * std::sin(p); }},
      {ansi, 9, [](double r, double p) { return r8 * std::pow(r, 3) * std::cos(3 * p); }},
      {ansi, 12, [](double r, double) { return r5 * (6 * std::pow(r, 4) - 6 * r * r + 1); }},
      // Fringe numbering with --zernike-norm rms; ANSI and Noll with unit.
      {{ZernikeOrdering::fringe, ZernikeNorm::rms},
       9,
       [](double r, double) { return r5 * (6 * std::pow(r, 4) - 6 * r * r + 1); }},
      {{ZernikeOrdering::ansi, ZernikeNorm::unit},
       3,
       [](double r, double p) { return r * r * std::sin(2 * p); }},
      {{ZernikeOrdering::noll, ZernikeNorm::unit},
       8,
       [](double r, double p) { return (3 * std::pow(r, 3) - 2 * r) * std::cos(p); }},
      {{ZernikeOrdering::noll, ZernikeNorm::unit},
       11,
       [](double r, double) { return 6 * std::pow(r, 4) - 6 * r * r + 1; }},
  };
  for (const Form& f : forms) {
    SCOPED_TRACE(std::string(to_string(f.convention.order)) + "/" +
                 std::string(to_string(f.convention.norm)) + " Z" + std::to_string(f.j));
    for (const double x : {-0.8, -0.3, 0.0, 0.45, 0.7})
      for (const double y : {-0.6, -0.1, 0.25, 0.5}) {
        const double rho = std::hypot(x, y), phi = std::atan2(y, x);
        if (rho > 1) continue;
        EXPECT_NEAR(written_term(f.j, 0.7, f.convention, x, y), 0.7 * f.value(rho, phi), 1e-11)
            << "x=" << x << " y=" << y;
      }
  }
  // The rim: each unit term's radial part is 1 there.
  for (int j = 1; j <= 37; ++j) {
    if (fringe_to_nm(j).m == 0) {
      EXPECT_NEAR(written_term(j, 1.0, fringe, 1.0, 0.0), 1.0, 1e-9) << "Z" << j;
    }
  }
}

TEST(ZernikeOrder, FringeZ9WithCIsNollZ11WithCOverRootFiveAsAPhase) {
  for (const double c : {0.1, -0.37, 2.5}) {
    const Aberration mapped = to_noll(Aberration{{}, {{9, c}}}, fringe);
    ASSERT_EQ(mapped.zernike.size(), 1u);
    EXPECT_EQ(mapped.zernike[0].j, 11);
    EXPECT_EQ(mapped.zernike[0].waves, c / std::sqrt(5.0));
    const AberrationPolynomial a = compile_phase(mapped);
    const AberrationPolynomial b = compile_phase(Aberration{{}, {{11, c / std::sqrt(5.0)}}});
    EXPECT_EQ(a.plain, b.plain);
    EXPECT_EQ(a.with_rho, b.with_rho);
  }
  // The default convention leaves terms bit for bit as written.
  const Aberration written{{{2, 1, 0.3}}, {{4, 0.1}, {11, -0.2}}};
  const Aberration same = to_noll(written, noll);
  EXPECT_EQ(same.zernike[1].waves, -0.2);
  EXPECT_EQ(same.seidel[0].waves, 0.3);
}

std::vector<double> run_frame(const Aberration& terms) {
  RunSpec s;
  s.backend = "cpu";
  s.precision = Precision::double_;
  s.samples = 48;
  s.wisdom = "none";
  s.fft_effort = FftEffort::estimate;
  s.normalization = Normalization::none;
  s.frames = {terms};
  return run_spec_frames(s).front();
}

TEST(ZernikeOrder, FringeZ9WithCIsNollZ11WithCOverRootFiveAsAPsf) {
  if (const std::string why = skip_reason("cpu"); !why.empty()) GTEST_SKIP() << why;
  const double c = 0.15;
  const auto fringe_psf = run_frame(to_noll(Aberration{{}, {{9, c}}}, fringe));
  EXPECT_EQ(fringe_psf, run_frame(Aberration{{}, {{11, c / std::sqrt(5.0)}}}));
  // Independently of the Noll tables: c(6 rho^4 - 6 rho^2 + 1) as Seidel terms (the piston
  // changes no intensity).
  const auto seidel_psf = run_frame(Aberration{{{4, 0, 6 * c}, {2, 0, -6 * c}}, {}});
  EXPECT_LT(relative_l2(fringe_psf, seidel_psf), reference_tolerance(Precision::double_));
  // ... and the term is there: not the unaberrated PSF.
  EXPECT_GT(relative_l2(fringe_psf, run_frame(Aberration{})), 1e-2);
}

// Zernike j -> waves of a frame, for comparisons that ignore term order.
std::map<int, double> zernikes_of(const Aberration& frame) {
  std::map<int, double> out;
  for (const auto& t : frame.zernike) out[t.j] = t.waves;
  return out;
}

TEST(ZernikeOrder, AnsiVaryRandomAndCsvHeadersReachTheSameNollTerms) {
  // ANSI 3, 4, 5 are Noll 5, 4, 6 (oblique astigmatism, defocus, vertical astigmatism).
  const Aberration fixed{{}, {{11, 0.02}}};
  const auto vary = expand(fixed, parse_vary("Z3,-0.5,0.5,5", ansi));
  const auto noll_vary = expand(fixed, parse_vary("Z5,-0.5,0.5,5"));
  ASSERT_EQ(vary.size(), noll_vary.size());
  for (std::size_t f = 0; f < vary.size(); ++f)
    EXPECT_EQ(zernikes_of(vary[f]), zernikes_of(noll_vary[f]));

  // --random: the k-th draw goes to the k-th ANSI index of the range.
  const auto random = expand(fixed, parse_random("3-5,0.1,20,9", ZernikeOrdering::ansi));
  const auto noll_random = expand(fixed, parse_random("4-6,0.1,20,9"));
  ASSERT_EQ(random.size(), 20u);
  for (std::size_t f = 0; f < random.size(); ++f) {
    auto a = zernikes_of(random[f]);
    auto n = zernikes_of(noll_random[f]);
    ASSERT_EQ(a.size(), 4u);
    EXPECT_EQ(a.at(11), 0.02);
    EXPECT_EQ(a.at(5), n.at(4));  // first draw
    EXPECT_EQ(a.at(4), n.at(5));  // second
    EXPECT_EQ(a.at(6), n.at(6));  // third
  }

  const std::string dir = fresh_dir("zernike-order-csv");
  std::ofstream(dir + "/ansi.csv") << "Z3,Z4,Z12,S2_1\n0.1,0.2,0.3,0.4\n-0.1,0,0.05,0\n";
  std::ofstream(dir + "/noll.csv") << "Z5,Z4,Z11,S2_1\n0.1,0.2,0.3,0.4\n-0.1,0,0.05,0\n";
  const auto csv = read_frames_csv(fixed, dir + "/ansi.csv", ansi);
  const auto noll_csv = read_frames_csv(fixed, dir + "/noll.csv");
  ASSERT_EQ(csv.size(), 2u);
  for (std::size_t f = 0; f < csv.size(); ++f) {
    EXPECT_EQ(zernikes_of(csv[f]), zernikes_of(noll_csv[f]));
    EXPECT_EQ(csv[f].seidel.at(0).waves, noll_csv[f].seidel.at(0).waves);
  }
}

TEST(ZernikeOrder, FringeVaryAndCsvValuesAreUnitNormalizedLikeZernike) {
  // Each value a frame takes equals --zernike 9,value under the same convention, bit for bit.
  const auto vary = expand(Aberration{}, parse_vary("Z9,-0.4,0.4,5", fringe));
  for (const auto& frame : vary) {
    ASSERT_EQ(frame.zernike.size(), 1u);
    EXPECT_EQ(frame.zernike[0].j, 11);
  }
  EXPECT_EQ(vary.back().zernike[0].waves, 0.4 / std::sqrt(5.0));
  EXPECT_EQ(vary[1].zernike[0].waves, -0.2 / std::sqrt(5.0));

  const std::string dir = fresh_dir("zernike-order-fringe-csv");
  std::ofstream(dir + "/fringe.csv") << "Z9,Z4,Z37\n0.3,-0.2,0.01\n";
  const auto csv = read_frames_csv(Aberration{}, dir + "/fringe.csv", fringe);
  const auto zernike = to_noll(Aberration{{}, {{9, 0.3}, {4, -0.2}, {37, 0.01}}}, fringe);
  EXPECT_EQ(zernikes_of(csv.at(0)), zernikes_of(zernike));
  EXPECT_EQ(zernikes_of(csv.at(0)).at(79), 0.01 / std::sqrt(13.0));  // Noll 79 = (12, 0)

  // --random's RMS is the wavefront's: the draws are Noll (RMS) coefficients whatever the norm.
  const auto a = expand(Aberration{}, parse_random("4-9,0.1,5,3", ZernikeOrdering::fringe));
  const auto b = expand(Aberration{}, parse_random("4-9,0.1,5,3", ZernikeOrdering::ansi));
  for (std::size_t f = 0; f < a.size(); ++f)
    for (std::size_t t = 0; t < a[f].zernike.size(); ++t)
      EXPECT_EQ(a[f].zernike[t].waves, b[f].zernike[t].waves);
}

TEST(ZernikeOrder, OutOfRangeIndicesNameTheOptionAndTheRange) {
  EXPECT_EQ(message_of([] { (void)parse_zernike("38,0.1", "--zernike", ZernikeOrdering::fringe); }),
            "--zernike '38,0.1': Fringe indices run from 1 to 37");
  EXPECT_EQ(message_of([] { (void)parse_zernike("0,0.1", "--zernike", ZernikeOrdering::fringe); }),
            "--zernike '0,0.1': Fringe indices run from 1 to 37");
  EXPECT_EQ(message_of([] { (void)parse_zernike("-1,0.1", "--zernike", ZernikeOrdering::ansi); }),
            "--zernike '-1,0.1': ANSI indices run from 0 to 324 (radial order 24)");
  EXPECT_EQ(message_of([] { (void)parse_zernike("326,0.1", "--zernike"); }),
            "--zernike '326,0.1': Noll indices run from 1 to 325 (radial order 24)");
  EXPECT_EQ(parse_zernike("0,0.1", "--zernike", ZernikeOrdering::ansi).j, 0);  // ANSI piston
  EXPECT_NE(message_of([] {
              (void)parse_vary("Z38,0,1,3", fringe);
            }).find("--vary 'Z38,0,1,3': the Fringe index of 'Z38' must be an integer in [1, 37]"),
            std::string::npos);
  EXPECT_NE(message_of([] {
              (void)parse_random("30-38,0.1,3,1", ZernikeOrdering::fringe);
            }).find("JMAX, a Fringe index, must be an integer in [30, 37]"),
            std::string::npos);
  EXPECT_NE(message_of([] {
              (void)parse_term_id("Z325", "x.csv:1", ansi);
            }).find("the ANSI index of 'Z325' must be an integer in [0, 324]"),
            std::string::npos);
}

TEST(ZernikeOrder, ConventionNamesReadBackAndDefaultNorms) {
  for (const auto o : {ZernikeOrdering::noll, ZernikeOrdering::ansi, ZernikeOrdering::fringe})
    EXPECT_EQ(parse_zernike_ordering(to_string(o)), o);
  for (const auto n : {ZernikeNorm::rms, ZernikeNorm::unit})
    EXPECT_EQ(parse_zernike_norm(to_string(n)), n);
  EXPECT_FALSE(parse_zernike_ordering("zemax"));
  EXPECT_FALSE(parse_zernike_norm("peak"));
  EXPECT_EQ(default_norm(ZernikeOrdering::noll), ZernikeNorm::rms);
  EXPECT_EQ(default_norm(ZernikeOrdering::ansi), ZernikeNorm::rms);
  EXPECT_EQ(default_norm(ZernikeOrdering::fringe), ZernikeNorm::unit);
  EXPECT_EQ(RunSpec{}.zernike, noll);
}

// The command line end to end: a Fringe run equals the Noll run of the mapped terms (/psf and
// /parameters, which always hold Noll terms), and its recorded configuration reproduces it.
TEST(ZernikeOrder, FringeRunEqualsTheMappedNollRunAndItsConfigReproducesIt) {
  const std::string dir = fresh_dir("zernike-order-cli");
  const std::string base =  // no wisdom: the concurrent tests' cache must not change a plan
      "run --backend cpu --samples 32 --fft-effort estimate --wisdom none --quiet ";
  const std::string fringe_args = "--zernike-order fringe --zernike 9,0.1 --vary Z4,0,0.5,3";
  const std::string noll_args = "--zernike 11," + format_number(0.1 / std::sqrt(5.0)) +
                                " --vary Z4,0," + format_number(0.5 / std::sqrt(3.0)) + ",3";
  auto r = run_psfsim(base + fringe_args + " -o " + dir + "/fringe.h5");
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  r = run_psfsim(base + noll_args + " -o " + dir + "/noll.h5");
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const H5Snapshot f = read_h5(dir + "/fringe.h5");
  const H5Snapshot n = read_h5(dir + "/noll.h5");
  EXPECT_EQ(f.datasets.at("/psf"), n.datasets.at("/psf"));
  EXPECT_EQ(f.datasets.at("/parameters/Z11"), n.datasets.at("/parameters/Z11"));
  EXPECT_EQ(f.datasets.at("/parameters/Z4"), n.datasets.at("/parameters/Z4"));
  EXPECT_EQ(f.datasets.count("/parameters/Z9"), 0u);

  const std::string config = f.attributes.at("/@config");
  for (const char* line : {"zernike = [ \"9,0.1\" ]", "zernike-order = \"fringe\"",
                           "zernike-norm = \"unit\"", "vary = \"Z4,0,0.5,3\""})
    EXPECT_NE(config.find(line), std::string::npos) << line << " not in\n" << config;
  std::ofstream(dir + "/again.toml") << config;
  r = run_psfsim("run -c " + dir + "/again.toml --force --quiet");
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(read_h5(dir + "/fringe.h5").datasets.at("/psf"), f.datasets.at("/psf"));
}

}  // namespace
}  // namespace psfsim::test
