#!/usr/bin/env bash
# Configures (once) and builds build-sanitize/: clang with AddressSanitizer
# and UndefinedBehaviorSanitizer (any finding aborts), the libFuzzer targets
# (-Dfuzz=true) and the test suites, CPU only. Installs clang and
# libclang-rt-14-dev when missing. Used by `scripts/test.sh --sanitize` and
# scripts/fuzz.sh; a first build takes a long time on a small machine.
# Usage: scripts/sanitize-setup.sh [NINJA-TARGET...]   (default: everything)
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(clang libclang-rt-14-dev meson ninja-build pkg-config libopenblas-dev
          libcli11-dev libspdlog-dev catch2 python3)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
    missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "sanitize-setup: installing ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >&2
fi

B=build-sanitize
if [ ! -f $B/build.ninja ]; then
  CXX=clang++ meson setup $B --buildtype=debugoptimized -Dfuzz=true -Dtests=true \
    -Dcuda=disabled -Db_sanitize=address,undefined -Db_lundef=false \
    -Dcpp_args=-fno-sanitize-recover=all >&2
fi
nice ninja -C $B -j"$(nproc)" "$@" >&2
