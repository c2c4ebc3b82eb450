/**
 * Messages from the library's readers and backend choice are the CLI's, and
 * name its options (`choose one with --text-field`). The page has no flags:
 * each is named here as the setting that does the same, as its label reads.
 */
const SETTINGS: readonly (readonly [string, string])[] = [
  ['--text-field', 'the setting “Text field”'],
  ['--id-field', 'the setting “Id field”'],
  ['--skip-invalid', 'the setting “Malformed lines: skip and count them”'],
  ['--keep field:NAME', 'the setting “Keep in each cluster”'],
  ['--keep', 'the setting “Keep in each cluster”'],
  ['--against', 'the reference set'],
  ['--backend webgpu', 'the signing backend “WebGPU, even a software adapter”'],
  ['--backend cpu', 'the signing backend “CPU only”'],
  ['--backend', 'the setting “Signing backend”'],
  ['--threshold', 'the setting “Similarity threshold”'],
  ['--verify', 'the setting “Verify candidate pairs by”'],
  ['--cluster-check', 'the setting “Cluster members must match”'],
  ['--bands', 'the setting “LSH bands × rows”'],
  ['--rows', 'the setting “LSH bands × rows”'],
  ['--shingle', 'the setting “Shingles”'],
  ['--seed', 'the setting “Seed”'],
  ['--scheme', 'the signing scheme'],
];

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A flag as a word of its own: not inside a file name such as `my--text-field.jsonl`. */
const PATTERNS = SETTINGS.map(
  ([flag, setting]) => [new RegExp(`(?<![\\w.-])${escapeRegExp(flag)}(?![\\w.-])`, 'g'), setting] as const,
);

/** `message` with every CLI option it names replaced by the page's setting. */
export function forThisPage(message: string): string {
  let text = message;
  for (const [flag, setting] of PATTERNS) text = text.replace(flag, setting);
  return text;
}
