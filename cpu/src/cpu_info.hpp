#pragma once
// What the CPU backends report about the machine.
#include <string>

namespace psfsim::cpu {

[[nodiscard]] std::string cpu_model();  // /proc/cpuinfo's model name

}  // namespace psfsim::cpu
