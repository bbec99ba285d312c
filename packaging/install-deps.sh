#!/usr/bin/env bash
# Installs every build and test dependency of Coulomb from Debian 12 packages.
# Idempotent: packages already present are left as they are; apt-get update runs only when a
# package is missing.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git
  libeigen3-dev libtbb-dev libtinyxml2-dev catch2
  libimgui-dev
  libvulkan-dev mesa-vulkan-drivers vulkan-validationlayers glslc libglm-dev libpng-dev
  qt6-base-dev qt6-qpa-plugins xvfb xauth libsdl2-dev
  libopenvdb-dev libnanovdb-dev libboost-iostreams-dev libassimp-dev libopenexr-dev
  libtet1.5-dev  # TetGen: tetrahedral meshes from closed surfaces (coulomb tetmesh)
  libsuitesparse-dev  # CHOLMOD: supernodal Cholesky of large soft bodies' condensed systems
  libopenblas0-serial  # its dense kernels: 3x faster than the reference BLAS on a 10k-tet cube, one thread
  ffmpeg  # the desktop app's MP4 video recording runs it (PNG frames work without)
  clang libclang-rt-dev llvm  # the sanitizer build and libFuzzer targets (packaging/fuzz.sh); llvm: llvm-symbolizer
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "install-deps: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
