#!/usr/bin/env bash
# Gathers, here, everything the device check (scripts/device/check.sh) needs on a bare x86-64 GPU
# machine that reaches nothing outside itself, into one git-ignored folder (.device/, or
# $GPUDEDUP_DEVICE_DIR), under 60 MiB; then prints the `carry` list and the one command to run.
#
#   scripts/device/prepare.sh [--fast] [--no-build]
#
#   node.xz         this machine's Node binary (it must link only the C and C++ runtimes)
#   app.tar.xz      exactly the files the check loads, found by tracing the check itself on a tiny
#                   corpus (scripts/device/trace-loads.cjs): dist/ modules, the production packages'
#                   files (webgpu's linux-x64 dawn.node only), package.json files on their paths,
#                   data/sample.jsonl.gz, shaders/*.wgsl
#   vulkan/*.deb    the Vulkan loader (libvulkan1) and libglvnd0 (libGLdispatch.so.0, which NVIDIA's
#                   Vulkan driver links), unpacked there only where the machine lacks them
#   manifest.json   commit, Node version, file list and sizes
#
# --fast compresses with xz -0 instead of -6 (the CI rehearsal); --no-build skips `npm run build:bench`
# (dist/src and dist/bench), which a fresh clone needs.
# The compressed Node binary is reused while the binary is unchanged.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
dest=${GPUDEDUP_DEVICE_DIR:-$root/.device}
level=6
build=1
for arg in "$@"; do
  case "$arg" in
    --fast) level=0 ;;
    --no-build) build=0 ;;
    *) echo "prepare.sh: unknown option $arg (options: --fast, --no-build)" >&2; exit 2 ;;
  esac
done
die() { echo "prepare.sh: $*" >&2; exit 1; }
started=$SECONDS
limit=$((60 * 1024 * 1024))

[ "$(uname -m)" = x86_64 ] || die "the GPU machine is x86-64 and this is $(uname -m): its Node binary and Dawn build would not run there"
node_bin=$(node -p process.execPath)
# A Node that links libnode or libuv from the system would not start on another image.
extra=$(ldd "$node_bin" | awk '{print $1}' | grep -Ev '^(linux-vdso\.so|/lib64/ld-linux-x86-64\.so|libdl\.so|libstdc\+\+\.so|libm\.so|libgcc_s\.so|libpthread\.so|libc\.so|librt\.so)' || true)
[ -z "$extra" ] || die "$node_bin links $(echo $extra): use a self-contained Node build (nodejs.org's linux-x64 tarball)"

cd "$root"
# The check runs dist/bench (the runner, the corpus generator) beside dist/src (the CLI): `npm run build`
# (which `npm install` runs) builds only dist/src, `npm run build:bench` both.
[ -d node_modules ] || die "node_modules/ is missing: run npm ci (or npm install) first"
if [ "$build" = 1 ] && ! log=$(npm run build:bench 2>&1); then echo "$log" | tail -20 >&2; die "npm run build:bench failed"; fi
for built in dist/src/cli/main.js dist/bench/deviceCheck.js; do
  [ -f "$built" ] || die "$built is missing: run npm run build:bench$([ "$build" = 1 ] || echo ' (or drop --no-build)')"
done

scratch=$(mktemp -d "${TMPDIR:-/tmp}/gpudedup-prepare.XXXXXX")
trap 'rm -rf "$scratch" "$dest.new"' EXIT
trap 'exit 143' TERM
trap 'exit 130' INT

# 1. What the check loads: the check itself, traced, on a tiny corpus (any adapter; none is fine too).
trace="$scratch/trace.txt"
: >"$trace"
GPUDEDUP_TRACE_LOADS=$trace NODE_OPTIONS="--require $here/trace-loads.cjs ${NODE_OPTIONS:-}" XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-$scratch} \
  node dist/bench/deviceCheck.js --out "$scratch/out" --work "$scratch/work" --docs 200 --runs 1 --budget 600 --allow-software --quick >"$scratch/trace-run.log" 2>&1 || true
node --input-type=module - "$trace" "$root" >"$scratch/files.txt" <<'JS'
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
const [traceFile, root] = process.argv.slice(2);
const files = new Set();
for (const line of readFileSync(traceFile, 'utf8').split('\n')) {
  if (!line || !existsSync(line) || !statSync(line).isFile()) continue;
  const path = relative(root, realpathSync(line));
  // Only the app: scripts/ travels in the working tree, and nothing outside the checkout is ours.
  if (path.startsWith('..') || path.startsWith('scripts/') || path.startsWith('.device')) continue;
  files.add(path);
  // package.json files on the way up: Node's resolver reads them ("type", "exports") unseen by the trace.
  for (let dir = dirname(path); dir !== '.'; dir = dirname(dir)) if (existsSync(join(root, dir, 'package.json'))) files.add(join(dir, 'package.json'));
}
files.add('package.json');
process.stdout.write([...files].sort().join('\n') + '\n');
JS
# The entry points, Dawn, the shaders, the sample corpus, and some worker thread's script must be among them.
for must in dist/src/cli/main.js dist/bench/deviceCheck.js dist/bench/scaleCorpus.js node_modules/webgpu/dist/linux-x64/dawn.node \
  shaders/minhash.wgsl data/sample.jsonl.gz 'dist/src/.*Worker\.js'; do
  grep -qx "$must" "$scratch/files.txt" || die "the traced check did not load $must (its log: $(tail -5 "$scratch/trace-run.log"))"
