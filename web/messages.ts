/**
 * Messages from the library's readers and backend choice are the CLI's, and
 * name its options (`choose one with --text-field`). The page has no flags:
 * each is named here as the setting that does the same, as its label reads.
 */
const SETTINGS: readonly (readonly [RegExp, string])[] = [
  [/--text-field\b/g, 'the setting “Text field”'],
  [/--id-field\b/g, 'the setting “Id field”'],
  [/--skip-invalid\b/g, 'the setting “Malformed lines: skip and count them”'],
  [/--keep field:NAME\b|--keep\b/g, 'the setting “Keep in each cluster”'],
  [/--against\b/g, 'the reference set'],
  [/--backend webgpu\b/g, 'the signing backend “WebGPU, even a software adapter”'],
  [/--backend cpu\b/g, 'the signing backend “CPU only”'],
  [/--backend\b/g, 'the setting “Signing backend”'],
  [/--threshold\b/g, 'the setting “Similarity threshold”'],
  [/--verify\b/g, 'the setting “Verify candidate pairs by”'],
  [/--cluster-check\b/g, 'the setting “Cluster members must match”'],
  [/--bands\b|--rows\b/g, 'the setting “LSH bands × rows”'],
  [/--shingle\b/g, 'the setting “Shingles”'],
  [/--seed\b/g, 'the setting “Seed”'],
];

/** `message` with every CLI option it names replaced by the page's setting. */
export function forThisPage(message: string): string {
  let text = message;
  for (const [flag, setting] of SETTINGS) text = text.replace(flag, setting);
  return text;
}
