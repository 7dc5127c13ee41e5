'use strict';
// The playground page: an editor (a textarea over a layer that marks the
// findings), the list of findings, the spec selector and a rule page
// viewer. celint runs in a worker (worker.js); this page only draws.

const $ = (id) => document.getElementById(id);
const text = $('text'), overlay = $('overlay'), gutter = $('gutter');
const statusEl = $('status'), list = $('diagnostics'), summary = $('summary');
const specSel = $('spec'), exampleSel = $('example'), formatSel = $('format');

// Texts above this many UTF-16 units are not mirrored in the marking
// layer (the list still shows their findings).
const MARK_LIMIT = 1 << 20;
// The worker restarts when one call takes longer than this.
const CALL_TIMEOUT_MS = 60000;

const state = {
  worker: null, ready: null, calls: new Map(), nextId: 1,
  maxBytes: 16 << 20, versions: null,
  generation: 0, lintedGeneration: -1, busy: false, timer: 0, lastInput: 0,
  result: null, pageMode: 'markdown', page: null,
};

function startWorker() {
  state.worker = new Worker('worker.js');
  state.ready = new Promise((resolve, reject) => {
    state.worker.onmessage = (ev) => {
      const m = ev.data;
      if (m.ready) { resolve(m.ready); return; }
      if (m.failed) { reject(new Error(m.failed)); return; }
      const call = state.calls.get(m.id);
      if (!call) return;
      state.calls.delete(m.id);
      clearTimeout(call.timer);
      if (m.error !== undefined) call.reject(new Error(m.error)); else call.resolve(m.result);
    };
  });
}

// call runs celint.fn(...args) in the worker.
async function call(fn, ...args) {
  await state.ready;
  return new Promise((resolve, reject) => {
    const id = state.nextId++;
    const timer = setTimeout(() => {
      state.calls.delete(id);
      state.worker.terminate();
      setStatus('error', `celint took more than ${CALL_TIMEOUT_MS / 1000} s; restarting it`);
      startWorker();
      reject(new Error('timed out'));
    }, CALL_TIMEOUT_MS);
    state.calls.set(id, { resolve, reject, timer });
    state.worker.postMessage({ id, fn, args });
  });
}

function setStatus(kind, msg) {
  statusEl.dataset.state = kind;
  statusEl.textContent = msg;
}

// utf8Length returns the UTF-8 length of s, or a length past limit
// without counting when s has more UTF-16 units than limit.
function utf8Length(s, limit) {
  if (s.length > limit) return s.length;
  return new TextEncoder().encode(s).length;
}

function options() {
  const o = { spec: specSel.value };
  if (formatSel.value) o.name = 'playground.' + formatSel.value;
  return o;
}

// schedule lints the text soon after the last keystroke.
function schedule() {
  state.generation++;
  state.lastInput = performance.now();
  clearTimeout(state.timer);
  state.timer = setTimeout(lintNow, 40);
}

async function lintNow() {
  if (state.busy) return; // the answer in flight lints again
  const gen = state.generation, src = text.value;
  const size = utf8Length(src, state.maxBytes);
  if (size > state.maxBytes) {
    state.result = null;
    gutter.replaceChildren();
    overlay.replaceChildren();
    list.textContent = '';
    summary.textContent = '';
    setStatus('too-large', `too large: ${(size / 1048576).toFixed(1)} MiB; celint reads descriptions of at most ${(state.maxBytes / 1048576).toFixed(0)} MiB`);
    state.lintedGeneration = gen;
    document.body.dataset.linted = String(gen);
    return;
  }
  state.busy = true;
  setStatus('linting', 'linting…');
  let res, err;
  try { res = await call('lint', src, options()); } catch (e) { err = e; }
  state.busy = false;
  if (state.generation !== gen) { lintNow(); return; }
  if (err) { setStatus('error', err.message); return; }
  state.result = res;
  state.lintedGeneration = gen;
  draw(res, src);
  const ms = performance.now() - state.lastInput;
  const with_ = res.rulesets.length ? `with ${res.rulesets.join(', ')}` : 'no ruleset';
  setStatus('done', `${with_} · ${ms.toFixed(0)} ms after the last edit`);
  statusEl.dataset.ruleset = res.rulesets[0] || '';
  statusEl.dataset.latency = ms.toFixed(1);
  document.body.dataset.linted = String(gen);
}

