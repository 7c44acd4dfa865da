# The fastchess the benchmarks measure Knightly beside (sourced by scripts/bench-runner,
# bench-demo and bench-workers; docs/performance.md). fastchess is built from a source tree the
# user names in FASTCHESS_SRC, once per source: the cache is BUILD_DIR/fastchess/KEY, where KEY
# is the tree's commit when it is a clean git checkout, and a hash of its files otherwise
# (FASTCHESS_CACHE names another cache directory: one build for several build directories).
#
#   source scripts/lib/fastchess.sh
#   fastchess_build PROGRAM BUILD_DIR     sets FASTCHESS (the program) and FASTCHESS_ID
#                                         (its version line and source key); exits 2 when
#                                         FASTCHESS_SRC is missing, is not a fastchess tree,
#                                         or its `make` fails
#
# Env: JOBS (make -j, default 2), FASTCHESS_CACHE.

# fastchess_key SRC: the commit of a clean git checkout whose top is SRC, else "files-" and
# the SHA-256 of its files (build products left out).
fastchess_key() {
  local src=$1 top
  top=$(git -C "$src" rev-parse --show-toplevel 2>/dev/null || true)
  if [ -n "$top" ] && [ "$top" = "$(cd "$src" && pwd -P)" ] &&
    [ -z "$(git -C "$src" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
    git -C "$src" rev-parse HEAD
    return
  fi
  echo "files-$(cd "$src" && find . \( -name .git -o -path ./app/tmp \) -prune -o -type f \
    ! -name fastchess ! -name '*.o' ! -name '*.d' -print0 | LC_ALL=C sort -z |
    xargs -0 sha256sum | sha256sum | cut -c1-16)"
}

fastchess_build() {
  local prog=$1 build=$2 src=${FASTCHESS_SRC:-}
  if [ -z "$src" ]; then
    echo "$prog: set FASTCHESS_SRC to a fastchess source tree: its figures are measured beside" \
      "Knightly's in the same run (docs/performance.md says how to get one)" >&2
    exit 2
  fi
  if [ ! -f "$src/Makefile" ] || [ ! -d "$src/app/src" ]; then
    echo "$prog: FASTCHESS_SRC=$src is not a fastchess source tree (no Makefile and app/src there)" >&2
    exit 2
  fi
  local key cache dir
  key=$(fastchess_key "$src")
  cache=${FASTCHESS_CACHE:-$build/fastchess}
  cache=$(mkdir -p "$cache" && cd "$cache" && pwd -P)
  dir=$cache/$key
  if [ ! -x "$dir/fastchess" ]; then
    # Built in a copy (the user's tree is left as it was), renamed into place only when built.
    local work=$cache/$key.building.$$
    rm -rf "$work" "$dir"
    mkdir -p "$work"
    tar -C "$src" --exclude=.git -cf - . | tar -C "$work" -xf -
    echo "$prog: building fastchess from $src ($key) in $dir" >&2
    # GIT_CEILING_DIRECTORIES: fastchess's Makefile asks git for a commit, which must not find
    # the repository the build directory sits in.
    if ! (cd "$work" && { make clean >/dev/null 2>&1 || true; } &&
      GIT_CEILING_DIRECTORIES=$cache make -j "${JOBS:-2}") >"$cache/$key.build.log" 2>&1 ||
      [ ! -x "$work/fastchess" ]; then
      echo "$prog: fastchess's make failed in $work (FASTCHESS_SRC=$src); the end of its log," \
        "$cache/$key.build.log:" >&2
      tail -n 15 "$cache/$key.build.log" >&2
      exit 2
    fi
    mkdir -p "$work.done"
    mv "$work/fastchess" "$work.done/fastchess"
    mv "$cache/$key.build.log" "$work.done/build.log"
    echo "$src" >"$work.done/source"
    rm -rf "$work"
    # Another run may have built the same key meanwhile: either copy will do.
    mv -T "$work.done" "$dir" 2>/dev/null || rm -rf "$work.done"
  fi
  FASTCHESS=$dir/fastchess
  FASTCHESS_ID="$("$FASTCHESS" --version 2>/dev/null | head -n 1) (source $key)"
}
