// The backend plugin loader (backends/backend_plugin.cpp): every way of not finding or not
// using a plugin is one line that "auto" passes by and `--backend NAME` reports with exit 3;
// a usable plugin's entry is the registry's, and the errors it throws arrive as psfsim's
// own. With -DPSFSIM_CUDA_PLUGIN=ON, libpsfsim-cuda.so itself: it loads, says whether a
// device is there, and a psfsim that does not find it runs on the CPU.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "psfsim/backend_plugin.hpp"
#include "psfsim/builtin_backends.hpp"
#include "test_support.hpp"

namespace psfsim::test {
namespace {
namespace fs = std::filesystem;

plugin::Request cuda_request() {
  plugin::Request r;
  r.file = "libpsfsim-cuda.so";
  r.package = "psfsim-cuda";
  r.backend = "cuda";
  r.summary = "a GPU";
  r.site = ComputeSite::device;
  r.libraries_hint = "NVIDIA's CUDA libraries";
  return r;
}

bool one_line(const std::string& text) {
  return !text.empty() && text.find('\n') == std::string::npos;
}

// A fresh folder holding `module` under the plugin's file name.
std::string folder_with(const std::string& name, const std::string& module) {
  const std::string dir = fresh_dir(name);
  fs::copy_file(module, fs::path(dir) / "libpsfsim-cuda.so");
  return dir;
}

// The message of the RuntimeFailure that `f` throws, or why it did not.
template <typename F>
std::string runtime_failure_of(F&& f) {
  try {
    f();
  } catch (const RuntimeFailure& e) {
    return e.what();
  } catch (const std::exception& e) {
    return std::string("not a RuntimeFailure: ") + e.what();
  }
  return "nothing thrown";
}

// Sets (or, given nullopt, removes) PSFSIM_PLUGIN_PATH while it lives.
class PluginPath {
 public:
  explicit PluginPath(const std::optional<std::string>& value) {
    if (const char* old = std::getenv("PSFSIM_PLUGIN_PATH"); old != nullptr) old_ = old;
    if (value) setenv("PSFSIM_PLUGIN_PATH", value->c_str(), 1);
    else unsetenv("PSFSIM_PLUGIN_PATH");
  }
  PluginPath(const PluginPath&) = delete;
  PluginPath& operator=(const PluginPath&) = delete;
  ~PluginPath() {
    if (old_) setenv("PSFSIM_PLUGIN_PATH", old_->c_str(), 1);
    else unsetenv("PSFSIM_PLUGIN_PATH");
  }

