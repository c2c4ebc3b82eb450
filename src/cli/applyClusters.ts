/**
 * `gpudedup dedup CORPUS --clusters-from FILE -o kept.jsonl`: the dedup command's mode that applies a clusters table.
 */
import { counted, thousands } from '../format.js';
import { runApplyClusters } from '../pipeline/cluster/applyClusters.js';
import { readOptionsFrom, type InputCliOptions } from './options.js';
import { stageBar } from './progress.js';

export async function applyClustersCommand(
  inputs: string[],
  options: InputCliOptions & { clustersFrom?: string; out?: string },
): Promise<void> {
  if (options.out === undefined) throw new RangeError('--clusters-from writes the kept documents: give -o');
  if (inputs.length === 0)
    throw new RangeError('--clusters-from needs the corpus as input: the kept documents are copied from it');
  const s = await runApplyClusters(
    { inputs, read: readOptionsFrom(options, () => undefined), clustersFrom: options.clustersFrom!, out: options.out },
    {
      note: (message) => void (options.quiet || process.stderr.write(`${message}\n`)),
      stage: (label, total, unit) => stageBar(label, total, unit, options.quiet),
    },
  );
  if (options.quiet) return;
  const int = thousands;
  (options.out === '-' ? process.stderr : process.stdout).write(
    `applied ${options.clustersFrom} to ${counted(s.documents, 'document')} → ${options.out}\n  clusters  ` +
      `${int(s.clusters)}\n  kept      ${int(s.kept)}\n  removed   ${int(s.documents - s.kept)}\n  time      ` +
      `${s.seconds.toFixed(2)} s\n`,
  );
}
