// `npm run bench:tab-downloads`: the tab's writing pass in Node against the CLI's (bench/tabDownloads.bench.ts), not part of `npm test`.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { include: ['bench/tabDownloads.bench.ts'], testTimeout: 3_600_000, hookTimeout: 600_000 },
});