 private:
  std::optional<std::string> old_;
};

BackendEntry host_entry() {
  BackendEntry e;
  e.name = "cpu";
  e.summary = "the host";
  e.unusable_reason = [] { return std::string(); };
  e.describe = [] { return std::vector<std::string>{}; };
  return e;
}

TEST(BackendPlugin, MissingPluginIsOneLineNamingThePackageAndTheFolders) {
  const std::string empty = fresh_dir("plugin-none");
  const std::string other = fresh_dir("plugin-none-2");
  const BackendEntry e = plugin::load(cuda_request(), {empty, other});
  EXPECT_EQ(e.name, "cuda");
  EXPECT_FALSE(e.compiled);
  EXPECT_EQ(e.site, ComputeSite::device);
  const std::string why = e.unusable_reason();
  EXPECT_TRUE(one_line(why)) << why;
  EXPECT_EQ(why.rfind("plugin libpsfsim-cuda.so not installed (package psfsim-cuda; looked in ", 0),
            0u)
      << why;
  EXPECT_NE(why.find(empty + " or " + other), std::string::npos) << why;
  const std::string created =
      runtime_failure_of([&] { (void)e.create(plan_for(Case{}, Precision::single)); });
  EXPECT_EQ(created, "cuda backend: " + why);
  const std::vector<std::string> lines = e.describe();
  ASSERT_FALSE(lines.empty());
  for (const auto& line : lines) EXPECT_TRUE(one_line(line)) << line;
  EXPECT_NE(lines.back().find("PSFSIM_PLUGIN_PATH"), std::string::npos) << lines.back();
}

TEST(BackendPlugin, AutoPassesAMissingPluginByAndNamingItIsARuntimeFailure) {
  BackendRegistry registry;
  registry.add(plugin::load(cuda_request(), {fresh_dir("plugin-none")}));
  registry.add(host_entry());
  EXPECT_EQ(registry.select("auto").name, "cpu");
  EXPECT_EQ(registry.device_count(), 0);
  registry.set_up_process();
  try {
    (void)registry.resolve("cuda");
    ADD_FAILURE() << "--backend cuda accepted without its plugin";
  } catch (const RuntimeFailure& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.code(), ExitCode::runtime_failure);
    EXPECT_EQ(what.rfind("--backend cuda: plugin libpsfsim-cuda.so not installed", 0), 0u) << what;
    EXPECT_TRUE(one_line(what)) << what;
  }
}

TEST(BackendPlugin, SearchesThePathVariableThenTheBuildTreeThenTheInstalledFolder) {
  const std::string tree = PSFSIM_TEST_BUILD_TREE;  // this test program runs from it
  const std::string elsewhere = fresh_dir("not-the-build-tree");
  {
    const PluginPath path(std::string("/a:/b::/a:"));
    EXPECT_EQ(plugin::search_folders(tree, "/build", "/installed"),
              (std::vector<std::string>{"/a", "/b", "/build", "/installed"}));
    // A program that is not in the build tree (an installed copy) never looks there.
    EXPECT_EQ(plugin::search_folders(elsewhere, "/build", "/installed"),
              (std::vector<std::string>{"/a", "/b", "/installed"}));
    EXPECT_EQ(plugin::search_folders("", "/build", "/installed"),
              (std::vector<std::string>{"/a", "/b", "/installed"}));
  }
  const PluginPath none(std::nullopt);
  EXPECT_EQ(plugin::search_folders(tree, "/build", "/installed"),
            (std::vector<std::string>{"/build", "/installed"}));
  EXPECT_EQ(plugin::search_folders(tree, "/installed", "/installed"),
            (std::vector<std::string>{"/installed"}));
}

TEST(BackendPlugin, UsablePluginsEntryIsUsedAndItsErrorsArriveAsPsfsims) {
  const std::string dir = folder_with("plugin-usable", PSFSIM_TEST_PLUGIN_USABLE);
  const std::string path = dir + "/libpsfsim-cuda.so";
  const BackendEntry e = plugin::load(cuda_request(), {fresh_dir("plugin-none"), dir});
  EXPECT_TRUE(e.compiled);
  EXPECT_EQ(e.name, "cuda");
  EXPECT_EQ(e.summary, "a fake backend");
  EXPECT_EQ(e.unusable_reason(), "");
  EXPECT_EQ(e.describe(), (std::vector<std::string>{"fake backend line", "plugin " + path}));
  EXPECT_EQ(e.device_count(), 3);
  // Thrown inside the plugin, whose copies of the error types are its own and hidden.
  const PsfPlan plan = plan_for(Case{}, Precision::single);
  EXPECT_EQ(runtime_failure_of([&] { (void)e.create(plan); }), "fake: no device");
  PsfPlan batched = plan;
  batched.max_batch = 2;
  try {
    (void)e.create(batched);
    ADD_FAILURE() << "nothing thrown";
  } catch (const InputError& error) {
    EXPECT_EQ(error.code(), ExitCode::bad_input);
    EXPECT_STREQ(error.what(), "fake: max_batch above 1");
  }
}

TEST(BackendPlugin, FirstFolderHoldingThePluginDecides) {
  const std::string wanting = folder_with("plugin-no-entry", PSFSIM_TEST_PLUGIN_NO_ENTRY);
  const std::string usable = folder_with("plugin-usable", PSFSIM_TEST_PLUGIN_USABLE);
  const BackendEntry e = plugin::load(cuda_request(), {wanting, usable});
  EXPECT_FALSE(e.compiled);
  EXPECT_NE(e.unusable_reason().find(wanting), std::string::npos) << e.unusable_reason();
}

struct Refused {
  std::string name;
  std::string module;  // empty: a text file under the plugin's name
  std::string says;
};

void PrintTo(const Refused& r, std::ostream* os) { *os << r.name; }

class BackendPluginRefuses : public ::testing::TestWithParam<Refused> {};

TEST_P(BackendPluginRefuses, WithOneLineNamingThePlugin) {
  const Refused& r = GetParam();
  std::string dir;
  if (r.module.empty()) {
    dir = fresh_dir("plugin-" + r.name);
    write_text(dir + "/libpsfsim-cuda.so", "not a shared library\n");
  } else {
    dir = folder_with("plugin-" + r.name, r.module);
  }
  const std::string path = dir + "/libpsfsim-cuda.so";
  BackendRegistry registry;
  registry.add(plugin::load(cuda_request(), {dir}));
  registry.add(host_entry());
  const BackendEntry& e = *registry.find("cuda");
  EXPECT_FALSE(e.compiled);
  const std::string why = e.unusable_reason();
  EXPECT_TRUE(one_line(why)) << why;
  EXPECT_EQ(why.rfind("plugin " + path + " ", 0), 0u) << why;
  EXPECT_NE(why.find(r.says), std::string::npos) << why;
  // The loader's text names the plugin once, at the start.
  EXPECT_EQ(why.find(path, std::string("plugin ").size() + 1), std::string::npos) << why;
  EXPECT_EQ(e.describe(), std::vector<std::string>{why});
  EXPECT_EQ(registry.select("auto").name, "cpu");
  EXPECT_EQ(runtime_failure_of([&] { (void)registry.resolve("cuda"); }), "--backend cuda: " + why);
}

std::string stale_says() {
  return "belongs to psfsim 99.0.0 (plugin ABI " + std::to_string(plugin::abi_version + 1) +
         "), this psfsim is " + PSFSIM_VERSION + " (ABI " + std::to_string(plugin::abi_version) +
         "): install the psfsim-cuda of this version";
}

INSTANTIATE_TEST_SUITE_P(
    Plugins, BackendPluginRefuses,
    ::testing::Values(
        Refused{"not_elf", "", "cannot be loaded: "},
        Refused{"needs_absent", PSFSIM_TEST_PLUGIN_NEEDS_ABSENT,
                "cannot be loaded: libpsfsim-test-absent.so not found (NVIDIA's CUDA libraries)"},
        Refused{"no_entry", PSFSIM_TEST_PLUGIN_NO_ENTRY,
                "is not a psfsim backend plugin (it has no psfsim_backend_plugin_entry)"},
        Refused{"stale", PSFSIM_TEST_PLUGIN_STALE, stale_says()},
        Refused{"other", PSFSIM_TEST_PLUGIN_OTHER, "holds the backend other, not cuda"}),
    [](const ::testing::TestParamInfo<Refused>& info) { return info.param.name; });

#if defined(PSFSIM_TEST_CUDA_PLUGIN_DIR)

TEST(CudaPlugin, LoadsAndSaysWhetherADeviceIsThere) {
  const BackendEntry e = plugin::load(cuda_request(), {PSFSIM_TEST_CUDA_PLUGIN_DIR});
  ASSERT_TRUE(e.compiled) << e.unusable_reason();
  EXPECT_EQ(e.name, "cuda");
  EXPECT_EQ(e.site, ComputeSite::device);
  const std::vector<std::string> lines = e.describe();
  ASSERT_GE(lines.size(), 2u);
  EXPECT_EQ(lines.front().rfind("CUDA runtime", 0), 0u) << lines.front();
  EXPECT_EQ(lines.back(),
            std::string("plugin ") + PSFSIM_TEST_CUDA_PLUGIN_DIR + "/libpsfsim-cuda.so");
  const std::string why = e.unusable_reason();
  if (why.empty()) GTEST_SKIP() << "a CUDA device is usable here";
  EXPECT_EQ(why.rfind("no CUDA device", 0), 0u) << why;
  EXPECT_TRUE(one_line(why)) << why;
  EXPECT_EQ(e.device_count(), 0);
  // The backend's own failure, thrown inside the plugin, arrives as psfsim's.
  const std::string created =
      runtime_failure_of([&] { (void)e.create(plan_for(Case{}, Precision::single)); });
  EXPECT_EQ(created.rfind("no CUDA device", 0), 0u) << created;
}

TEST(CudaPlugin, TheRegistryOfThisBuildHoldsIt) {
  if (std::getenv("PSFSIM_PLUGIN_PATH") != nullptr)
    GTEST_SKIP() << "PSFSIM_PLUGIN_PATH is set: the registry may hold another plugin";
  const BackendEntry* e = builtin_backends().find("cuda");
  ASSERT_NE(e, nullptr);
  EXPECT_TRUE(e->compiled) << e->unusable_reason();
  EXPECT_EQ(builtin_backends().entries().front().name, "cuda");
}

// Runs `program` with `args` and the environment's PSFSIM_PLUGIN_PATH set to `path`.
CommandResult run_program(const std::string& program, const std::string& path,
                          const std::string& args) {
  static int counter = 0;
  const std::string base = temp_dir() + "/plugin-cmd-" + std::to_string(counter++);
  const std::string command = "PSFSIM_PLUGIN_PATH='" + path + "' '" + program + "' " + args + " >" +
                              base + ".out 2>" + base + ".err </dev/null";
  const int status = std::system(command.c_str());
  const auto read = [](const std::string& file) {
    std::ostringstream text;
    text << std::ifstream(file).rdbuf();
    return text.str();
  };
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read(base + ".err"), read(base + ".out")};
}

