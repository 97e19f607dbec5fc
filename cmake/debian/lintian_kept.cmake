# The lintian warnings the Debian packages keep, each with its reason (read by
# tests/packaging/check_deb.cmake, which fails on any other warning and on every error):
# - maintainer-script-empty: the library packages' postinst and postrm do nothing, since
#   ldconfig runs through its dpkg trigger (cmake/debian/triggers); without them CPack writes
#   scripts that call ldconfig (maintscript-calls-ldconfig) for any package with a library
#   under /usr/lib.
set(FASTBLAKE_LINTIAN_KEPT_WARNINGS maintainer-script-empty)
