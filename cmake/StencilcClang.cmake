# Finds Clang 19 for the C front end (stencilc-cfront), pinned by path like
# LLVM (StencilcLLVM.cmake), and defines STENCILC_BUILD_CFRONT: ON by default
# when Clang 19's CMake config is found.
#
# stencilc-cfront links the shared libclang-cpp and libLLVM; stencilc links
# LLVMSupport statically. The two must never meet in one process (LLVM's
# command-line options would register twice and abort at start-up), so the
# C front end is its own executable and the driver runs it as a child.
include_guard(GLOBAL)

find_package(Clang CONFIG QUIET
             PATHS "${STENCILC_LLVM_ROOT}/lib/cmake/clang" NO_DEFAULT_PATH)
set(_stencilc_have_clang OFF)
if(Clang_FOUND AND TARGET clang-cpp AND TARGET LLVM)
  set(_stencilc_have_clang ON)
endif()
option(STENCILC_BUILD_CFRONT
       "Build stencilc-cfront, the C/C++ loop-nest front end (needs Clang 19: \
clang-19, libclang-19-dev, libclang-cpp19-dev)" ${_stencilc_have_clang})

if(STENCILC_BUILD_CFRONT)
  if(NOT _stencilc_have_clang)
    message(FATAL_ERROR "STENCILC_BUILD_CFRONT=ON but Clang 19 (clang-cpp) was not found "
                        "under ${STENCILC_LLVM_ROOT}/lib/cmake/clang; run scripts/install-deps "
                        "or configure with -DSTENCILC_BUILD_CFRONT=OFF")
  endif()
  # Builtin headers (stddef.h, float.h, ...) for a tool that does not live
  # beside clang itself.
  set(STENCILC_CLANG_RESOURCE_DIR
      "${LLVM_LIBRARY_DIR}/clang/${LLVM_VERSION_MAJOR}"
      CACHE PATH "Clang's resource directory (builtin headers) for stencilc-cfront")
  if(NOT EXISTS "${STENCILC_CLANG_RESOURCE_DIR}/include/stddef.h")
    message(FATAL_ERROR "stencilc-cfront: no Clang builtin headers in "
                        "${STENCILC_CLANG_RESOURCE_DIR}/include (set STENCILC_CLANG_RESOURCE_DIR)")
  endif()
  message(STATUS "stencilc: C front end with Clang from ${Clang_DIR}")

  # Include directories and definitions for the libTooling code only; the
  # shared libraries, never the static LLVMSupport of stencilc_llvm.
  add_library(stencilc_clang INTERFACE)
  target_include_directories(stencilc_clang SYSTEM INTERFACE
                             ${LLVM_INCLUDE_DIRS} ${CLANG_INCLUDE_DIRS})
  separate_arguments(_stencilc_clang_defs NATIVE_COMMAND "${LLVM_DEFINITIONS}")
  target_compile_definitions(stencilc_clang INTERFACE ${_stencilc_clang_defs})
  target_link_libraries(stencilc_clang INTERFACE clang-cpp LLVM)
else()
  message(STATUS "stencilc: C front end (stencilc-cfront) not built")
endif()
