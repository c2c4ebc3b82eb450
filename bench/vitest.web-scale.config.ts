// `npm run bench:web`: the browser app on a large generated JSONL (bench/web-scale.browser.ts), not part of `npm test`.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { include: ['bench/web-scale.browser.ts'], testTimeout: 3_600_000, hookTimeout: 600_000 },
});
