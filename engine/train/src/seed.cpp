#include <parity/train/seed.h>
#include <torch/torch.h>

namespace parity::train {

int64_t set_seed(int64_t seed, bool device_specific, int rank) {
  const int64_t s = device_specific ? seed + rank : seed;
  // torch::manual_seed seeds the CPU generator and, when CUDA is present, every device's.
  torch::manual_seed(static_cast<uint64_t>(s));
  return s;
}

}  // namespace parity::train
