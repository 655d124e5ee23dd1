# Finds LLVM 19 (and, for the C front end, Clang 19) pinned by path: Debian can
# carry several LLVMs side by side and an unpinned search takes the first it meets.
set(STENCILC_LLVM_ROOT "/usr/lib/llvm-19" CACHE PATH "Root of the LLVM 19 installation")

find_package(LLVM REQUIRED CONFIG
             PATHS "${STENCILC_LLVM_ROOT}/lib/cmake/llvm" NO_DEFAULT_PATH)
if(NOT LLVM_VERSION_MAJOR EQUAL 19)
  message(FATAL_ERROR "stencilc needs LLVM 19, found ${LLVM_PACKAGE_VERSION} in ${LLVM_DIR}")
endif()
message(STATUS "stencilc: LLVM ${LLVM_PACKAGE_VERSION} from ${LLVM_DIR}")

# Debian's imported targets carry no include directories or definitions.
add_library(stencilc_llvm INTERFACE)
target_include_directories(stencilc_llvm SYSTEM INTERFACE ${LLVM_INCLUDE_DIRS})
separate_arguments(_stencilc_llvm_defs NATIVE_COMMAND "${LLVM_DEFINITIONS}")
target_compile_definitions(stencilc_llvm INTERFACE ${_stencilc_llvm_defs})
# LLVMSupport statically: stencilc starts fast (no 100 MB libLLVM.so to load)
# and runs on machines without LLVM installed, such as the GPU machine.
target_link_libraries(stencilc_llvm INTERFACE LLVMSupport)

set(STENCILC_LLVM_TOOLS_DIR "${STENCILC_LLVM_ROOT}/bin")
set(STENCILC_LIT "${STENCILC_LLVM_ROOT}/build/utils/lit/lit.py")
