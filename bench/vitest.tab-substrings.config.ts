// `npm run bench:tab-substrings`: the tab's repeated-span search at scale against the CLI (bench/tab-substrings.browser.ts), not part of `npm test`.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { include: ['bench/tab-substrings.browser.ts'], testTimeout: 3_600_000, hookTimeout: 600_000 },
});
