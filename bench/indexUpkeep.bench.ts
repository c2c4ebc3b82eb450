/**
 * The index's upkeep (issue 31, items 5 and 8): what checking every file at
 * open costs (the document table's CRC-32 now with the rest), and many small
 * adds with the merge policy (wall and CPU seconds, segments, descriptors).
 *
 *   node dist/bench/indexUpkeep.bench.js [ROWS=200000] [ADDS=2000]
 *
 * The open half uses a segment of ROWS random signatures (k 128, 64-bit
 * slots, empty sets; as index.bench.ts's --synthetic), opened read-only
 * fresh each time; the adds half makes a new index on /dev/shm where there is
 * one (fsync on a disk would measure the disk), one document per add.
 */
import { mkdtempSync, readdirSync, rmSync, existsSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyFile } from '../src/lshIndex/checkedFile.js';
import { createIndex, openIndex } from '../src/lshIndex/diskIndex.js';
import { acquireLock } from '../src/lshIndex/lock.js';
import { readManifest, segmentName, writeManifest } from '../src/lshIndex/manifest.js';
import { SegmentWriter } from '../src/lshIndex/segmentFiles.js';

const rows = Number(process.argv[2] ?? 200_000);
const adds = Number(process.argv[3] ?? 2000);
const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const root = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'index-upkeep-'));
const cpuSeconds = (since: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1e6;
};

/** An index of one segment of `count` random rows. */
async function syntheticIndex(count: number): Promise<string> {
  const dir = join(root, 'open');
  await (await createIndex(dir, { k: 128 })).close();
  const lock = acquireLock(dir);
  try {
    const manifest = readManifest(dir);
    const p = manifest.parameters;
    const writer = new SegmentWriter(dir, segmentName(1), p, p.storeSets);
    const row = new Uint32Array(2 * p.k);
    const key = new Uint32Array(4);
    let x = 0x9e3779b9;
    const next = (): number => {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      return x >>> 0;
    };
    for (let i = 0; i < count; i++) {
      for (let w = 0; w < row.length; w++) row[w] = next();
      for (let w = 0; w < 4; w++) key[w] = next();
      writer.add(`synthetic-document-${i}`, 2000, row, 0, key, false, new Uint32Array(0));
    }
    writeManifest(dir, { ...manifest, generation: 1, segments: [writer.finish()], documents: count });
  } finally {
    lock.release();
  }
  return dir;
}

async function opens(dir: string): Promise<void> {
  const { files } = readManifest(dir).segments[0];
  const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;
  console.log(
    `segment: ${rows} rows; .sig ${mb(files.signatures.bytes)}, .bands ${mb(files.bands.bytes)}, .docs.parquet ${mb(files.documents.bytes)}, .ids ${mb(files.ids.bytes)}`,
  );
  for (const checksums of ['lazy', 'open'] as const) {
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      await (await openIndex(dir, { readOnly: true, checksums })).close();
      times.push(performance.now() - started);
    }
    console.log(`open (checksums ${checksums}): median ${times.sort((a, b) => a - b)[2].toFixed(1)} ms of 5`);
  }
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    verifyFile(dir, files.documents);
    times.push(performance.now() - started);
  }
  const median = times.sort((a, b) => a - b)[2];
  console.log(
    `the document table's check alone: median ${median.toFixed(2)} ms (${(files.documents.bytes / 1e6 / (median / 1000)).toFixed(0)} MB/s)`,
  );
}

async function smallAdds(): Promise<void> {
  const dir = join(root, 'adds');
  const index = await createIndex(dir, { k: 128 });
  const cpu = process.cpuUsage();
  const started = performance.now();
  let most = 0;
  for (let i = 0; i < adds; i++) {
    await index.add([
      {
        id: `doc-${i}`,
        text: `document ${i} of words ${(i * 7919) % 10007} and ${(i * 104729) % 1299709} apart from the rest`,
      },
    ]);
    if (i % 50 === 49) most = Math.max(most, readdirSync('/proc/self/fd').length);
  }
  const wall = (performance.now() - started) / 1000;
  const stats = await index.stats();
  console.log(
    `${adds} one-document adds: ${wall.toFixed(1)} s wall (${((wall / adds) * 1000).toFixed(1)} ms an add), ${cpuSeconds(cpu).toFixed(1)} CPU s; ${stats.segments} segments, ${readdirSync(dir).length} files, at most ${most} descriptors open`,
  );
  await index.close();
}

console.log(`index upkeep bench; load average before: ${load()}; scratch ${root}`);
try {
  if (rows > 0) await opens(await syntheticIndex(rows));
  await smallAdds();
} finally {
  rmSync(root, { recursive: true, force: true });
}
console.log(`load average after: ${load()}`);
