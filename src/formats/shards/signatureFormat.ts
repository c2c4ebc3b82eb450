/** The name and version every gpudedup signature file records (the .npy sidecar, the Parquet key-value metadata). */
export const SIDECAR_FORMAT = 'gpudedup-signatures';
export const SIDECAR_VERSION = 1;

/**
 * The read options that change which rows a corpus gives: recorded in the
 * sidecar, and a resume or `dedup --signatures` with other ones is refused.
 */
export interface RowOptions {
  readonly textField: string;
  readonly idField: string;
  readonly skipInvalid: boolean;
}

export function rowOptionsOf(read: RowOptions): RowOptions {
  return { textField: read.textField, idField: read.idField, skipInvalid: read.skipInvalid };
}

/** "--text-field: text vs body" for each option that differs (file first). */
export function rowOptionDifferences(file: RowOptions | undefined, run: RowOptions): string[] {
  if (file === undefined) return []; // a sidecar from before they were recorded
  const flags: [keyof RowOptions, string][] = [
    ['textField', '--text-field'],
    ['idField', '--id-field'],
    ['skipInvalid', '--skip-invalid'],
  ];
  return flags.filter(([key]) => file[key] !== run[key]).map(([key, flag]) => `${flag}: ${file[key]} vs ${run[key]}`);
}
