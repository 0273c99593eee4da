# Finds LibTorch two ways and exposes one imported target, parity::torch.
#  1. An official or CUDA LibTorch through find_package(Torch) (TorchConfig.cmake on CMAKE_PREFIX_PATH).
#  2. Debian's libtorch-dev, which ships no TorchConfig.cmake: headers in /usr/include and
#     /usr/include/torch/csrc/api/include, libraries torch, torch_cpu, c10; c10d's Gloo backend is
#     compiled in and its headers need USE_C10D_GLOO (and libgloo-dev).
# Sets PARITY_WITH_CUDA when the LibTorch found has CUDA (then NCCL through ProcessGroupNCCL).

set(PARITY_WITH_CUDA OFF)
find_package(Torch QUIET CONFIG)
if(Torch_FOUND)
  message(STATUS "LibTorch: TorchConfig.cmake at ${Torch_DIR}")
  add_library(parity_torch INTERFACE)
  target_link_libraries(parity_torch INTERFACE ${TORCH_LIBRARIES})
  target_include_directories(parity_torch SYSTEM INTERFACE ${TORCH_INCLUDE_DIRS})
  target_compile_definitions(parity_torch INTERFACE USE_C10D_GLOO USE_DISTRIBUTED USE_RPC)
  if(TARGET torch_cuda OR CUDA_FOUND OR TORCH_CUDA_LIBRARIES)
    set(PARITY_WITH_CUDA ON)
  endif()
else()
  find_path(PARITY_TORCH_INCLUDE torch/torch.h PATHS /usr/include/torch/csrc/api/include)
  find_path(PARITY_TORCH_CORE_INCLUDE torch/csrc/distributed/c10d/ProcessGroupGloo.hpp
            PATHS /usr/include)
  find_library(PARITY_TORCH_LIB torch)
  find_library(PARITY_TORCH_CPU_LIB torch_cpu)
  find_library(PARITY_C10_LIB c10)
  find_library(PARITY_GLOO_LIB gloo)
  find_library(PARITY_TORCH_CUDA_LIB torch_cuda)
  if(NOT PARITY_TORCH_INCLUDE OR NOT PARITY_TORCH_CORE_INCLUDE OR NOT PARITY_TORCH_CPU_LIB
     OR NOT PARITY_C10_LIB)
    message(FATAL_ERROR "LibTorch not found. Run scripts/install-deps.sh (Debian: libtorch-dev "
                        "libgloo-dev) or put an official LibTorch on CMAKE_PREFIX_PATH.")
  endif()
  message(STATUS "LibTorch: Debian layout (${PARITY_TORCH_CPU_LIB})")
  add_library(parity_torch INTERFACE)
  target_include_directories(parity_torch SYSTEM INTERFACE ${PARITY_TORCH_INCLUDE}
                                                           ${PARITY_TORCH_CORE_INCLUDE})
  target_link_libraries(parity_torch INTERFACE ${PARITY_TORCH_CPU_LIB} ${PARITY_C10_LIB}
                                               Threads::Threads)
  if(PARITY_TORCH_LIB)
    target_link_libraries(parity_torch INTERFACE ${PARITY_TORCH_LIB})
  endif()
  if(PARITY_GLOO_LIB)
    target_link_libraries(parity_torch INTERFACE ${PARITY_GLOO_LIB})
  endif()
  if(PARITY_TORCH_CUDA_LIB)
    target_link_libraries(parity_torch INTERFACE ${PARITY_TORCH_CUDA_LIB})
    set(PARITY_WITH_CUDA ON)
  endif()
  target_compile_definitions(parity_torch INTERFACE USE_C10D_GLOO USE_DISTRIBUTED)
endif()
if(PARITY_WITH_CUDA)
  target_compile_definitions(parity_torch INTERFACE PARITY_WITH_CUDA USE_C10D_NCCL)
endif()
add_library(parity::torch ALIAS parity_torch)
message(STATUS "Parity CUDA/NCCL support: ${PARITY_WITH_CUDA}")
