#include <malloc.h>
#include <parity/train/allocator.h>

namespace parity::train {

bool keep_step_buffers_in_heap() {
  // Setting either turns off glibc's dynamic threshold, which would otherwise follow the largest
  // mapped block freed so far: what a run gets then depends on what it happened to free first.
  const bool mmap_set = mallopt(M_MMAP_THRESHOLD, 64 << 20) == 1;
  const bool trim_set = mallopt(M_TRIM_THRESHOLD, 128 << 20) == 1;
  return mmap_set && trim_set;
}

}  // namespace parity::train
