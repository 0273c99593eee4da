// Precompiled header of parity_train: LibTorch's umbrella headers are most of the ~25 s a
// translation unit takes; compiling them once is what keeps the build short on 2 cores.
#pragma once
#include <torch/torch.h>

#include <torch/csrc/distributed/c10d/ProcessGroup.hpp>
#include <torch/csrc/distributed/c10d/Store.hpp>
