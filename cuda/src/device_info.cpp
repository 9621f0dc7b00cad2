#include "device_info.hpp"

#include <cuda_runtime_api.h>
#include <cufft.h>
#include <library_types.h>

#include <cstdio>

#include "cuda_check.hpp"
#include "psfsim/errors.hpp"
#include "psfsim/memory_budget.hpp"

namespace psfsim::cuda {
namespace {

// 13000 -> "13.0"
std::string cuda_version_text(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

std::string cufft_version_text() {
  int major = 0;
  int minor = 0;
  int patch = 0;
  if (cufftGetProperty(MAJOR_VERSION, &major) != CUFFT_SUCCESS ||
      cufftGetProperty(MINOR_VERSION, &minor) != CUFFT_SUCCESS ||
      cufftGetProperty(PATCH_LEVEL, &patch) != CUFFT_SUCCESS)
    return "unknown";
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

void validate_shape(const PsfPlan& plan) {
  if (plan.samples < 1 || plan.padded < plan.samples || plan.frame < 1 ||
      plan.frame > plan.padded || plan.max_batch < 1)
    throw InputError("cuda backend: invalid plan (N=" + std::to_string(plan.samples) +
                     ", M=" + std::to_string(plan.padded) + ", K=" + std::to_string(plan.frame) +
                     ", batch " + std::to_string(plan.max_batch) + ")");
  if (static_cast<long long>(plan.max_batch) * plan.padded > 0x7fffffffLL)
    throw InputError("cuda backend: batch of " + std::to_string(plan.max_batch) + " frames of M=" +
                     std::to_string(plan.padded) + " is too large for one launch");
}

std::string device_line(int device) {
  cudaDeviceProp prop{};
  if (const cudaError_t err = cudaGetDeviceProperties(&prop, device); err != cudaSuccess)
    return "device " + std::to_string(device) + ": " + cudaGetErrorString(err);
  return "device " + std::to_string(device) + ": " + prop.name + ", compute capability " +
         std::to_string(prop.major) + "." + std::to_string(prop.minor) + ", " +
         format_bytes(static_cast<double>(prop.totalGlobalMem)) + ", " +
         std::to_string(prop.multiProcessorCount) + " multiprocessors";
}

}  // namespace

std::string unusable_reason() {
  int driver = 0;
  if (cudaDriverGetVersion(&driver) != cudaSuccess || driver == 0)
    return "no CUDA device: no NVIDIA driver is installed";
  int count = 0;
  if (const cudaError_t err = cudaGetDeviceCount(&count); err != cudaSuccess) {
    cudaGetLastError();  // leave no sticky state for the next caller
    return std::string("no CUDA device: ") + cudaGetErrorString(err);
  }
  if (count == 0) return "no CUDA device: the driver reports none";
  return {};
}

std::vector<std::string> describe_installation() {
  int driver = 0;
  int runtime = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  std::vector<std::string> lines;
  lines.push_back("CUDA runtime " + cuda_version_text(runtime) + ", driver " +
                  (driver > 0 ? cuda_version_text(driver) : std::string("none")) + ", cuFFT " +
                  cufft_version_text());
  if (const std::string why = unusable_reason(); !why.empty()) {
    lines.push_back(why);
    return lines;
  }
  int count = 0;
  cudaGetDeviceCount(&count);
  for (int d = 0; d < count; ++d) lines.push_back(device_line(d));
  return lines;
}

void select_device(int device) { PSFSIM_CUDA_CHECK(cudaSetDevice(device)); }

std::string open_device(const PsfPlan& plan) {
  validate_shape(plan);
  int count = 0;
  if (const cudaError_t err = cudaGetDeviceCount(&count); err != cudaSuccess) {
    cudaGetLastError();
    throw RuntimeFailure(std::string("no CUDA device: ") + cudaGetErrorString(err));
  }
  if (plan.device < 0 || plan.device >= count)
    throw InputError("--device " + std::to_string(plan.device) + ": " + std::to_string(count) +
                     " CUDA device(s) present, indices 0 to " + std::to_string(count - 1));
  select_device(plan.device);
  cudaDeviceProp prop{};
  PSFSIM_CUDA_CHECK(cudaGetDeviceProperties(&prop, plan.device));
  return prop.name;
}

CurrentDeviceKept::CurrentDeviceKept() noexcept {
  if (cudaGetDevice(&previous_) != cudaSuccess) previous_ = -1;
  (void)cudaGetLastError();
}

CurrentDeviceKept::~CurrentDeviceKept() {
  if (previous_ >= 0) (void)cudaSetDevice(previous_);
}

}  // namespace psfsim::cuda
