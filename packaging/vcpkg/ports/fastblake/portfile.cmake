# fastblake from the checkout this port sits in: an overlay port,
#   vcpkg install fastblake --overlay-ports=<checkout>/packaging/vcpkg/ports
# (A registry's port takes the same steps on a release's sources, from vcpkg_from_github.)
get_filename_component(SOURCE_PATH "${CMAKE_CURRENT_LIST_DIR}/../../../.." ABSOLUTE)

vcpkg_check_features(OUT_FEATURE_OPTIONS feature_options FEATURES tools FASTBLAKE_BUILD_TOOLS)

# The library alone, and the tools where asked for; vcpkg's triplet chooses static or shared
# (BUILD_SHARED_LIBS) and the C++ runtime.
vcpkg_cmake_configure(
  SOURCE_PATH "${SOURCE_PATH}"
  OPTIONS
    ${feature_options}
    -DFASTBLAKE_INSTALL=ON
    -DFASTBLAKE_BUILD_TESTS=OFF
    -DFASTBLAKE_BUILD_BENCH=OFF
    -DFASTBLAKE_PYTHON=OFF
    -DFASTBLAKE_MPI=OFF
    -DFASTBLAKE_CUDA=OFF
)
vcpkg_cmake_install()
vcpkg_cmake_config_fixup(CONFIG_PATH lib/cmake/fastblake)
vcpkg_fixup_pkgconfig()

if("tools" IN_LIST FEATURES)
  vcpkg_copy_tools(TOOL_NAMES b3sum b2sum bao AUTO_CLEAN)
endif()

file(REMOVE_RECURSE "${CURRENT_PACKAGES_DIR}/debug/include" "${CURRENT_PACKAGES_DIR}/debug/share")
file(INSTALL "${CMAKE_CURRENT_LIST_DIR}/usage" DESTINATION "${CURRENT_PACKAGES_DIR}/share/${PORT}")
vcpkg_install_copyright(FILE_LIST "${SOURCE_PATH}/LICENSE")
