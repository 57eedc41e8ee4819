#!/usr/bin/env bash
# Installs what the build needs (Debian packages) when missing, configures
# build/ and builds. Idempotent: a second run with nothing changed takes
# seconds. Usage: scripts/setup.sh [--targets "T1 T2 ..."] [extra meson
# options for a new build/]. --targets builds only those ninja targets (and
# what they need), e.g. "bin/nnet3-train bin/nnet3-compute": a recipe that
# needs a few programs does not wait for the test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
targets=()
if [ "${1:-}" = --targets ]; then
  [ $# -ge 2 ] || { echo "setup: --targets needs a list of ninja targets" >&2; exit 1; }
  read -r -a targets <<< "$2"
  shift 2
fi

# What the build needs, and (unless --targets: a recipe building a few
# programs) everything the test suite needs, so that no test installs anything
# itself (the tests run in parallel and would fight over the package manager's
# lock): the Fashion-MNIST data set and gnuplot (the recipe), espeak-ng (the
# spoken-digits recipe's voices), PyTorch (Adam and the benchmarks'
# references), Chromium and Graphviz (the compile-info pictures), Slurm and
# MUNGE (the one-node cluster), GNU time.
packages=(meson ninja-build pkg-config g++ libopenblas-dev libcli11-dev
          libspdlog-dev catch2 python3 libdnnl-dev libfst-dev libfst-tools
          sox)
if [ ${#targets[@]} -eq 0 ]; then
  packages+=(dataset-fashion-mnist gnuplot-nox python3-numpy python3-torch espeak-ng
             chromium graphviz slurmctld slurmd slurm-client munge time)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
    missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >&2
fi

if [ ! -f build/build.ninja ]; then
  meson setup build --buildtype=release "$@" >&2
fi
ninja -C build -j"$(nproc)" "${targets[@]}" >&2
