#!/usr/bin/env bash
# Packs the [gpu] tests for a GPU machine that has the NVIDIA driver and none of Debian's packages
# (a lent device machine): build/tests/coulomb_gpu_tests, the shared libraries it loads besides
# the C library and the driver (OpenVDB, TBB, Assimp, ...), the shipped assets and ../shared/robots
# it reads, and run.sh, which puts them where the test binary looks (its source and shared paths
# are compiled in) and runs it with the arguments given (Catch2's).
#   packaging/gpu-bundle.sh DIR        (after packaging/build.sh, with nvcc found)
#   DIR/run.sh [catch args]            (on the GPU machine; DIR may have moved)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: packaging/gpu-bundle.sh DIR}
exe=build/tests/coulomb_gpu_tests
[[ -x $exe ]] || { echo "gpu-bundle: $exe not built (no nvcc found at configure time?)" >&2; exit 1; }
source_dir=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' build/CMakeCache.txt)
rm -rf "$out"
mkdir -p "$out/lib" "$out/source" "$out/shared"
cp "$exe" "$out/"
# Every library the loader resolves, except glibc's own (the machine's is as new or newer).
ldd "$exe" | awk '$3 ~ /^\// {print $3}' |
  grep -v -E '/(libc|libm|libpthread|libdl|librt|ld-linux-x86-64)\.so' |
  while read -r lib; do cp -L "$lib" "$out/lib/"; done
# The NVIDIA Vulkan driver (libGLX_nvidia) needs libglvnd's libraries (libGLdispatch, libGLX,
# libEGL), which a bare GPU machine may lack: without them the loader finds the driver but gets
# no vkCreateInstance from it (seen on the lent H200 machine, 28 Nov 2026).
for lib in libGLdispatch.so.0 libGLX.so.0 libEGL.so.1; do
  cp -L "/usr/lib/x86_64-linux-gnu/$lib" "$out/lib/" 2>/dev/null ||
    echo "gpu-bundle: no $lib here (Debian: libglvnd0, libglx0, libegl1): Vulkan on the GPU machine may fail" >&2
done
cp -r assets "$out/source/"
[[ -d ../shared/robots ]] && cp -r ../shared/robots "$out/shared/"
cat > "$out/run.sh" <<EOF
#!/usr/bin/env bash
# The [gpu] tests from this bundle (made by packaging/gpu-bundle.sh).
set -euo pipefail
here=\$(cd "\$(dirname "\$0")" && pwd)
# Copies, not links: the loaders resolve links before they check a file against its package roots.
mkdir -p "$source_dir" "$(dirname "$source_dir")/shared"
[[ -e "$source_dir/assets" ]] || cp -r "\$here/source/assets" "$source_dir/assets"
[[ -e "$(dirname "$source_dir")/shared/robots" || ! -d "\$here/shared/robots" ]] ||
  cp -r "\$here/shared/robots" "$(dirname "$source_dir")/shared/robots"
# The NVIDIA Vulkan driver where a lent machine keeps it (the interop test needs Vulkan on the GPU).
nvidia_icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
if [[ -z "\${VK_DRIVER_FILES:-}\${VK_ICD_FILENAMES:-}" && -f \$nvidia_icd ]]; then export VK_DRIVER_FILES=\$nvidia_icd; fi
LD_LIBRARY_PATH="\$here/lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}" exec "\$here/coulomb_gpu_tests" "\$@"
EOF
chmod +x "$out/run.sh"
du -sh "$out"