done

echo "prepare.sh: traced the check in $((SECONDS - started)) s: $(wc -l <"$scratch/files.txt") files" >&2

# 2. The folder, built beside the old one and swapped in when complete.
rm -rf "$dest.new"
mkdir -p "$dest.new/vulkan"
node_sum=$(sha256sum "$node_bin" | cut -d' ' -f1)
if [ -f "$dest/node.xz" ] && grep -q "\"nodeSha256\": \"$node_sum\"" "$dest/manifest.json" 2>/dev/null && grep -q "\"xzLevel\": $level," "$dest/manifest.json"; then
  cp "$dest/node.xz" "$dest.new/node.xz"
else
  xz -"$level" -T0 -c "$node_bin" >"$dest.new/node.xz" &
  node_job=$!
fi
tar -C "$root" -cf - --owner=0 --group=0 -T "$scratch/files.txt" | xz -"$level" -T0 >"$dest.new/app.tar.xz"

debs=(libvulkan1 libglvnd0)
(
  cd "$dest.new/vulkan"
  for name in "${debs[@]}"; do
    cached=$(ls "$dest/vulkan/${name}_"*.deb 2>/dev/null | head -1 || true)
    if [ -n "$cached" ]; then cp "$cached" .; continue; fi
    apt-get download "$name" >/dev/null 2>&1 && continue
    # No package lists yet: a private update, as the GPU machine's notes do it.
    lists="$scratch/apt-lists"
    mkdir -p "$lists/partial"
    apt-get -oDir::State::Lists="$lists" update >/dev/null 2>&1 || true
    apt-get -oDir::State::Lists="$lists" download "$name" >/dev/null 2>&1 || die "apt-get download $name failed (no network or no package lists?)"
  done
)
[ -z "${node_job:-}" ] || wait "$node_job" || die "xz of $node_bin failed"

commit=$(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)
dirty=$([ -n "$(git -C "$root" status --porcelain --untracked-files=no 2>/dev/null)" ] && echo true || echo false)
node --input-type=module - "$dest.new" "$scratch/files.txt" "$commit" "$dirty" "$level" "$node_sum" <<'JS'
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
const [dir, list, commit, dirty, level, nodeSha256] = process.argv.slice(2);
const sizeOf = (p) => statSync(join(dir, p)).size;
const manifest = {
  format: 'gpudedup-device-bundle/1',
  prepared: new Date().toISOString(),
  commit,
  dirty: dirty === 'true',
  node: process.version,
  nodeSha256, // of the uncompressed binary: the next prepare reuses node.xz while it matches
  xzLevel: Number(level),
  sizes: { 'node.xz': sizeOf('node.xz'), 'app.tar.xz': sizeOf('app.tar.xz'), ...Object.fromEntries(readdirSync(join(dir, 'vulkan')).map((f) => [`vulkan/${f}`, sizeOf(`vulkan/${f}`)])) },
  app: readFileSync(list, 'utf8').split('\n').filter(Boolean),
};
writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
JS

total=$(du -sb "$dest.new" | cut -f1)
[ "$total" -lt "$limit" ] || die "$dest.new holds $((total / 1048576)) MiB, over the 60 MiB limit"
rm -rf "$dest"
mv "$dest.new" "$dest"

# What travels with a device command: tracked and untracked-not-ignored files, plus the carried folder.
tree=$(cd "$root" && { git ls-files -z; git ls-files -z -o --exclude-standard; } | xargs -0 -r stat -c %s -- 2>/dev/null | awk '{s += $1} END {print s + 0}')
carry_path=$(realpath --relative-to="$root" "$dest")
case "$carry_path" in ..*) echo "prepare.sh: note: $dest is outside the checkout, and carry only takes paths inside it" >&2 ;; esac
echo "prepared $dest in $((SECONDS - started)) s: $(du -sh "$dest" | cut -f1) ($(wc -l <"$scratch/files.txt") app files, xz -$level); with the working tree $(((total + tree) / 1048576)) MiB travel (limit 64 MiB)"
echo "carry: [\"$carry_path\"]"
echo "command: bash scripts/device/check.sh"
