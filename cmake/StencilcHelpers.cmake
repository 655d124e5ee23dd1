# StencilcHelpers.cmake - stencilc_add_library(): generate CUDA from .stencil
# files at build time and build it into a library target.
#
#   stencilc_add_library(<target>
#     SOURCES a.stencil [b.stencil | c.c | d.cpp ...]   # C/C++: #pragma stencil nests
#     [ARCH sm_80 [sm_90 ...]]           # GPU architectures (default: sm_80)
#     [BACKEND auto|tensor|simt]         # default: auto
#     [OPTIONS <stencilc flags> ...])    # e.g. -Werror
#
# For every source `a.stencil` stencilc writes `a.cu` and `a.h` into
# <binary dir>/<target>.stencilc/ when the target is built (not at configure
# time); editing a .stencil file, a header a C source includes, or
# rebuilding stencilc regenerates. The
# library links stencilc::runtime and exposes the generated headers, so a
# consumer writes `#include "a.h"`. The oldest ARCH is passed to stencilc as
# --arch (the generated code also runs on the newer ones); all of them become
# the library's CUDA_ARCHITECTURES.
include_guard(GLOBAL)

function(stencilc_add_library target)
  set(flags "")
  set(one_value BACKEND)
  set(multi_value SOURCES ARCH OPTIONS)
  cmake_parse_arguments(PARSE_ARGV 1 arg "${flags}" "${one_value}" "${multi_value}")

  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "stencilc_add_library(${target}): unknown arguments: "
                        "${arg_UNPARSED_ARGUMENTS} (expected SOURCES, ARCH, BACKEND, OPTIONS)")
  endif()
  if(arg_KEYWORDS_MISSING_VALUES)
    message(FATAL_ERROR "stencilc_add_library(${target}): no value given for "
                        "${arg_KEYWORDS_MISSING_VALUES}")
  endif()
  if(NOT arg_SOURCES)
    message(FATAL_ERROR "stencilc_add_library(${target}): SOURCES is required")
  endif()
  if(TARGET ${target})
    message(FATAL_ERROR "stencilc_add_library(${target}): a target of that name already exists")
  endif()
  if(NOT arg_BACKEND)
    set(arg_BACKEND auto)
  endif()
  if(NOT arg_BACKEND MATCHES "^(auto|tensor|simt)$")
    message(FATAL_ERROR "stencilc_add_library(${target}): BACKEND must be auto, tensor "
                        "or simt, not '${arg_BACKEND}'")
  endif()
  if(NOT arg_ARCH)
    set(arg_ARCH sm_80)
  endif()
  set(cuda_architectures "")
  foreach(arch IN LISTS arg_ARCH)
    if(NOT arch MATCHES "^sm_(80|86|89|90)$")
      message(FATAL_ERROR "stencilc_add_library(${target}): ARCH must be sm_80, sm_86, "
                          "sm_89 or sm_90, not '${arch}'")
    endif()
    string(REPLACE "sm_" "" number "${arch}")
    list(APPEND cuda_architectures ${number})
  endforeach()
  # stencilc plans for the oldest architecture asked for: its code also runs
  # on the newer ones (code planned for sm_90 may need sm_90).
  set(oldest "")
  foreach(number IN LISTS cuda_architectures)
    if(oldest STREQUAL "" OR number LESS oldest)
      set(oldest ${number})
    endif()
  endforeach()
  set(stencilc_arch "sm_${oldest}")

  get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(NOT CUDA IN_LIST languages)
    message(FATAL_ERROR "stencilc_add_library(${target}): the generated code is CUDA; "
                        "enable it first, e.g. project(... LANGUAGES CXX CUDA)")
  endif()
  if(NOT TARGET stencilc::stencilc)
    message(FATAL_ERROR "stencilc_add_library(${target}): the stencilc compiler is not "
                        "available (find_package(stencilc) or build it in this tree)")
  endif()
  # Name the real target in DEPENDS so a rebuilt compiler regenerates.
  get_target_property(compiler stencilc::stencilc ALIASED_TARGET)
  if(NOT compiler)
    set(compiler stencilc::stencilc)
  endif()
  # C/C++ sources go through stencilc-cfront: built in this tree, it is a
  # dependency too.
  set(c_front_end "")
  if(TARGET stencilc-cfront)
    set(c_front_end stencilc-cfront)
  endif()

  set(out_dir "${CMAKE_CURRENT_BINARY_DIR}/${target}.stencilc")
  set(generated_sources "")
  set(seen_stems "")
  foreach(source IN LISTS arg_SOURCES)
    cmake_path(ABSOLUTE_PATH source BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}"
               NORMALIZE OUTPUT_VARIABLE source_path)
    if(NOT EXISTS "${source_path}")
      message(FATAL_ERROR "stencilc_add_library(${target}): source '${source}' does not exist")
    endif()
    cmake_path(GET source_path STEM stem)
    cmake_path(GET source_path EXTENSION LAST_ONLY extension)
    set(front_end "")
    if(extension MATCHES "^\\.(c|cc|cpp|cxx)$")
      set(front_end ${c_front_end})
    endif()
    if(stem IN_LIST seen_stems)
      message(FATAL_ERROR "stencilc_add_library(${target}): two sources are named "
                          "'${stem}'; generated files would collide")
    endif()
    list(APPEND seen_stems ${stem})
    set(cu "${out_dir}/${stem}.cu")
    set(header "${out_dir}/${stem}.h")
    # stencilc's depfile names what the source includes (a C file's
    # headers), so editing one of them regenerates too.
    set(depfile "${out_dir}/${stem}.d")
    add_custom_command(
      OUTPUT "${cu}" "${header}"
      COMMAND ${CMAKE_COMMAND} -E make_directory "${out_dir}"
      COMMAND stencilc::stencilc "${source_path}" -o "${cu}" --header "${header}"
              -MD -MF "${depfile}"
              --arch=${stencilc_arch} --backend=${arg_BACKEND} ${arg_OPTIONS}
      DEPENDS "${source_path}" ${compiler} ${front_end}
      DEPFILE "${depfile}"
      COMMENT "stencilc ${source} -> ${target}.stencilc/${stem}.cu"
      VERBATIM)
    list(APPEND generated_sources "${cu}" "${header}")
  endforeach()

  add_library(${target} STATIC ${generated_sources})
  set_target_properties(${target} PROPERTIES
    CUDA_ARCHITECTURES "${cuda_architectures}"
    CUDA_STANDARD 17
    CUDA_STANDARD_REQUIRED ON
    POSITION_INDEPENDENT_CODE ON)
  target_include_directories(${target} PUBLIC "${out_dir}")
  target_link_libraries(${target} PUBLIC stencilc::runtime)
endfunction()
