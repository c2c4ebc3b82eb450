/**
 * Progress bars on standard error, only when it is a terminal and not --quiet:
 * one per stage, over input bytes for passes over files (documents, MB/s and
 * an ETA; the size is unknown for standard input) or over items otherwise.
 */
import cliProgress from 'cli-progress';
import { fixed, thousands } from '../format.js';
import type { StageProgress } from '../pipeline/shared/config.js';

const SILENT: StageProgress = { update: () => undefined, stop: () => undefined };

/** `stream`: where the bar draws (standard error; a test gives its own terminal). */
export function stageBar(
  label: string,
  total: number | undefined,
  unit: 'bytes' | 'items',
  quiet: boolean,
  stream: NodeJS.WriteStream = process.stderr,
): StageProgress {
  if (quiet || !stream.isTTY) return SILENT;
  return unit === 'bytes' ? bytesBar(label.padEnd(9), total, stream) : itemsBar(label.padEnd(9), total, stream);
}

function bytesBar(label: string, totalBytes: number | undefined, stream: NodeJS.WriteStream): StageProgress {
  const started = performance.now();
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format: totalBytes
        ? `${label} |{bar}| {percentage}% | {docs} docs | {mbps} MB/s | ETA {remaining}`
        : `${label} | {docs} docs | {mb} MB | {mbps} MB/s`,
      hideCursor: true,
      clearOnComplete: false,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(totalBytes ?? 1, 0, { docs: '0', mb: '0.0', mbps: '0.0', remaining: '…' });
  return {
    update(documents, bytes = 0) {
      const seconds = (performance.now() - started) / 1000;
      bar.update(totalBytes ? Math.min(bytes, totalBytes) : 0, {
        docs: thousands(documents),
        mb: fixed(bytes / 1e6, 1),
        mbps: fixed(bytes / 1e6 / Math.max(seconds, 1e-3), 1),
        // From the input read so far; cli-progress's own ETA misbehaves on bursty updates.
        remaining:
          totalBytes && bytes > 0
            ? `${thousands(Math.ceil((seconds * Math.max(totalBytes - bytes, 0)) / bytes))}s`
            : '…',
      });
    },
    stop: () => bar.stop(),
  };
}

function itemsBar(label: string, total: number | undefined, stream: NodeJS.WriteStream): StageProgress {
  if (total === undefined || total === 0) return SILENT;
  const bar = new cliProgress.SingleBar(
    { stream, format: `${label} |{bar}| {percentage}% | {done}/{all}`, hideCursor: true },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0, { done: '0', all: thousands(total) });
  return {
    update: (done) => bar.update(Math.min(done, total), { done: thousands(Math.min(done, total)) }),
    stop: () => bar.stop(),
  };
}
