# StencilcPython.cmake - stencilc_add_python_module(): a Python extension
# module holding stencils compiled ahead of time (docs/python.md).
#
#   stencilc_add_python_module(TARGET <name> STENCILS a.stencil [b.stencil ...]
#     [ARCH sm_90]                        # default: sm_80
#     [BACKEND auto|tensor|simt]          # default: auto
#     [OPTIONS <stencilc flags> ...])     # e.g. --plan-option=fuse=4
#
# At build time the stencilc Python package (importable by
# Python_EXECUTABLE) runs its bundled stencilc on the sources and writes
# the module's sources into <binary dir>/<name>.stencilc/; the module is
# built with nanobind's nanobind_add_module() and CUDA's runtime, linked
# statically. `import <name>` then needs no compiler: `<name>.heat2d.step`
# and the rest are there as stencilc.compile() would give them. The
# project must enable CUDA and find Python (Interpreter,
# Development.Module) and nanobind before calling it.
include_guard(GLOBAL)

function(stencilc_add_python_module)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "TARGET;ARCH;BACKEND" "STENCILS;OPTIONS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "stencilc_add_python_module: unknown arguments: "
                        "${arg_UNPARSED_ARGUMENTS} (expected TARGET, STENCILS, ARCH, BACKEND, "
                        "OPTIONS)")
  endif()
  if(NOT arg_TARGET OR NOT arg_STENCILS)
    message(FATAL_ERROR "stencilc_add_python_module: TARGET and STENCILS are required")
  endif()
  if(NOT arg_ARCH)
    set(arg_ARCH sm_80)
  endif()
  if(NOT arg_ARCH MATCHES "^sm_([0-9]+a?)$")
    message(FATAL_ERROR "stencilc_add_python_module(${arg_TARGET}): ARCH must look like "
                        "sm_90, not '${arg_ARCH}'")
  endif()
  set(cuda_architecture ${CMAKE_MATCH_1})
  if(NOT arg_BACKEND)
    set(arg_BACKEND auto)
  endif()
  if(NOT COMMAND nanobind_add_module OR NOT Python_EXECUTABLE)
    message(FATAL_ERROR "stencilc_add_python_module(${arg_TARGET}): find Python "
                        "(Interpreter, Development.Module) and nanobind first")
  endif()
  execute_process(
    COMMAND "${Python_EXECUTABLE}" -c
            "import os, stencilc; print(os.path.join(os.path.dirname(stencilc.__file__), 'include'))"
    OUTPUT_VARIABLE include_dir OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE failed)
  if(failed)
    message(FATAL_ERROR "stencilc_add_python_module(${arg_TARGET}): ${Python_EXECUTABLE} "
                        "cannot import stencilc: pip install the package (python/) first")
  endif()
  find_package(CUDAToolkit REQUIRED)

  set(dir "${CMAKE_CURRENT_BINARY_DIR}/${arg_TARGET}.stencilc")
  set(outputs "${dir}/${arg_TARGET}_module.cpp")
  set(sources "")
  foreach(stencil IN LISTS arg_STENCILS)
    get_filename_component(path "${stencil}" ABSOLUTE)
    get_filename_component(base "${stencil}" NAME_WE)
    list(APPEND sources "${path}")
    list(APPEND outputs "${dir}/${base}.cu" "${dir}/${base}.h")
  endforeach()
  set(option_args "")
  foreach(option IN LISTS arg_OPTIONS)
    list(APPEND option_args "--option=${option}")
  endforeach()
  add_custom_command(
    OUTPUT ${outputs}
    COMMAND "${Python_EXECUTABLE}" -m stencilc._aot --name ${arg_TARGET} --out "${dir}"
            --arch ${arg_ARCH} --backend ${arg_BACKEND} ${option_args} ${sources}
    DEPENDS ${sources}
    COMMENT "stencilc: generating the stencils of Python module ${arg_TARGET}"
    VERBATIM)
  list(FILTER outputs EXCLUDE REGEX "\\.h$")
  nanobind_add_module(${arg_TARGET} NB_STATIC ${outputs})
  target_include_directories(${arg_TARGET} PRIVATE "${dir}" "${include_dir}")
  target_link_libraries(${arg_TARGET} PRIVATE CUDA::cudart_static)
  set_target_properties(${arg_TARGET} PROPERTIES CUDA_ARCHITECTURES ${cuda_architecture}
                                                 CUDA_STANDARD 17 CUDA_STANDARD_REQUIRED ON)
endfunction()
