#pragma once
/// How a rank process allocates: glibc's malloc serves a request over its mmap threshold (128 KiB
/// until a larger mapped block is freed) with a fresh mapping, returned to the kernel when freed.
/// A convolution's buffers (im2col, its gradients: megabytes per step) then cost page faults on
/// every step: the CNN at 2x32 spent a third of its time in the kernel and ran 4x slower once
/// the whole dataset was no longer converted to float at start (a 188 MB temporary whose free
/// had raised the threshold by chance). Torch-free.

namespace parity::train {

/// Serves buffers up to 64 MiB from the heap and keeps up to 128 MiB of freed heap before
/// trimming, so a step's buffers are reused by the next step. Call once, first thing in a rank
/// process; returns false where the C library refused (the defaults then stay).
bool keep_step_buffers_in_heap();

}  // namespace parity::train
