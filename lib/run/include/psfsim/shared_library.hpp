#pragma once
// A library opened on first use rather than linked (cuBLAS, OpenBLAS), kept open for the
// process's life, its functions bound by name. A failure is one RuntimeFailure naming it.
#include <string>
#include <vector>

namespace psfsim {

class SharedLibrary {
 public:
  // The first of `candidates` (paths or sonames) the loader opens; `purpose` says what for,
  // in the error: "cannot open libcublas.so.13 (cuBLAS, for ...): <the loader's reason>".
  // `own_copy`: where the process has already loaded the library (NumPy's OpenBLAS, in the
  // Python module), a copy of it is opened in a link namespace of its own, which initialises
  // itself under psfsim's environment (OPENBLAS_CORETYPE) rather than sharing the state the
  // other loader left, so that an in-process run computes what the command line does.
  SharedLibrary(const std::vector<std::string>& candidates, const std::string& purpose,
                bool own_copy = false);

  template <typename Function>
  void bind(const char* name, Function& to) const {
    to = reinterpret_cast<Function>(symbol(name));
  }

 private:
  [[nodiscard]] void* symbol(const char* name) const;  // throws when the library has none

  void* handle_ = nullptr;
  std::string name_;
};

}  // namespace psfsim
