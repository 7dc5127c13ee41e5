'use strict';
// The worker holds celint, compiled to WebAssembly (gen/celint.wasm), and
// answers the page's calls one at a time, so that a long lint never
// blocks typing. A message {id, fn, args} is answered {id, result} or
// {id, error}; the first message says {ready: versions} or {failed}.
importScripts('gen/wasm_exec.js');

async function start() {
  const go = new Go();
  const { instance } = await WebAssembly.instantiateStreaming(fetch('gen/celint.wasm'), go.importObject);
  go.run(instance);
  if (typeof self.celint !== 'object') throw new Error(self.celintError || 'celint did not start');
  postMessage({ ready: self.celint.versions() });
}

const started = start().catch((e) => postMessage({ failed: String(e && e.message || e) }));

onmessage = async (ev) => {
  await started;
  const { id, fn, args } = ev.data;
  const t0 = performance.now();
  try {
    const result = self.celint[fn](...args);
    if (result instanceof Error) throw result;
    postMessage({ id, result, ms: performance.now() - t0 });
  } catch (e) {
    postMessage({ id, error: String(e && e.message || e), ms: performance.now() - t0 });
  }
};
