#!/usr/bin/env bash
# The Debian package of this build (cmake/DistwarPackaging.cmake): made with
# cpack, read with dpkg-deb (fields, files, Depends against the libraries the
# packaged tool needs), extracted into a scratch root (never installed into
# the system, even as root) and used from there: the tool, a rewrite whose
# output nvcc compiles against the packaged headers, find_package(distwar)
# from a consumer project, examples/consumer's rewrite through the packaged
# distwar_rewrite_target(), and the Python helper.
#
#   check-deb.sh BUILD SOURCE WORK VERSION CPACK CMAKE GENERATOR MAKE NVCC PYTHON
#
# NVCC and PYTHON may be empty (those steps are left out). Exits 77 where
# dpkg-deb is missing.
set -euo pipefail
if (($# != 10)); then
  echo "usage: $0 BUILD SOURCE WORK VERSION CPACK CMAKE GENERATOR MAKE NVCC PYTHON" >&2
  exit 2
fi
build=$1 source=$2 work=$3 version=$4 cpack=$5 cmake=$6 generator=$7
make_program=$8 nvcc=$9 python=${10}

if ! command -v dpkg-deb >/dev/null; then
  echo "UNSUPPORTED: no dpkg-deb on this machine"
  exit 77
fi
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
step() { echo "== $*"; }

arch=$(dpkg --print-architecture 2>/dev/null || true)
[ -n "$arch" ] || fail "cannot tell the Debian architecture"
[ -f "$build/CPackConfig.cmake" ] || fail "$build/CPackConfig.cmake is missing (configured without the tool?)"

rm -rf "$work"
mkdir -p "$work"
root=$work/root

step "cpack -G DEB"
"$cpack" --config "$build/CPackConfig.cmake" -G DEB -B "$work/out" >"$work/cpack.log" 2>&1 ||
  { cat "$work/cpack.log"; fail "cpack failed"; }
deb=$work/out/distwar_${version}_${arch}.deb
[ -f "$deb" ] || { ls "$work/out"; fail "no $(basename "$deb")"; }

step "dpkg-deb --info"
dpkg-deb --info "$deb" | tee "$work/info.txt"
field() { dpkg-deb --field "$deb" "$1"; }
[ "$(field Package)" = distwar ] || fail "Package is '$(field Package)'"
[ "$(field Version)" = "$version" ] || fail "Version is '$(field Version)', not $version"
[ "$(field Architecture)" = "$arch" ] || fail "Architecture is '$(field Architecture)', not $arch"
maintainer_form='^.+ <.+@.+>$'
[[ "$(field Maintainer)" =~ $maintainer_form ]] || fail "Maintainer '$(field Maintainer)' is not 'name <email>'"
[ -n "$(field Description)" ] || fail "no Description"
depends=$(field Depends)
# Every package name in Depends (alternatives too), without versions.
depends_names=$(echo "$depends" | tr ',|' '\n' | sed 's/(.*)//; s/:.*//; s/^ *//; s/ *$//' | grep -v '^$')
for p in libclang-cpp22 libllvm22 libclang-common-22-dev; do
  grep -qx "$p" <<<"$depends_names" || fail "Depends ($depends) lacks $p"
done

step "dpkg-deb --contents"
dpkg-deb --contents "$deb" | awk '{print $NF}' | sed 's|^\./|/|; s|/$||' | sort >"$work/contents.txt"
for f in /usr/bin/distwar-rewrite \
         /usr/include/distwar/runtime.cuh /usr/include/distwar/batch.cuh \
         /usr/include/distwar/sites.h /usr/include/distwar/autotune.h \
         /usr/lib/libdistwar_runtime.a \
         /usr/lib/cmake/distwar/distwarConfig.cmake \
         /usr/lib/cmake/distwar/distwarConfigVersion.cmake \
         /usr/lib/cmake/distwar/distwarTargets.cmake \
         /usr/lib/cmake/distwar/DistwarRewrite.cmake \
         /usr/lib/cmake/distwar/DistwarRewriteHelper.cmake \
         /usr/share/distwar/python/setup.py \
         /usr/share/distwar/python/distwar/__init__.py \
         /usr/share/distwar/python/distwar/rewrite.py \
         /usr/share/distwar/python/distwar/runtime/include/distwar/runtime.cuh; do
  grep -qxF "$f" "$work/contents.txt" || fail "the package lacks $f"
done
outside=$(grep -v -e '^/usr$' -e '^/usr/' "$work/contents.txt" || true)
[ -z "$outside" ] || fail "the package holds files outside /usr: $outside"
strays=$(grep -e '__pycache__' -e '\.pyc$' -e '\.egg-info' "$work/contents.txt" || true)
[ -z "$strays" ] || fail "the package holds build leftovers: $strays"
echo "$(wc -l <"$work/contents.txt") paths, all under /usr"

step "dpkg-deb -x (a scratch root, not the system)"
dpkg-deb -x "$deb" "$root"
tool=$root/usr/bin/distwar-rewrite
[ -x "$tool" ] || fail "$tool is not executable"

step "the tool's runtime path and libraries"
readelf -d "$tool" >"$work/dynamic.txt"
runpath=$(sed -n 's/.*(R\(UN\)\{0,1\}PATH).*\[\(.*\)\]/\2/p' "$work/dynamic.txt")
echo "RUNPATH: ${runpath:-(none)}"
# An empty entry is the working directory.
[[ "$runpath" != :* && "$runpath" != *: && "$runpath" != *::* ]] ||
  fail "RUNPATH '$runpath' has an empty entry"
IFS=: read -r -a entries <<<"$runpath"
for e in "${entries[@]}"; do
  [[ "$e" == /* ]] || fail "RUNPATH entry '$e' is not absolute (runpath '$runpath')"
  [[ "$e/" != "$build/"* && "$e/" != "$source/"* ]] || fail "RUNPATH entry $e points into the build or source tree"
done
# Every shared library the tool needs comes from a package Depends names
# (where dpkg knows the library's package).
sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' "$work/dynamic.txt" >"$work/needed.txt"
[ -s "$work/needed.txt" ] || fail "readelf shows no NEEDED library"
while read -r so; do
  owners=$(dpkg -S "*/$so" 2>/dev/null | sed 's/: \/.*//' | tr ',' '\n' | sed 's/:.*//; s/^ *//' | sort -u || true)
  if [ -z "$owners" ]; then
    echo "note: no package holds $so here; not checked"
    continue
  fi
  found=""
  for o in $owners; do
    grep -qx "$o" <<<"$depends_names" && found=$o
  done
  [ -n "$found" ] || fail "$so (from ${owners//$'\n'/ }) is needed by the tool but Depends ($depends) names none of its packages"
  echo "$so: $found"
done <"$work/needed.txt"

step "no text file of the package names the build or source tree"
leaks=$(grep -rlF -e "$build" -e "$source" "$root/usr/lib/cmake" "$root/usr/include" "$root/usr/share" || true)
[ -z "$leaks" ] || fail "these files name the build or source tree: $leaks"

step "distwar-rewrite --version"
"$tool" --version | tee "$work/version.txt"
grep -q "^distwar-rewrite $version " "$work/version.txt" || fail "--version does not say $version"

step "a rewrite with the packaged tool"
"$tool" --no-cuda-sdk "$source/test/Inputs/simple.cu" -o "$work/simple.cu" \
  -- -include "$source/test/Inputs/cuda_shim.h"
grep -q '^#include <distwar/runtime.cuh>' "$work/simple.cu" || fail "the rewrite does not include the runtime"
grep -q 'distwar_batch0' "$work/simple.cu" || fail "the rewrite batched nothing"
if [ -n "$nvcc" ]; then
  # The output against the packaged headers only (PTX: no ptxas, no GPU).
  "$nvcc" -arch=compute_90 -ptx -std=c++17 -I "$root/usr/include" -o "$work/simple.ptx" "$work/simple.cu"
  echo "nvcc compiled the rewrite against $root/usr/include"
fi

step "find_package(distwar) from the extracted package"
cuda_hint=()
if [ -n "$nvcc" ]; then
  cuda_hint=("-DCUDAToolkit_ROOT=$(dirname "$(dirname "$nvcc")")")
fi
"$cmake" -G "$generator" ${make_program:+"-DCMAKE_MAKE_PROGRAM=$make_program"} \
  -S "$source/test/package/consumer" -B "$work/consumer" \
  "-DCMAKE_PREFIX_PATH=$root/usr" "-DDISTWAR_ROOT=$root" "${cuda_hint[@]}" \
  >"$work/consumer.log" 2>&1 || { cat "$work/consumer.log"; fail "the consumer project did not configure"; }
grep 'distwar package:' "$work/consumer.log"

if [ -n "$nvcc" ]; then
  step "examples/consumer: distwar_rewrite_target() from the package"
  "$cmake" -G "$generator" ${make_program:+"-DCMAKE_MAKE_PROGRAM=$make_program"} \
    -S "$source/examples/consumer" -B "$work/example" \
    "-DCMAKE_PREFIX_PATH=$root/usr" "-DCMAKE_CUDA_COMPILER=$nvcc" \
    -DCMAKE_CUDA_ARCHITECTURES=90-virtual \
    >"$work/example.log" 2>&1 || { cat "$work/example.log"; fail "examples/consumer did not configure"; }
  if [ "$generator" = Ninja ]; then
    # Only the rewritten copy: the packaged tool run by the packaged module.
    "$cmake" --build "$work/example" --target distwar/distwar_consumer/splat.cu
    grep -qF "$root/usr/bin/distwar-rewrite" "$work/example/build.ninja" ||
      fail "examples/consumer does not run the packaged tool"
  else
    echo "note: the rewrite alone is built with Ninja only; configured"
  fi
  grep -q 'distwar_batch' "$work/example/distwar/distwar_consumer/splat.cu" ||
    fail "examples/consumer's rewrite batched nothing"
fi

if [ -n "$python" ]; then
  step "the Python helper from $root/usr/share/distwar/python"
  PYTHONPATH="$root/usr/share/distwar/python" PATH="$root/usr/bin:$PATH" \
    env -u DISTWAR_REWRITE "$python" - "$root" <<'EOF'
import os, sys
import distwar, distwar.rewrite
root = os.path.realpath(sys.argv[1])
inc = os.path.realpath(distwar.include_dir())
tool = distwar.rewrite.find_tool()
print("distwar", distwar.__version__, "include_dir", inc)
print("find_tool", tool)
assert os.path.realpath(distwar.__file__).startswith(root + os.sep), distwar.__file__
assert inc.startswith(root + os.sep), inc
assert os.path.isfile(os.path.join(inc, "distwar", "runtime.cuh")), inc
assert distwar.runtime_sources(), "no runtime sources"
assert tool and os.path.realpath(tool) == os.path.join(root, "usr", "bin", "distwar-rewrite"), tool
EOF
fi

echo "PASS: $(basename "$deb")"
