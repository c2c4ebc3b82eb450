// Records every file a Node process loads, for the device check's bundle (scripts/device/prepare.sh
// packs exactly these) and its test (the bundle holds nothing else). Preloaded with
//   NODE_OPTIONS="--require /abs/path/trace-loads.cjs" GPUDEDUP_TRACE_LOADS=/abs/list.txt
// it appends one absolute path per line: ES modules as they resolve (a module.register hook, in
// the loader thread), CommonJS files and native addons as they resolve, files opened for reading
// through node:fs or found by fs.existsSync, and at exit every shared object mapped into the process (/proc/self/maps:
// dawn.node, libvulkan.so.1) and the Node binary itself. Worker threads inherit NODE_OPTIONS, so they are traced too.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const Module = require('node:module');
const { pathToFileURL } = require('node:url');

const list = process.env.GPUDEDUP_TRACE_LOADS;
if (list && path.isAbsolute(list)) {
  const seen = new Set();
  const log = (file) => {
    if (typeof file !== 'string' || !path.isAbsolute(file) || seen.has(file)) return;
    seen.add(file);
    fs.appendFileSync(list, `${file}\n`);
  };

  const resolveFilename = Module._resolveFilename;
  Module._resolveFilename = function (...args) {
    const resolved = resolveFilename.apply(this, args);
    log(resolved);
    return resolved;
  };

  const hook = `
    import { appendFileSync } from 'node:fs';
    import { fileURLToPath } from 'node:url';
    export async function resolve(specifier, context, next) {
      const result = await next(specifier, context);
      if (result.url.startsWith('file:')) appendFileSync(${JSON.stringify(list)}, fileURLToPath(result.url) + '\\n');
      return result;
    }`;
  Module.register(`data:text/javascript,${encodeURIComponent(hook)}`, pathToFileURL(__filename));

  // Data files (the sample corpus, shaders, package.json, the corpus itself): the reading entry points.
  const asPath = (p) => (typeof p === 'string' ? path.resolve(p) : p instanceof URL ? require('node:url').fileURLToPath(p) : undefined);
  const wrap = (object, name) => {
    const original = object[name];
    object[name] = function (file, ...rest) {
      log(asPath(file));
      return original.call(this, file, ...rest);
    };
  };
  for (const name of ['readFileSync', 'readFile', 'openSync', 'open', 'createReadStream']) wrap(fs, name);
  for (const name of ['readFile', 'open']) wrap(fs.promises, name);
  // A file found by a probe is needed too: a worker pool checks that its script exists before any worker starts.
  const existsSync = fs.existsSync;
  fs.existsSync = function (file) {
    const found = existsSync.call(this, file);
    if (found) log(asPath(file));
    return found;
  };
  Module.syncBuiltinESMExports();

  process.on('exit', () => {
    log(process.execPath);
    try {
      for (const line of fs.readFileSync('/proc/self/maps', 'utf8').split('\n')) {
        const at = line.indexOf('/');
        if (at > 0 && /\.so(\.\d+)*$|\.node$/.test(line)) log(line.slice(at));
      }
    } catch {
      // no /proc: the modules above are still listed
    }
  });
}
