/**
 * The tab's span search refuses text past what it holds, in one line, before
 * searching (the worker's own function, in Node, with a small limit: the real
 * one is 256 MiB); and with a limit the files fit, it searches them.
 */
import { describe, expect, it } from 'vitest';
import { runSubstringsInTab, TAB_TEXT_LIMIT } from '../../web/substringsRun.js';

const settings = {
  minLength: 20,
  cut: 'later' as const,
  minRemaining: 1,
  textField: 'text',
  idField: 'id',
  skipInvalid: false,
};

/** A JSON Lines file of `n` documents, each repeating one sentence (≈ 100 bytes of text each). */
function corpus(n: number): File {
  const lines = Array.from({ length: n }, (_, i) =>
    JSON.stringify({ id: `d${i}`, text: `Document ${i}: a sentence every document repeats word for word, é.` }),
  );
  return new File([lines.join('\n') + '\n'], 'corpus.jsonl');
}

describe('the tab’s span search', () => {
  it('refuses files whose text passes the limit in one line naming it, without searching', async () => {
    const stages: string[] = [];
    const run = runSubstringsInTab([corpus(200)], settings, (p) => stages.push(p.stage), 10_000);
    await expect(run).rejects.toThrow(
      /^the files hold more than 10,000 bytes of text \(0 MiB\), more than this tab holds to search for repeated spans: run gpudedup substrings on them/,
    );
    expect(stages).not.toContain('searching');
    expect(TAB_TEXT_LIMIT).toBe(256 * 1024 * 1024);
  });

  it('searches files under the limit: every later copy of the sentence cut', async () => {
    const { summary, downloads } = await runSubstringsInTab([corpus(200)], settings, () => undefined, 100_000);
    expect(summary.report.documents).toBe(200);
    expect(summary.report.documentsTouched).toBe(199);
    const lines = (await downloads.edited.text()).trim().split('\n');
    expect(lines).toHaveLength(200);
    expect(JSON.parse(lines[1]).text).toBe('Document 1'); // ": a sentence…" repeats from document 0;
  });
});
