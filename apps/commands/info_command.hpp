#pragma once

namespace psfsim::app {

// Version, commit, backends compiled in and whether each is usable, library versions.
void print_info();

}  // namespace psfsim::app