TEST(CudaPlugin, PsfsimWithoutItRefusesCudaAndRunsOnTheCpu) {
  if (fs::exists(fs::path(PSFSIM_TEST_CUDA_PLUGIN_INSTALL_DIR) / "libpsfsim-cuda.so"))
    GTEST_SKIP() << "a plugin is installed in " << PSFSIM_TEST_CUDA_PLUGIN_INSTALL_DIR;
  // A copy outside the build tree does not look in it, as an installed psfsim does not.
  const std::string bin = fresh_dir("plugin-bin");
  const std::string program = bin + "/psfsim";
  fs::copy_file(PSFSIM_BINARY, program);
  fs::permissions(program, fs::perms::owner_exec, fs::perm_options::add);
  const std::string tree = fs::canonical(PSFSIM_TEST_BUILD_TREE).string() + "/";
  if (fs::canonical(bin).string().rfind(tree, 0) == 0)
    GTEST_SKIP() << "the temporary folder lies inside the build tree";
  const std::string empty = fresh_dir("plugin-path-empty");
  const std::string out = fresh_dir("plugin-out");

  const auto named =
      run_program(program, empty, "run --backend cuda --samples 16 -o " + out + "/c.h5");
  EXPECT_EQ(named.exit_code, 3) << named.stderr_text;
  EXPECT_EQ(named.stderr_text.rfind("psfsim: error: --backend cuda: plugin libpsfsim-cuda.so not "
                                    "installed (package psfsim-cuda; looked in " +
                                        empty,
                                    0),
            0u)
      << named.stderr_text;
  EXPECT_EQ(std::count(named.stderr_text.begin(), named.stderr_text.end(), '\n'), 1)
      << named.stderr_text;
  EXPECT_TRUE(folder_is_empty_of_outputs(out));

  const auto automatic = run_program(program, empty, "run --samples 16 -o " + out + "/a.h5");
  EXPECT_EQ(automatic.exit_code, 0) << automatic.stderr_text;
  EXPECT_NE((automatic.stdout_text + automatic.stderr_text).find("(backend cpu"), std::string::npos)
      << automatic.stdout_text << automatic.stderr_text;
  EXPECT_TRUE(fs::exists(out + "/a.h5"));

  const auto info = run_program(program, empty, "info");
  EXPECT_EQ(info.exit_code, 0) << info.stderr_text;
  EXPECT_NE(info.stdout_text.find("[cuda] not usable: plugin libpsfsim-cuda.so not installed"),
            std::string::npos)
      << info.stdout_text;
  EXPECT_NE(info.stdout_text.find("[cpu] usable"), std::string::npos) << info.stdout_text;
}

