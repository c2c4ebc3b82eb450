#!/usr/bin/env node
// Builds data/sample.jsonl.gz, the bundled sample corpus, from the SPDX
// licence texts shipped in the npm package spdx-license-list@6.12.0.
//
// The script does not download anything itself. Fetch its input first:
//
//   tmp="$(mktemp -d)"
//   (cd "$tmp" && npm pack spdx-license-list@6.12.0 && tar xzf spdx-license-list-6.12.0.tgz)
//   node scripts/build-sample-corpus.mjs "$tmp/package"
//
// Usage:
//   node scripts/build-sample-corpus.mjs <package-dir | spdx-full.json> [out.jsonl.gz]
//   node scripts/build-sample-corpus.mjs --check <package-dir | spdx-full.json> [out.jsonl.gz]
//
// The output defaults to data/sample.jsonl.gz next to this script's folder.
// --check writes nothing: it rebuilds the corpus in memory and exits 1 if
// the decompressed content of the existing file differs from it.
//
// Output: JSON Lines, UTF-8, one licence per line, sorted by SPDX id
// (plain UTF-16 code unit order, locale-independent), each line
//   {"id","name","osi_approved","url","source","text"}
// with "text" byte-for-byte the package's licenseText (never normalised:
// many licences only permit verbatim copies, and the near-duplicates should
// be the real ones). Entries whose text is empty or whitespace are dropped.
// gzip: zlib level 9, no file name, mtime 0, OS byte forced to 3 (Unix) so
// the header does not depend on the platform that ran the build.

import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync, constants as zc } from 'node:zlib';

const PACKAGE = 'spdx-license-list';
const VERSION = '6.12.0';
const SOURCE = `${PACKAGE}@${VERSION}`;
// sha256 of spdx-full.json inside spdx-license-list-6.12.0.tgz
// (tarball sha256 54cc8d13086187333ca1457c8edaa06d9a412144f076aa7f7c1b59c4f3b0a1ef).
const INPUT_SHA256 = 'a2af313af682077111b673033e763108d33e6af9b02e7f08b380f544180bcfd6';

const sha256 = (buf) => createHash('sha256').update(buf).digest('hex');

function usage(msg) {
  if (msg) console.error(`error: ${msg}`);
  console.error('usage: node scripts/build-sample-corpus.mjs [--check] <package-dir | spdx-full.json> [out.jsonl.gz]');
  process.exit(2);
}

function readInput(arg) {
  let file = resolve(arg);
  if (existsSync(file) && statSync(file).isDirectory()) {
    const pkgFile = join(file, 'package.json');
    if (existsSync(pkgFile)) {
      const pkg = JSON.parse(readFileSync(pkgFile, 'utf8'));
      if (pkg.name !== PACKAGE || pkg.version !== VERSION) {
        usage(`${pkgFile} is ${pkg.name}@${pkg.version}, expected ${SOURCE}`);
      }
    }
    file = join(file, 'spdx-full.json');
  }
  if (!existsSync(file)) usage(`no such file: ${file}`);
  const raw = readFileSync(file);
  const digest = sha256(raw);
  if (digest !== INPUT_SHA256) {
    usage(`${file} has sha256 ${digest}, expected ${INPUT_SHA256} (spdx-full.json of ${SOURCE})`);
  }
  return JSON.parse(raw.toString('utf8'));
}

export function buildJsonl(full) {
  const ids = Object.keys(full).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const lines = [];
  let dropped = 0;
  for (const id of ids) {
    const e = full[id];
    const text = typeof e.licenseText === 'string' ? e.licenseText : '';
    if (text.trim() === '') {
      dropped++;
      continue;
    }
    lines.push(
      JSON.stringify({
        id,
        name: e.name,
        osi_approved: e.osiApproved === true,
        url: e.url,
        source: SOURCE,
        text,
      }),
    );
  }
  return { jsonl: Buffer.from(lines.map((l) => l + '\n').join(''), 'utf8'), count: lines.length, dropped };
}

export function gzipDeterministic(buf) {
  const gz = gzipSync(buf, { level: 9, memLevel: 9, strategy: zc.Z_DEFAULT_STRATEGY });
  // RFC 1952 header: bytes 4..7 MTIME (zlib writes 0), byte 9 OS. No FHCRC,
  // so patching the OS byte leaves the stream valid.
  gz[9] = 3;
  return gz;
}

function main(argv) {
  let check = false;
  const args = [];
  for (const a of argv) {
    if (a === '--check') check = true;
    else if (a === '-h' || a === '--help') usage();
    else args.push(a);
  }
  if (args.length < 1 || args.length > 2) usage();
  const here = dirname(fileURLToPath(import.meta.url));
  const out = resolve(args[1] ?? join(here, '..', 'data', 'sample.jsonl.gz'));

  const { jsonl, count, dropped } = buildJsonl(readInput(args[0]));

  if (check) {
    if (!existsSync(out)) {
      console.error(`check: ${out} does not exist`);
      process.exit(1);
    }
    const existing = gunzipSync(readFileSync(out));
    if (!existing.equals(jsonl)) {
      console.error(`check: ${out} differs from a fresh build (${sha256(existing)} vs ${sha256(jsonl)})`);
      process.exit(1);
    }
    console.log(`check: ${out} matches (${count} documents, jsonl sha256 ${sha256(jsonl)})`);
    return;
  }

  const gz = gzipDeterministic(jsonl);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, gz);
  console.log(`source        ${SOURCE}`);
  console.log(`documents     ${count} (dropped ${dropped} with empty text)`);
  console.log(`jsonl bytes   ${jsonl.length}  sha256 ${sha256(jsonl)}`);
  console.log(`gzip bytes    ${gz.length}  sha256 ${sha256(gz)}`);
  console.log(`written       ${out}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2));
}
