# Calls stencilc_add_library() from the helpers -DHELPERS names, with the
# architectures -DARCH lists, in script mode: far enough to pass or fail its
# ARCH check (past it, script mode has no CUDA language and stops there).
cmake_minimum_required(VERSION 3.20)
include("${HELPERS}")
stencilc_add_library(lib SOURCES none.stencil ARCH ${ARCH})
