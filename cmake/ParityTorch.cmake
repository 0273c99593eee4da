# Finds LibTorch three ways and exposes one imported target, parity::torch.
#  1. -DPARITY_TORCH_DIR=<a pip PyTorch's torch/ folder> (lib/ and include/ inside): linked
#     directly, without find_package(Torch). A pip PyTorch's TorchConfig.cmake needs the CUDA
#     toolkit (its Caffe2 config runs find_package(CUDAToolkit) and stops with a FATAL_ERROR
#     without it); this path needs only the headers and the .so files the wheel ships.
#  2. An official or CUDA LibTorch through find_package(Torch) (TorchConfig.cmake on
#     CMAKE_PREFIX_PATH).
#  3. Debian's libtorch-dev, which ships no TorchConfig.cmake: headers in /usr/include and
#     /usr/include/torch/csrc/api/include, libraries torch, torch_cpu, c10; c10d's Gloo backend is
#     compiled in and its headers need USE_C10D_GLOO (and libgloo-dev).
# Sets PARITY_WITH_CUDA when the LibTorch found has CUDA, and PARITY_WITH_NCCL when NCCL
# (ProcessGroupNCCL) is compiled in too.
#
# Options for a LibTorch whose headers are incomplete (a pip wheel ships no gloo/ headers and no
# CUDA toolkit headers; scripts/device/gpu_build.sh finds what is there):
#  PARITY_EXTRA_INCLUDE_DIRS  searched after LibTorch's own include folders (gloo/, CUDA, NCCL)
#  PARITY_CUDA_LIBRARY_DIRS   where libcudart/libnccl are (pip: site-packages/nvidia/*/lib)
#  PARITY_GLOO=OFF            no c10d Gloo: W > 1 on the CPU is refused at run time
#  PARITY_NCCL=OFF            no ProcessGroupNCCL: W > 1 on CUDA is refused at run time
#  PARITY_TORCH_CXX11_ABI=0|1 -D_GLIBCXX_USE_CXX11_ABI for every target (must match LibTorch's)
#  PARITY_TORCH_CXX_STANDARD  C++ standard of what links parity::torch (default: 20 from 2.12 on)

set(PARITY_TORCH_DIR "" CACHE PATH
    "A pip PyTorch's torch/ folder: link its lib/ and include/ without find_package(Torch)")
set(PARITY_EXTRA_INCLUDE_DIRS "" CACHE STRING
    "Include folders searched after LibTorch's (gloo, CUDA and NCCL headers a wheel lacks)")
set(PARITY_CUDA_LIBRARY_DIRS "" CACHE STRING "Folders holding libcudart and libnccl")
option(PARITY_GLOO "Compile in c10d's Gloo process group (W > 1 on the CPU)" ON)
option(PARITY_NCCL "Compile in c10d's NCCL process group when LibTorch has CUDA (W > 1 on CUDA)" ON)
set(PARITY_TORCH_CXX11_ABI "" CACHE STRING "0 or 1: _GLIBCXX_USE_CXX11_ABI of the LibTorch used")
set(PARITY_TORCH_CXX_STANDARD "" CACHE STRING
    "C++ standard of the targets using LibTorch (empty: 17, or 20 for LibTorch >= 2.12)")

if(NOT PARITY_TORCH_CXX11_ABI STREQUAL "")
  add_compile_definitions(_GLIBCXX_USE_CXX11_ABI=${PARITY_TORCH_CXX11_ABI})
endif()

set(PARITY_WITH_CUDA OFF)
add_library(parity_torch INTERFACE)
if(PARITY_TORCH_DIR)
  find_path(PARITY_TORCH_INCLUDE torch/torch.h
            PATHS ${PARITY_TORCH_DIR}/include/torch/csrc/api/include NO_DEFAULT_PATH)
  find_library(PARITY_TORCH_LIB torch PATHS ${PARITY_TORCH_DIR}/lib NO_DEFAULT_PATH)
  find_library(PARITY_TORCH_CPU_LIB torch_cpu PATHS ${PARITY_TORCH_DIR}/lib NO_DEFAULT_PATH)
  find_library(PARITY_C10_LIB c10 PATHS ${PARITY_TORCH_DIR}/lib NO_DEFAULT_PATH)
  find_library(PARITY_TORCH_CUDA_LIB torch_cuda PATHS ${PARITY_TORCH_DIR}/lib NO_DEFAULT_PATH)
  find_library(PARITY_C10_CUDA_LIB c10_cuda PATHS ${PARITY_TORCH_DIR}/lib NO_DEFAULT_PATH)
  if(NOT PARITY_TORCH_INCLUDE OR NOT PARITY_TORCH_CPU_LIB OR NOT PARITY_C10_LIB)
    message(FATAL_ERROR "PARITY_TORCH_DIR=${PARITY_TORCH_DIR} has no include/torch/csrc/api/"
                        "include/torch/torch.h or no lib/libtorch_cpu.so and lib/libc10.so")
  endif()
  message(STATUS "LibTorch: linked directly from ${PARITY_TORCH_DIR}")
  target_include_directories(parity_torch SYSTEM INTERFACE ${PARITY_TORCH_DIR}/include
                                                           ${PARITY_TORCH_INCLUDE})
  target_link_libraries(parity_torch INTERFACE ${PARITY_TORCH_CPU_LIB} ${PARITY_C10_LIB}
                                               Threads::Threads)
  if(PARITY_TORCH_LIB)
    target_link_libraries(parity_torch INTERFACE ${PARITY_TORCH_LIB})
  endif()
  if(PARITY_TORCH_CUDA_LIB)
    # libtorch_cuda registers the CUDA kernels from static initialisers and no symbol of it is
    # referenced: a linker that defaults to --as-needed (Ubuntu's) would drop it.
    target_link_options(parity_torch INTERFACE "LINKER:--no-as-needed")
    target_link_libraries(parity_torch INTERFACE ${PARITY_TORCH_CUDA_LIB})
    if(PARITY_C10_CUDA_LIB)
      target_link_libraries(parity_torch INTERFACE ${PARITY_C10_CUDA_LIB})
    endif()
    set(PARITY_WITH_CUDA ON)
  endif()
  target_compile_definitions(parity_torch INTERFACE USE_DISTRIBUTED)
