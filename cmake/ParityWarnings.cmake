# parity_warnings(target...): -Wall -Wextra on Parity's own targets, target by target (never
# through CMAKE_CXX_FLAGS, so third-party code built with us is left alone). Dependencies' headers
# come in as SYSTEM includes (imported targets, and parity::torch says so itself), so only warnings
# in our own code show.
function(parity_warnings)
  foreach(target IN LISTS ARGN)
    target_compile_options(${target} PRIVATE $<$<CXX_COMPILER_ID:GNU,Clang>:-Wall -Wextra>)
  endforeach()
endfunction()
