#pragma once
// Refuse runs that cannot fit before allocating anything, with the figures in the message.
#include <cstddef>
#include <string>

namespace psfsim {

// Bytes the OS reports as available to a new allocation (MemAvailable; physical pages otherwise).
[[nodiscard]] std::size_t available_host_memory();
// "1.50 GiB"
[[nodiscard]] std::string format_bytes(double bytes);
// Throws InputError naming `what` when `needed` exceeds `available`.
void require_memory(std::size_t needed, std::size_t available, const std::string& what,
                    const std::string& where);

}  // namespace psfsim
