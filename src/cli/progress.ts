/**
 * Progress bars on standard error, only when it is a terminal and not --quiet.
 * Input size is known for files (bytes), not for standard input.
 */
import cliProgress from 'cli-progress';

export interface Progress {
  update(documents: number, bytes: number): void;
  stop(): void;
}

const SILENT: Progress = { update: () => undefined, stop: () => undefined };

export function startProgress(label: string, totalBytes: number | undefined, quiet: boolean): Progress {
  if (quiet || !process.stderr.isTTY) return SILENT;
  const started = performance.now();
  const bar = new cliProgress.SingleBar(
    {
      stream: process.stderr,
      format: totalBytes
        ? `${label} |{bar}| {percentage}% | {docs} docs | {mbps} MB/s | ETA {remaining}`
        : `${label} | {docs} docs | {mb} MB | {mbps} MB/s`,
      hideCursor: true,
      clearOnComplete: false,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(totalBytes ?? 1, 0, { docs: 0, mb: '0.0', mbps: '0.0', remaining: '…' });
  return {
    update(documents, bytes) {
      const seconds = (performance.now() - started) / 1000;
      bar.update(totalBytes ? Math.min(bytes, totalBytes) : 0, {
        docs: documents,
        mb: (bytes / 1e6).toFixed(1),
        mbps: (bytes / 1e6 / Math.max(seconds, 1e-3)).toFixed(1),
        // From the input read so far; cli-progress's own ETA misbehaves on bursty updates.
        remaining: totalBytes && bytes > 0 ? `${Math.ceil((seconds * Math.max(totalBytes - bytes, 0)) / bytes)}s` : '…',
      });
    },
    stop() {
      bar.stop();
    },
  };
}
