// Vite's `?raw` suffix imports a file's text as the default export (browserShaders.ts).
declare module '*.wgsl?raw' {
  const source: string;
  export default source;
}
