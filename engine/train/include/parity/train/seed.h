#pragma once
/// Seeding, as Accelerate's set_seed: every generator the process uses gets the same seed.

#include <cstdint>

namespace parity::train {

/// Seeds torch's CPU generator, every CUDA device's generator when present, and Parity's own
/// generators. With device_specific the rank is added (Accelerate's device_specific=True); the
/// shuffle order never uses this seed (it has its own generator seeded with data_seed + epoch).
/// Returns the seed actually used.
int64_t set_seed(int64_t seed, bool device_specific = false, int rank = 0);

}  // namespace parity::train
