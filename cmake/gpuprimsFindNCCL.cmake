# Finds NCCL for the optional multi-GPU target and defines the imported target gpuprims::nccl when
# it is found. Looked for under NCCL_ROOT (CMake or environment variable), next to the CUDA
# Toolkit, in the system paths, and in pip's nvidia-nccl-cu* wheel (nvidia/nccl/{include,lib} of
# the Python found on PATH). Used by gpuprims' own CMakeLists and by its installed package
# (find_package(gpuprims COMPONENTS multi)).
if(TARGET gpuprims::nccl)
  return()
endif()

find_package(CUDAToolkit QUIET)
set(_gpuprims_nccl_hints ${NCCL_ROOT} $ENV{NCCL_ROOT})
if(CUDAToolkit_FOUND)
  list(APPEND _gpuprims_nccl_hints ${CUDAToolkit_LIBRARY_ROOT} ${CUDAToolkit_TARGET_DIR})
endif()
find_program(_gpuprims_python NAMES python3 python)
if(_gpuprims_python)
  execute_process(COMMAND ${_gpuprims_python} -c
                          "import nvidia.nccl, os; print(os.path.dirname(list(nvidia.nccl.__path__)[0] + '/'))"
                  OUTPUT_VARIABLE _gpuprims_nccl_wheel OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET
                  RESULT_VARIABLE _gpuprims_nccl_wheel_status)
  if(_gpuprims_nccl_wheel_status EQUAL 0 AND _gpuprims_nccl_wheel)
    list(APPEND _gpuprims_nccl_hints ${_gpuprims_nccl_wheel})
  endif()
endif()

find_path(GPUPRIMS_NCCL_INCLUDE_DIR nccl.h HINTS ${_gpuprims_nccl_hints} PATH_SUFFIXES include)
find_library(GPUPRIMS_NCCL_LIBRARY NAMES nccl libnccl.so.2 HINTS ${_gpuprims_nccl_hints}
             PATH_SUFFIXES lib lib64 lib/x86_64-linux-gnu)
if(GPUPRIMS_NCCL_INCLUDE_DIR AND GPUPRIMS_NCCL_LIBRARY)
  add_library(gpuprims::nccl UNKNOWN IMPORTED GLOBAL)
  set_target_properties(gpuprims::nccl PROPERTIES IMPORTED_LOCATION ${GPUPRIMS_NCCL_LIBRARY}
                                                  INTERFACE_INCLUDE_DIRECTORIES ${GPUPRIMS_NCCL_INCLUDE_DIR})
  if(CUDAToolkit_FOUND)
    set_property(TARGET gpuprims::nccl APPEND PROPERTY INTERFACE_LINK_LIBRARIES CUDA::cudart)
  endif()
endif()
