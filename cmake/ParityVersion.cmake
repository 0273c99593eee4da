# parity::version: the generated header <parity/version.h> (parity::kVersion), the project's
# version as `project(Parity VERSION ...)` sets it. A header-only target any library or program
# links to print or record the version; nothing else spells the number.
configure_file(${CMAKE_CURRENT_LIST_DIR}/version.h.in
               ${CMAKE_BINARY_DIR}/generated/include/parity/version.h @ONLY)
add_library(parity_version INTERFACE)
add_library(parity::version ALIAS parity_version)
target_include_directories(parity_version INTERFACE ${CMAKE_BINARY_DIR}/generated/include)
