#!/usr/bin/env bash
# The device check: run on the GPU machine (and here, as the rehearsal) after scripts/device/prepare.sh.
#
#   bash scripts/device/check.sh [--docs N] [--runs N] [--budget SECONDS] [--allow-software]
#
# Unpacks the carried folder (.device/, or $GPUDEDUP_DEVICE_DIR): the Node binary, the built app and
# the Vulkan loader .debs, the loader unpacked only where `ldconfig` finds none (GPUDEDUP_DEVICE_LOADER=
# carried forces it, as the rehearsal does) into a private folder on LD_LIBRARY_PATH, never into /.
# Then dist/bench/deviceCheck.js runs the steps, each time-boxed, and writes at most 8 files under $OUT
# (a new temporary folder when OUT is unset): summary.json (rewritten after every step), check.log,
# doctor.json, bench.json, bench.svg, dedup-webgpu.json, dedup-cpu.json. The default budget (480 s)
# and corpus (520,000 documents, just over 1 GB) are the GPU machine's; the exit status is 0 when
# every step passed. Everything unpacked is removed on exit, signals included.
set -uo pipefail

started_ms=$(($(date +%s%N) / 1000000))
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
carry=${GPUDEDUP_DEVICE_DIR:-$root/.device}
budget=480
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  [ "${args[i]}" = --budget ] && budget=${args[i + 1]:-480}
done

if [ -z "${OUT:-}" ]; then OUT=$(mktemp -d "${TMPDIR:-/tmp}/gpudedup-check-out.XXXXXX"); fi
mkdir -p "$OUT"
work=$(mktemp -d "${TMPDIR:-/tmp}/gpudedup-check.XXXXXX")
child=
cleanup() { [ -n "$child" ] && kill -TERM "$child" 2>/dev/null && wait "$child"; rm -rf "$work"; }
trap cleanup EXIT
trap 'exit 143' TERM
trap 'exit 130' INT

say() { echo "check.sh: $*" | tee -a "$OUT/check.log" >&2; }
die() { say "$*"; exit 2; }

[ -f "$carry/manifest.json" ] || die "$carry/manifest.json is missing: run scripts/device/prepare.sh first, and name its folder in carry"

# xz where it is installed, else Python's lzma (the GPU machine has Python 3.12).
unxz_to_stdout() {
  if command -v xz >/dev/null; then xz -dc -- "$1"
  else python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), sys.stdout.buffer)' "$1"; fi
}
# A .deb's files into a folder: dpkg-deb where it is installed, else Python reading the ar archive.
unpack_deb() {
  if command -v dpkg-deb >/dev/null; then dpkg-deb -x "$1" "$2"
  else python3 - "$1" "$2" <<'PY'
import io, sys, tarfile
data = open(sys.argv[1], 'rb').read()
at = 8  # "!<arch>\n", then 60-byte member headers
while at < len(data):
    name, size = data[at:at + 16].decode().strip().rstrip('/'), int(data[at + 48:at + 58])
    if name.startswith('data.tar'):
        tarfile.open(fileobj=io.BytesIO(data[at + 60:at + 60 + size])).extractall(sys.argv[2])
    at += 60 + size + (size & 1)
PY
  fi
}

t0=$SECONDS
unxz_to_stdout "$carry/node.xz" >"$work/node" && chmod +x "$work/node" || die "could not unpack $carry/node.xz"
mkdir -p "$work/app"
unxz_to_stdout "$carry/app.tar.xz" | tar -x -C "$work/app" || die "could not unpack $carry/app.tar.xz"
"$work/node" --version >/dev/null || die "the carried Node does not run here ($(uname -m), $(ldd --version 2>&1 | head -1))"

unpacked=()
libdir="$work/vulkan/usr/lib/x86_64-linux-gnu"
for deb in "$carry"/vulkan/*.deb; do
  [ -f "$deb" ] || continue
  case "$(basename "$deb")" in
    libvulkan1_*) lib='libvulkan\.so\.1 ' ;;
    libglvnd0_*) lib='libGLdispatch\.so\.0 ' ;; # NVIDIA's Vulkan ICD (libGLX_nvidia.so.0) links it
    *) lib='^$' ;;
  esac
  if [ "${GPUDEDUP_DEVICE_LOADER:-auto}" = carried ] || ! { ldconfig -p 2>/dev/null || /sbin/ldconfig -p 2>/dev/null; } | grep -q "$lib"; then
    unpack_deb "$deb" "$work/vulkan" || die "could not unpack $deb"
    unpacked+=("$(basename "$deb")")
  fi
done
loader=system
if [ "${#unpacked[@]}" -gt 0 ]; then
  loader="carried (${unpacked[*]})"
  export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
if [ -z "${XDG_RUNTIME_DIR:-}" ]; then export XDG_RUNTIME_DIR="$work/xdg"; mkdir -p -m 700 "$XDG_RUNTIME_DIR"; fi
say "unpacked in $((SECONDS - t0)) s; Vulkan loader: $loader; results in $OUT"

# The runner keeps its own deadline; this outer box only catches a runner that hangs.
box=()
if command -v timeout >/dev/null; then box=(timeout --kill-after=10 "$((budget + 30))"); fi
"${box[@]}" "$work/node" "$work/app/dist/bench/deviceCheck.js" \
  --out "$OUT" --work "$work/run" --started "$started_ms" --loader "$loader" --manifest "$carry/manifest.json" "$@" &
child=$!
wait "$child"
rc=$?
child=
say "finished in $((SECONDS)) s (exit $rc); files: $(cd "$OUT" && ls | tr '\n' ' ')"
exit "$rc"