function draw(res, src) {
  const c = res.counts;
  summary.textContent = res.diagnostics.length === 0 ? 'No problems.'
    : `${plural(res.diagnostics.length, 'problem')}: ${plural(c.errors, 'error')}, ${plural(c.warnings, 'warning')}, ${plural(c.infos, 'info')}`;
  const o = res.omitted;
  if (o.errors + o.warnings + o.infos > 0) summary.textContent += ` (${o.errors + o.warnings + o.infos} more not shown)`;
  list.textContent = '';
  for (const d of res.diagnostics) {
    const li = document.createElement('li');
    li.dataset.index = d.index;
    li.dataset.id = d.id;
    li.dataset.line = d.line;
    const sev = document.createElement('span');
    sev.className = 'sev ' + d.severity;
    sev.textContent = d.ruleError ? 'rule error' : d.severity;
    const at = document.createElement('span');
    at.className = 'at';
    at.textContent = `${d.line}:${d.column}`;
    const id = document.createElement('button');
    id.type = 'button';
    id.className = 'id';
    id.textContent = d.id;
    id.title = 'Show the rule’s page';
    id.addEventListener('click', (ev) => { ev.stopPropagation(); explain(d.id, res.rulesets[0] || ''); });
    li.append(sev, at, id);
    if (d.fixable) {
      const fix = document.createElement('button');
      fix.type = 'button';
      fix.className = 'fix';
      fix.textContent = 'Apply fix';
      fix.title = d.fixTitle || '';
      fix.addEventListener('click', (ev) => { ev.stopPropagation(); applyFix(d.index); });
      li.append(fix);
    }
    const msg = document.createElement('span');
    msg.className = 'msg';
    msg.textContent = d.message;
    li.append(msg);
    li.addEventListener('click', () => reveal(d));
    list.append(li);
  }
  drawMarks(res, src);
}

