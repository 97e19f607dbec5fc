#!/bin/sh
# The Windows build's emulator: Wine (Debian's wine64) in a prefix of its own, made once under a
# lock (two tests starting together would otherwise both make it), quiet, with the program's
# exit status. FASTBLAKE_WINEPREFIX moves the prefix (default: ~/.cache/fastblake-wine).
# Usage: wine-run.sh PROGRAM [ARG...]
#        wine-run.sh --make-prefix   (the prefix alone, made if missing: scripts/test, ahead)
wine=/usr/lib/wine/wine64
[ -x "$wine" ] || wine=wine64
export WINEPREFIX="${FASTBLAKE_WINEPREFIX:-${XDG_CACHE_HOME:-$HOME/.cache}/fastblake-wine}"
export WINEDEBUG="${WINEDEBUG:--all}"
export WINEDLLOVERRIDES="${WINEDLLOVERRIDES:-mscoree,mshtml=}"
# A server that outlives each program: starting one takes Wine seconds, a program under a running
# one a few hundredths.
server=$(dirname "$wine")/wineserver
[ -x "$server" ] || server=wineserver
if [ ! -e "$WINEPREFIX/system.reg" ]; then
  mkdir -p "$(dirname "$WINEPREFIX")"
  (
    flock 9
    if [ ! -e "$WINEPREFIX/system.reg" ]; then
      # Made by wineboot, whose server is then waited out (5 s): under that server, each later
      # program started wineboot and Wine's services again (0.3 s a start, not 0.03, the
      # services left running) until it ended, a minute or more later, and CI's Windows suites
      # took minutes more.
      "$wine" wineboot --init </dev/null >/dev/null 2>&1 9>&-
      "$server" -w </dev/null >/dev/null 2>&1 9>&-
    fi
  ) 9>"$WINEPREFIX.lock"
fi
[ "$1" != --make-prefix ] || exit 0
# Nothing of Wine's own may hold the caller's pipes: CTest, reading a test's output, waits for
# every holder to close them. So the server starts with its output going nowhere, and so do the
# services Wine starts with a new server (winedevice, plugplay...), which inherit the standard
# handles of its first program: a program that does nothing, whose handles are /dev/null's. Only
# for a new server (wineserver -p says 2 where one runs already: that program costs 0.1 s), and
# under the lock, so that no other program is a new server's first.
# (Nothing started here keeps the lock's descriptor: a server holding it would hold the lock.)
(
  flock 9
  if "$server" -p60 </dev/null >/dev/null 2>&1 9>&-; then
    "$wine" cmd /c exit </dev/null >/dev/null 2>&1 9>&-
  fi
) 9>"$WINEPREFIX.lock"
exec "$wine" "$@"
