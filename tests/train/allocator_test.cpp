// The rank process's allocator settings (parity/train/allocator.h): a step's buffers come from the
// heap, not from a fresh mapping each (page faults on every step).
#include <gtest/gtest.h>
#include <malloc.h>
#include <parity/train/allocator.h>

#include <cstdlib>
#include <cstring>

namespace parity::train {
namespace {

TEST(Allocator, AStepsBuffersComeFromTheHeapAndAHugeOneIsStillMapped) {
  ASSERT_TRUE(keep_step_buffers_in_heap());
  const size_t mapped_before = mallinfo2().hblks;
  // An im2col buffer of the CNN at batch 32 is ~14 MB: by default (128 KiB) a mapping of its own.
  void* step_buffer = std::malloc(size_t{16} << 20);
  ASSERT_NE(step_buffer, nullptr);
  std::memset(step_buffer, 1, size_t{16} << 20);
  EXPECT_EQ(mallinfo2().hblks, mapped_before)
      << "a 16 MB buffer was mapped, not taken from the heap";
  std::free(step_buffer);
  // Past 64 MiB a block is still mapped, and given back to the kernel when freed.
  void* huge = std::malloc(size_t{96} << 20);
  ASSERT_NE(huge, nullptr);
  EXPECT_EQ(mallinfo2().hblks, mapped_before + 1);
  std::free(huge);
  EXPECT_EQ(mallinfo2().hblks, mapped_before);
}

}  // namespace
}  // namespace parity::train
