/**
 * `gpudedup query DIR DOCS…`: the indexed documents similar to each document, as JSON Lines
 * (src/pipeline/index/indexQuery.ts).
 */
import { checkIsIndex } from '../pipeline/index/indexOutputs.js';
import type { Command } from 'commander';
import { counted } from '../format.js';
import { openIndex } from '../lshIndex/diskIndex.js';
import { queryDocuments, queryPreflight } from '../pipeline/index/indexQuery.js';
import { cliHooks, openOptionsFrom, readFrom } from './indexOptions.js';
import { addInputOptions, tableOption, type InputCliOptions, type SignatureCliOptions } from './options.js';

type QueryCliOptions = InputCliOptions &
  Pick<SignatureCliOptions, 'backend' | 'threads'> & {
    top?: number;
    containment?: number;
    rerank?: 'exact' | 'estimate';
    out: string;
  };

export function registerQueryCommand(program: Command): void {
  const command = program
    .command('query')
    .description(
      'for each document, the indexed documents at or above the index threshold (or the --top K most similar, or ' +
        'those containing it: --containment C), with ids and similarities, as JSON Lines',
    )
    .argument('<dir>', 'the index directory')
    .argument(
      '<docs...>',
      'documents to look up: JSONL, Parquet or plain-text files, directories, or - for standard input (JSON Lines)',
    )
    .addOption(
      tableOption(
        'top',
        '--top <k>',
        'the K most similar indexed documents, threshold or not (LSH Forest: each at Jaccard ≥ 0.3 missed with ' +
          'probability ≤ 0.05)',
      ),
    )
    .addOption(
      tableOption(
        'containment',
        '--containment <c>',
        "the indexed documents that hold at least this share of each document's shingles, |Q ∩ X| / |Q| (verified " +
          'exactly where the index stores sets)',
      ),
    )
    .addOption(
      tableOption(
        'rerank',
        '--rerank <how>',
        'with --top: rank by exact Jaccard of the stored sets (default where stored) or by the estimate',
      ),
    )
    .option('-o, --out <file>', 'write the JSON Lines here (atomically) instead of standard output', '-')
    .addOption(
      tableOption('backend', '--backend <name>', 'signing backend; auto = WebGPU if Dawn finds an adapter, else CPU'),
    )
    .addOption(tableOption('threads', '--threads <n>', 'worker threads of the CPU backend (default: one per core)'));
  addInputOptions(command).action(runQueryCommand);
}

async function runQueryCommand(dir: string, docs: string[], options: QueryCliOptions): Promise<void> {
  const config = {
    dir,
    inputs: docs,
    read: readFrom(options),
    top: options.top,
    containment: options.containment,
    rerank: options.rerank,
    out: options.out,
  };
  const corpus = await queryPreflight(config);
  await checkIsIndex(dir);
  const index = await openIndex(dir, openOptionsFrom(options, true));
  try {
    const summary = await queryDocuments(index, config, corpus, cliHooks(options.quiet));
    if (!options.quiet) {
      process.stderr.write(
        `queried ${counted(summary.documents, 'document')}: ` +
          `${counted(summary.matched, 'with a match', 'with matches')}, ` +
          `${counted(summary.matches, 'match', 'matches')} in ${summary.seconds.toFixed(2)} s\n`,
      );
    }
  } finally {
    await index.close();
  }
}
