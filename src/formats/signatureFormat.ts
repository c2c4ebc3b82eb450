/** The name and version every gpudedup signature file records (the .npy sidecar, the Parquet key-value metadata). */
export const SIDECAR_FORMAT = 'gpudedup-signatures';
export const SIDECAR_VERSION = 1;
