# Flags for gpuprims' own tests, benchmarks and examples (never forced on consumers).

# Host code: -Wall -Wextra. Device code: every nvcc warning an error, so the library's headers stay
# warning-free for users who build with -Werror.
function(gpuprims_set_warnings target)
  set(host_flags -Wall -Wextra)
  if(GPUPRIMS_WARNINGS_AS_ERRORS)
    list(APPEND host_flags -Werror)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-Werror=all-warnings>)
  endif()
  list(JOIN host_flags "," host_flags_csv)
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:${host_flags}>
                                           $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=${host_flags_csv}>)
endfunction()

# A CUDA executable of the project: C++17, the library, the warning flags.
function(gpuprims_add_executable target)
  add_executable(${target} ${ARGN})
  target_link_libraries(${target} PRIVATE gpuprims::gpuprims)
  target_compile_features(${target} PRIVATE cxx_std_17 cuda_std_17)
  set_target_properties(${target} PROPERTIES CUDA_EXTENSIONS OFF CXX_EXTENSIONS OFF)
  gpuprims_set_warnings(${target})
endfunction()