TEST(CudaPlugin, PsfsimOfThisBuildLoadsItAndSaysWhyItCannotRun) {
  const BackendEntry* cuda = builtin_backends().find("cuda");
  if (cuda != nullptr && cuda->unusable_reason().empty())
    GTEST_SKIP() << "a CUDA device is usable here";
  const std::string out = fresh_dir("plugin-out-build");
  const auto info = run_program(PSFSIM_BINARY, "", "info");
  EXPECT_EQ(info.exit_code, 0) << info.stderr_text;
  EXPECT_NE(info.stdout_text.find("[cuda] not usable: no CUDA device"), std::string::npos)
      << info.stdout_text;
  EXPECT_NE(info.stdout_text.find(std::string("  plugin ") + PSFSIM_TEST_CUDA_PLUGIN_DIR),
            std::string::npos)
      << info.stdout_text;
  const auto named =
      run_program(PSFSIM_BINARY, "", "run --backend cuda --samples 16 -o " + out + "/c.h5");
  EXPECT_EQ(named.exit_code, 3) << named.stderr_text;
  EXPECT_EQ(named.stderr_text.rfind("psfsim: error: --backend cuda: no CUDA device", 0), 0u)
      << named.stderr_text;
  EXPECT_EQ(std::count(named.stderr_text.begin(), named.stderr_text.end(), '\n'), 1)
      << named.stderr_text;
}

#endif  // PSFSIM_TEST_CUDA_PLUGIN_DIR

}  // namespace
}  // namespace psfsim::test
