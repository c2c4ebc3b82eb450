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
  ['--max-hamming', 'the setting “Max Hamming distance (SimHash)”'],
  ['--weights', 'the setting “Shingle weights”'],
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

/** A rule of the options table that asks for a number ("an integer from 1 to 4096", "a number strictly between…"). */
const NUMERIC_RULE = /^an? (positive )?(integer|number)\b/;

/**
 * An options-table message ("minLength must be an integer from 1 to 1048576, got 0") as the page says it: the field's
 * label, as the user sees it, for the option's code name, and a plain sentence for a field left empty or holding no
 * number, where the table would say `got ""` or `got NaN`. `text` is the field's value; `badInput`, that the browser
 * could not read a number field's entry as a number (its value is then empty). Other messages go through forThisPage.
 */
export function fieldMessage(message: string, label: string, text: string, badInput = false): string {
  const parsed = /^[A-Za-z]+ must be (.+), got (.*)$/s.exec(message);
  if (parsed === null) return forThisPage(message);
  const [, rule, got] = parsed;
  const numeric = NUMERIC_RULE.test(rule);
  if (badInput || (numeric && text.trim() !== '' && Number.isNaN(Number(text))))
    return `“${label}” is not a number: give ${rule}.`;
  if (text.trim() === '') return `“${label}” is empty: give ${rule}.`;
  return `“${label}” must be ${rule}, got ${got === 'NaN' ? JSON.stringify(text) : got}.`;
}
