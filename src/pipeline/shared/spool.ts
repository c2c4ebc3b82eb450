/**
 * Standard input or a pipe, where a command reads its corpus twice (issue 40, item 6): read once, front to back, into
 * a temporary file in the temporary directory (--temp-directory, else the system's), which every later pass reads
 * instead (src/io/spooledInputs.ts). The copy holds the bytes as they came in (compressed or not), is counted in a
 * note, and is a registered temporary: removed when the run ends, however it ends (signals and the filtered child's
 * watchdog included).
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { systemReason } from '../../errors.js';
import { thousands } from '../../format.js';
import { reserveTemporary } from '../../formats/files/temporaries.js';
import { readsOnce } from '../../io/readDocuments.js';
import { setSpooled } from '../../io/spooledInputs.js';

/**
 * Copies every input among `paths` that can be read only once (`-`, a named pipe, `<(…)`) to a temporary in
 * `directory`; `note` hears where and how many bytes. Inputs on disk are left alone.
 */
export async function spoolStreams(
  paths: readonly string[],
  directory: string | undefined,
  note: (message: string) => void,
): Promise<void> {
  const streams = [...new Set(paths.filter(readsOnce))];
  if (streams.length === 0) return;
  const dir = directory ?? tmpdir();
  await checkSpoolDirectory(dir, directory !== undefined);
  for (const path of streams) {
    const size = await spoolOne(path, dir);
    note(
      `note: ${streamName(path)} is read twice, so it was copied to ${dir} first ` +
        `(${thousands(size)} bytes, removed when the run ends)`,
    );
  }
}

/** `-` or a pipe, in a message. */
function streamName(path: string): string {
  return path === '-' ? 'standard input (-)' : `${path} (a pipe)`;
}

/** The stream copied to a registered temporary, which its readers open from now on; its bytes. */
async function spoolOne(path: string, dir: string): Promise<number> {
  const file = reserveTemporary(join(dir, `gpudedup-${path === '-' ? 'stdin' : basename(path)}`), 'spool');
  const source: Readable = path === '-' ? process.stdin : createReadStream(path);
  let size = 0;
  source.on('data', (chunk: Buffer) => {
    size += chunk.length;
  });
  try {
    // r+: the file reserveTemporary made, never created again — a signal's cleanup may remove it while this open is
    // still on its way, and the copy must not come back after.
    await pipeline(source, createWriteStream(file, { flags: 'r+' }));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const which = code === 'ENOSPC' || (error as NodeJS.ErrnoException).path === file ? file : path;
    throw new Error(`${which}: ${systemReason(error)} (copying ${streamName(path)} to read it twice)`);
  }
  setSpooled(path, { file, size });
  return size;
}

/** The directory must exist and be one: checked before reading any of the stream. */
async function checkSpoolDirectory(dir: string, given: boolean): Promise<void> {
  const info = await stat(dir).catch(() => undefined);
  const flag = given ? '--temp-directory ' : 'the temporary directory ';
  if (info === undefined) throw new RangeError(`${flag}${dir}: no such directory (create it, or choose another)`);
  if (!info.isDirectory()) throw new RangeError(`${flag}${dir}: not a directory`);
}