// plural returns "n word", with an s unless n is 1.
function plural(n, word) {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

const rank = { error: 3, warning: 2, info: 1 };

// drawMarks draws the marking layer and the gutter: a line's background
// and marker by its worst finding, a wavy line under each finding's range.
function drawMarks(res, src) {
  const lines = src.split(/\r\n|\r|\n/);
  const worst = new Map(), ranges = new Map();
  for (const d of res ? res.diagnostics : []) {
    const sev = d.ruleError ? 'error' : d.severity;
    const l = d.start.line;
    if (!worst.has(l) || rank[sev] > rank[worst.get(l)]) worst.set(l, sev);
    if (!ranges.has(l)) ranges.set(l, []);
    ranges.get(l).push({ from: d.start.character, to: Math.max(d.end.character, d.start.character + 1), sev });
  }
  const big = src.length > MARK_LIMIT;
  const g = document.createDocumentFragment(), o = document.createDocumentFragment();
  const n = big ? Math.min(lines.length, 100000) : lines.length;
  for (let i = 0; i < n; i++) {
    const num = document.createElement('span');
    num.textContent = String(i + 1);
    if (worst.has(i)) num.className = 'm-' + worst.get(i);
    g.append(num);
    if (big) continue;
    const div = document.createElement('div');
    if (worst.has(i)) div.className = 'l-' + worst.get(i);
    appendMarked(div, lines[i], ranges.get(i) || []);
    o.append(div);
  }
  gutter.replaceChildren(g);
  overlay.replaceChildren(o);
  syncScroll();
}

// appendMarked appends a line's text, its ranges wrapped in <mark>s of
// the worst severity that covers them.
function appendMarked(div, line, rs) {
  if (rs.length === 0) { div.textContent = line || '\u200b'; return; }
  const cuts = new Set([0, line.length]);
  for (const r of rs) { cuts.add(Math.min(r.from, line.length)); cuts.add(Math.min(r.to, line.length)); }
  const points = [...cuts].sort((a, b) => a - b);
  for (let k = 0; k + 1 < points.length; k++) {
    const a = points[k], b = points[k + 1];
    let sev = null;
    for (const r of rs) if (r.from <= a && b <= r.to && (!sev || rank[r.sev] > rank[sev])) sev = r.sev;
    const piece = line.slice(a, b);
    if (sev) { const m = document.createElement('mark'); m.className = sev; m.textContent = piece; div.append(m); }
    else div.append(piece);
  }
  if (line.length === 0) div.append('\u200b');
}

function syncScroll() {
  overlay.scrollTop = text.scrollTop;
  overlay.scrollLeft = text.scrollLeft;
  gutter.scrollTop = text.scrollTop;
}

// reveal selects a finding's range in the editor and scrolls to it.
function reveal(d) {
  text.focus();
  text.setSelectionRange(d.start.offset, d.end.offset);
  const lh = parseFloat(getComputedStyle(text).lineHeight) || 18;
  text.scrollTop = Math.max(0, d.start.line * lh - text.clientHeight / 3);
  syncScroll();
}

// applyFix replaces the text by the one a finding's fix makes, as one
// edit the browser can undo: only the part that changed.
async function applyFix(index) {
  const src = text.value;
  let after;
  try { after = await call('fix', src, { ...options(), index }); } catch (e) { setStatus('error', 'fix: ' + e.message); return; }
  if (text.value !== src) return; // typed meanwhile: the finding may have moved
  let a = 0;
  while (a < src.length && a < after.length && src[a] === after[a]) a++;
  let b = 0;
  while (b < src.length - a && b < after.length - a && src[src.length - 1 - b] === after[after.length - 1 - b]) b++;
  text.focus();
  text.setSelectionRange(a, src.length - b);
  const inserted = after.slice(a, after.length - b);
  if (!document.execCommand('insertText', false, inserted)) text.setRangeText(inserted, a, src.length - b, 'end');
  if (text.value !== after) text.value = after;
  schedule();
}

async function explain(id, spec) {
  let page;
  try { page = await call('explain', id, { spec }); } catch (e) { setStatus('error', e.message); return; }
  state.page = page;
  $('page-title').textContent = `${page.id} (${page.ruleset})`;
  showPage();
  $('page').hidden = false;
  $('page').scrollIntoView({ block: 'nearest' });
}

function showPage() {
  const body = $('page-body'), p = state.page;
  if (state.pageMode === 'text') {
    const pre = document.createElement('pre');
    pre.textContent = p.text;
    body.replaceChildren(pre);
    $('page-mode').textContent = 'page';
  } else {
    body.replaceChildren(renderMarkdown(p.markdown));
    $('page-mode').textContent = 'plain text';
  }
}

async function listRules() {
  const ul = $('rules');
  let rules;
  try { rules = await call('rules', specSel.value); } catch (e) { setStatus('error', e.message); return; }
  ul.textContent = '';
  for (const r of rules) {
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = r.id;
    b.title = r.title;
    b.addEventListener('click', () => explain(r.id, r.ruleset));
    li.append(b, ` ${r.level} · ${r.ruleset}`);
    ul.append(li);
  }
  $('rules-box').querySelector('summary').textContent = `Rules (${rules.length})`;
}

// refuseLarge keeps a paste or a drop that would make the text larger
// than celint reads out of the editor: a textarea of many megabytes takes
// the browser seconds to lay out, so such a text never lands in it.
function refuseLarge(ev, data) {
  if (!data) return;
  const pasted = data.getData('text/plain');
  const kept = text.value.length - (text.selectionEnd - text.selectionStart);
  const size = utf8Length(pasted, state.maxBytes) + kept;
  if (size <= state.maxBytes) return;
  ev.preventDefault();
  setStatus('too-large', `too large: ${(size / 1048576).toFixed(1)} MiB; celint reads descriptions of at most ${(state.maxBytes / 1048576).toFixed(0)} MiB (not pasted)`);
}

async function main() {
  startWorker();
  text.addEventListener('input', schedule);
  text.addEventListener('paste', (ev) => refuseLarge(ev, ev.clipboardData));
  text.addEventListener('drop', (ev) => refuseLarge(ev, ev.dataTransfer));
  text.addEventListener('scroll', syncScroll);
  specSel.addEventListener('change', () => { schedule(); if ($('rules-box').open) listRules(); });
  formatSel.addEventListener('change', schedule);
  $('rules-box').addEventListener('toggle', () => { if ($('rules-box').open) listRules(); });
  $('page-close').addEventListener('click', () => { $('page').hidden = true; });
  $('page-mode').addEventListener('click', () => { state.pageMode = state.pageMode === 'text' ? 'markdown' : 'text'; showPage(); });

  const examples = await fetch('gen/examples.json').then((r) => r.json()).catch(() => []);
  for (const ex of examples) {
    const o = document.createElement('option');
    o.value = ex.name;
    o.textContent = ex.name;
    exampleSel.append(o);
  }
  exampleSel.addEventListener('change', () => {
    const ex = examples.find((e) => e.name === exampleSel.value);
    if (!ex) return;
    text.value = ex.text;
    formatSel.value = ex.name.endsWith('.json') ? 'json' : 'yaml';
    text.scrollTop = 0;
    schedule();
  });
  text.addEventListener('input', () => { exampleSel.value = ''; });
  if (examples.length > 0) {
    exampleSel.value = examples[0].name;
    text.value = examples[0].text;
    formatSel.value = examples[0].name.endsWith('.json') ? 'json' : 'yaml';
  }
  drawMarks(null, text.value);

  let v;
  try { v = await state.ready; } catch (e) { setStatus('error', 'celint did not start: ' + e.message); return; }
  state.versions = v;
  state.maxBytes = Math.max(...v.rulesets.map((r) => r.maxBytes));
  for (const rs of v.rulesets) {
    const o = document.createElement('option');
    o.value = rs.spec;
    o.textContent = rs.spec + (rs.prerelease ? ' (pre-release)' : '');
    specSel.append(o);
  }
  $('versions').textContent = `celint ${v.celint} (${v.go}, WebAssembly) · rulesets ${v.rulesets.map((r) => r.spec).join(', ')} · ` +
    'everything runs in this page: nothing you type is sent anywhere.';
  document.body.dataset.ready = 'true';
  schedule();
}

main();
