# StencilcTargets.cmake - the GPU architectures stencilc plans for, read from
# the compiler's own table (compiler/include/stencilc/Targets.def: the
# --arch names), and written into StencilcHelpers.cmake, which checks
# stencilc_add_library(ARCH) against them: the list is kept once, in the
# table. Sets STENCILC_ARCHITECTURES (sm_80;sm_86;...), writes
# <build>/StencilcHelpers.cmake (the file this tree includes, the build-tree
# package finds and the install copies) and reconfigures when the table changes.
include_guard(GLOBAL)

set(_stencilc_targets_def "${PROJECT_SOURCE_DIR}/compiler/include/stencilc/Targets.def")
set_property(DIRECTORY "${PROJECT_SOURCE_DIR}" APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
             "${_stencilc_targets_def}")
file(STRINGS "${_stencilc_targets_def}" _stencilc_target_lines REGEX "^STENCILC_TARGET\\(")
set(STENCILC_ARCHITECTURES "")
foreach(line IN LISTS _stencilc_target_lines)
  if(NOT line MATCHES "^STENCILC_TARGET\\([A-Za-z0-9_]+, \"(sm_[0-9]+a?)\",")
    message(FATAL_ERROR "Targets.def: cannot read the name of '${line}'")
  endif()
  list(APPEND STENCILC_ARCHITECTURES "${CMAKE_MATCH_1}")
endforeach()
if(NOT STENCILC_ARCHITECTURES)
  message(FATAL_ERROR "Targets.def: no STENCILC_TARGET entries")
endif()

# "sm_80, sm_86, sm_89 or sm_90", as stencilc --arch says it.
list(POP_BACK STENCILC_ARCHITECTURES _stencilc_last)
list(JOIN STENCILC_ARCHITECTURES ", " STENCILC_ARCHITECTURES_TEXT)
if(STENCILC_ARCHITECTURES)
  string(APPEND STENCILC_ARCHITECTURES_TEXT " or ")
endif()
string(APPEND STENCILC_ARCHITECTURES_TEXT "${_stencilc_last}")
list(APPEND STENCILC_ARCHITECTURES "${_stencilc_last}")

configure_file("${PROJECT_SOURCE_DIR}/cmake/StencilcHelpers.cmake.in"
               "${PROJECT_BINARY_DIR}/StencilcHelpers.cmake" @ONLY)
