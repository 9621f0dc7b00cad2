#pragma once
// CLI11's App, for the option headers that name it by reference only. CLI11 is header-only and
// costs seconds of compile time in every file that includes it, so only the files that build
// or read a CLI::App include <CLI/CLI.hpp>.
namespace CLI {
class App;
}  // namespace CLI