else()
  find_package(Torch QUIET CONFIG)
  if(Torch_FOUND)
    message(STATUS "LibTorch: TorchConfig.cmake at ${Torch_DIR}")
    target_link_libraries(parity_torch INTERFACE ${TORCH_LIBRARIES})
    target_include_directories(parity_torch INTERFACE ${TORCH_INCLUDE_DIRS})
    target_compile_definitions(parity_torch INTERFACE USE_DISTRIBUTED USE_RPC)
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
                          "libgloo-dev), put an official LibTorch on CMAKE_PREFIX_PATH, or pass "
                          "-DPARITY_TORCH_DIR=<site-packages>/torch for a pip PyTorch.")
    endif()
    message(STATUS "LibTorch: Debian layout (${PARITY_TORCH_CPU_LIB})")
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
    target_compile_definitions(parity_torch INTERFACE USE_DISTRIBUTED)
  endif()
endif()

# The LibTorch version, from torch/version.h (TorchConfig.cmake LibTorchs and wheels alike).
set(PARITY_TORCH_VERSION "")
foreach(dir ${PARITY_TORCH_INCLUDE} ${TORCH_INCLUDE_DIRS})
  if(NOT PARITY_TORCH_VERSION AND EXISTS "${dir}/torch/version.h")
    file(STRINGS "${dir}/torch/version.h" _parity_v REGEX "define TORCH_VERSION_(MAJOR|MINOR) ")
    string(REGEX REPLACE ".*MAJOR ([0-9]+).*" "\\1" _parity_major "${_parity_v}")
    string(REGEX REPLACE ".*MINOR ([0-9]+).*" "\\1" _parity_minor "${_parity_v}")
    set(PARITY_TORCH_VERSION "${_parity_major}.${_parity_minor}")
  endif()
endforeach()
if(PARITY_TORCH_VERSION)
  message(STATUS "LibTorch version ${PARITY_TORCH_VERSION}")
endif()
# LibTorch 2.12 and later stop with "#error C++20 or later compatible compiler is required": what
# includes LibTorch is compiled as C++20 then, the rest of Parity stays C++17.
if(NOT PARITY_TORCH_CXX_STANDARD AND PARITY_TORCH_VERSION VERSION_GREATER_EQUAL 2.12)
  set(PARITY_TORCH_CXX_STANDARD 20)
endif()
if(PARITY_TORCH_CXX_STANDARD)
  message(STATUS "Targets using LibTorch: C++${PARITY_TORCH_CXX_STANDARD}")
  target_compile_features(parity_torch INTERFACE cxx_std_${PARITY_TORCH_CXX_STANDARD})
endif()

if(PARITY_EXTRA_INCLUDE_DIRS)
  target_include_directories(parity_torch SYSTEM AFTER INTERFACE ${PARITY_EXTRA_INCLUDE_DIRS})
endif()
if(PARITY_GLOO)
  target_compile_definitions(parity_torch INTERFACE USE_C10D_GLOO)
else()
  target_compile_definitions(parity_torch INTERFACE PARITY_NO_GLOO)
endif()
set(PARITY_WITH_NCCL OFF)
if(PARITY_WITH_CUDA)
  target_compile_definitions(parity_torch INTERFACE PARITY_WITH_CUDA)
  if(PARITY_NCCL)
    set(PARITY_WITH_NCCL ON)
    target_compile_definitions(parity_torch INTERFACE PARITY_WITH_NCCL USE_C10D_NCCL)
    if(PARITY_CUDA_LIBRARY_DIRS)
      # ProcessGroupNCCL.hpp's inline code calls the CUDA runtime and NCCL directly; a
      # TorchConfig.cmake LibTorch brings them itself, a wheel's are in the given folders.
      find_library(PARITY_CUDART_LIB NAMES cudart libcudart.so.13 libcudart.so.12 NAMES_PER_DIR
                   PATHS ${PARITY_CUDA_LIBRARY_DIRS} NO_DEFAULT_PATH)
      find_library(PARITY_NCCL_LIB NAMES nccl libnccl.so.2 NAMES_PER_DIR
                   PATHS ${PARITY_CUDA_LIBRARY_DIRS} NO_DEFAULT_PATH)
      foreach(lib PARITY_CUDART_LIB PARITY_NCCL_LIB)
        if(${lib})
          target_link_libraries(parity_torch INTERFACE ${${lib}})
        endif()
      endforeach()
    endif()
  endif()
endif()
foreach(dir ${PARITY_CUDA_LIBRARY_DIRS})
  # The wheel's libraries find their CUDA libraries through $ORIGIN rpaths; the linker checking
  # them is told where those are.
  target_link_options(parity_torch INTERFACE "LINKER:-rpath-link,${dir}")
endforeach()
add_library(parity::torch ALIAS parity_torch)
message(STATUS "Parity CUDA support: ${PARITY_WITH_CUDA}, NCCL: ${PARITY_WITH_NCCL}, "
               "Gloo: ${PARITY_GLOO}")
