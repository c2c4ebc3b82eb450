/**
 * Builds the browser app from web/ into dist-web/. The app imports the
 * library's TypeScript from ../src and its WGSL from ../shaders (`?raw`).
 */
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/**
 * The built page forbids itself any network access (connect-src 'none') and
 * loads only its own files. Build only: the dev server needs a WebSocket for
 * hot reload.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

function contentSecurityPolicy(): Plugin {
  return {
    name: 'gpudedup-content-security-policy',
    apply: 'build',
    transformIndexHtml: () => [
      {
        tag: 'meta',
        attrs: { 'http-equiv': 'Content-Security-Policy', content: CONTENT_SECURITY_POLICY },
        injectTo: 'head-prepend',
      },
    ],
  };
}

const ISOLATION_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  // Relative asset URLs: dist-web/ works from any path, or opened from a static host's subfolder.
  base: './',
  plugins: [contentSecurityPolicy()],
  // Cross-origin isolated (SharedArrayBuffer): the stage workers then read the sets and rows where they lie and decide
  // pairs too (web/stageWorker.ts). A static host serves the same page without these headers; it then bands there.
  server: { fs: { allow: [repoRoot] }, headers: ISOLATION_HEADERS },
  preview: { headers: ISOLATION_HEADERS },
  // The dedup worker is a module worker (new Worker(new URL(...), { type: 'module' })), bundled with its imports.
  worker: { format: 'es' },
  build: {
    outDir: fileURLToPath(new URL('../dist-web', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // The preload polyfill uses fetch(), which the policy above forbids (and no browser with WebGPU needs it).
    modulePreload: { polyfill: false },
  },
});
