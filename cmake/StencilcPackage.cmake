# StencilcPackage.cmake - install and export stencilc so that another project
# can write find_package(stencilc REQUIRED) and use stencilc::stencilc (the
# compiler), stencilc::runtime and stencilc_add_library(). A build-tree export
# lets a project use this build without installing it.
include_guard(GLOBAL)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(STENCILC_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/stencilc")

install(EXPORT stencilcTargets NAMESPACE stencilc::
        DESTINATION "${STENCILC_INSTALL_CMAKEDIR}")
export(EXPORT stencilcTargets NAMESPACE stencilc::
       FILE "${PROJECT_BINARY_DIR}/stencilcTargets.cmake")

configure_package_config_file(
  "${PROJECT_SOURCE_DIR}/cmake/stencilcConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/stencilcConfig.cmake"
  INSTALL_DESTINATION "${STENCILC_INSTALL_CMAKEDIR}")
write_basic_package_version_file(
  "${PROJECT_BINARY_DIR}/stencilcConfigVersion.cmake"
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)

# StencilcHelpers.cmake as StencilcTargets.cmake wrote it into the build tree,
# where the build-tree package finds it beside its config too.
install(FILES "${PROJECT_BINARY_DIR}/stencilcConfig.cmake"
              "${PROJECT_BINARY_DIR}/stencilcConfigVersion.cmake"
              "${PROJECT_BINARY_DIR}/StencilcHelpers.cmake"
        DESTINATION "${STENCILC_INSTALL_CMAKEDIR}")
