#include "cli/backend.hpp"

#include <cstdio>

#if COULOMB_HAVE_CUDA
#include "cuda/cuda_linear_solver.hpp"
#endif

namespace coulomb {

Backend detect_backend() {
  Backend out{nullptr, "cpu", {}};
#if COULOMB_HAVE_CUDA
  out.device = sim::cuda::make_cuda_linear_solver(out.why_not);
#else
  out.why_not = "this build has no CUDA (nvcc was not found when it was configured)";
#endif
  if (out.device)
    out.description = out.device->description() + ", PCR solves of " + std::to_string(out.device->min_rows()) +
                      "+ rows on the device";
  return out;
}

bool choose_backend(const Args& args, const char* command, Backend& out) {
  const std::string value = args.value("backend").value_or("auto");
  if (value != "cpu" && value != "cuda" && value != "auto") {
    std::fprintf(stderr, "coulomb %s: --backend: expected cpu, cuda or auto, got '%s'\n", command, value.c_str());
    return false;
  }
  out = value == "cpu" ? Backend{nullptr, "cpu", "--backend cpu"} : detect_backend();
  if (!out.device && value == "cuda")
    std::fprintf(stderr, "coulomb %s: --backend cuda: %s; running on the CPU\n", command, out.why_not.c_str());
  return true;
}

}  // namespace coulomb
