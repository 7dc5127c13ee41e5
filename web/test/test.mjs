// End-to-end test of the celint playground in a real browser: it builds
// celint with the playground (go generate ./web, go build), starts
// `celint serve` on a free loopback port and drives Debian's Chromium
// with playwright-core (no browser download). Run it from web/test:
//
//	npm ci && node test.mjs
//
// CHROMIUM names the browser (default: chromium or chromium-browser on
// PATH). Without one the test skips, with a message, unless CI is set.
import { spawn, execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync, readFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const output = path.join(here, 'output');
mkdirSync(output, { recursive: true });

function which(name) {
  for (const dir of (process.env.PATH || '').split(path.delimiter)) {
    const p = path.join(dir, name);
    if (dir && existsSync(p)) return p;
  }
  return null;
}

const browserPath = process.env.CHROMIUM || which('chromium') || which('chromium-browser');
if (!browserPath) {
  if (process.env.CI) { console.error('FAIL: chromium is not installed (CI is set)'); process.exit(1); }
  console.log('SKIP: chromium is not installed (apt-get install chromium); the playground was not tested in a browser');
  process.exit(0);
}
const { chromium } = await import('playwright-core');

let failures = 0;
function check(ok, what) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures++;
}

// Build celint with the playground in it.
console.log('== go generate ./web && go build ./cmd/celint');
const work = mkdtempSync(path.join(tmpdir(), 'celint-playground-'));
const bin = path.join(work, 'celint');
execFileSync('go', ['generate', './web'], { cwd: root, stdio: 'inherit' });
execFileSync('go', ['build', '-o', bin, './cmd/celint'], { cwd: root, stdio: 'inherit' });

// Start celint serve on a free port; it prints the page's URL.
const server = spawn(bin, ['serve', '--addr', '127.0.0.1:0'], { stdio: ['ignore', 'pipe', 'inherit'] });
const base = await new Promise((resolve, reject) => {
  let out = '';
  server.stdout.on('data', (b) => {
    out += b;
    const m = out.match(/http:\/\/127\.0\.0\.1:\d+\//);
    if (m) resolve(m[0]);
  });
  server.on('exit', (code) => reject(new Error(`celint serve exited with ${code}: ${out}`)));
  setTimeout(() => reject(new Error('celint serve printed no URL in 30 s')), 30000);
});
console.log('== celint serve on', base);

const browser = await chromium.launch({ executablePath: browserPath, args: ['--no-sandbox'] });
const requests = [];
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('request', (r) => requests.push(r.url()));
  const consoleErrors = [];
  page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
  page.on('pageerror', (e) => consoleErrors.push(String(e)));

  let t0 = Date.now();
  await page.goto(base);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 180000 });
  await waitLinted(page);
  console.log(`celint ready and the first example linted in ${Date.now() - t0} ms`);

  // A faulty description, typed: 0.8.0 without $schema (a fixable finding).
  const faulty = 'mcpdesc: "0.8.0"\ninfo:\n  name: notes\n  version: "1"\nprotocolVersions: ["2025-11-25"]\ntransports:\n  - {type: stdio, command: notes}\n';
  await page.fill('#text', '');
  await page.focus('#text');
  await page.keyboard.type(faulty);
  const id = 'mcpdesc.document.schema-reference/missing';
  const item = `#diagnostics li[data-id="${id}"][data-line="1"]`;
  await page.waitForSelector(item, { timeout: 60000 });
  check(true, `typed description: ${id} at line 1`);
  check(await page.locator('#gutter span.m-warning').count() > 0, 'a gutter marker for the finding');

  await page.click(`${item} button.fix`);
  await page.waitForSelector(item, { state: 'detached', timeout: 60000 });
  const fixed = await page.inputValue('#text');
  check(fixed.includes('$schema') && fixed.includes('name: notes'), 'apply fix: $schema added, the rest kept, the finding gone');
  await page.keyboard.press('Control+Z');
  await page.waitForSelector(item, { timeout: 60000 });
  check(!(await page.inputValue('#text')).includes('$schema'), 'the fix is one edit undo takes back');

  // A 0.7.0 example is linted with the 0.7.0 ruleset.
  const example = 'testdata/mcpdesc-0.7.0/minimal.mcpdesc.yaml';
  await page.selectOption('#example', example);
  await page.waitForSelector('#status[data-ruleset="mcpdesc@v0.7.0"]', { timeout: 60000 });
  check(true, `${example}: mcpdesc@v0.7.0 chosen`);
  // Pinning a spec lints with it whatever the document declares.
  await page.selectOption('#spec', 'mcpdesc@v0.8.0');
  await page.waitForSelector('#status[data-ruleset="mcpdesc@v0.8.0"]', { timeout: 60000 });
  check(true, 'spec pinned: mcpdesc@v0.8.0');
  await page.selectOption('#spec', '');

  // A rule's page.
  await page.selectOption('#example', 'examples/notes-server.mcpdesc.yaml');
  await page.waitForSelector('#diagnostics li[data-id^="mcpdesc.elicitation.form-schema.consistency"]', { timeout: 60000 });
  await page.click('#diagnostics li button.id');
  await page.waitForSelector('#page:not([hidden]) #page-body h3', { timeout: 60000 });
  check((await page.textContent('#page-body')).length > 200, 'the rule page is shown');
  await page.click('#diagnostics li .at');
  const sel = await page.evaluate(() => text.value.slice(text.selectionStart, text.selectionEnd));
  check(sel === 'confirmed', `a click on a finding selects its value (${JSON.stringify(sel)})`);
  await page.evaluate(() => { document.getElementById('side').scrollTop = 0; });
  await page.screenshot({ path: path.join(output, 'playground.png') });
  if (process.env.CELINT_DOCS_SCREENSHOT) {
    await page.screenshot({ path: path.join(root, 'docs', 'playground.png') });
    console.log('wrote docs/playground.png');
  }

  // Latency on a ~200-line description: from the last keystroke to the
  // findings drawn, as the page measures it, against celint check.
  const big = bigDescription();
  const bigFile = path.join(output, 'big.mcpdesc.yaml');
  writeFileSync(bigFile, big);
  await page.fill('#text', big);
  await waitLinted(page);
  const at = big.indexOf('Tool number 7.') + 'Tool number 7.'.length;
  await page.evaluate((at) => { text.focus(); text.setSelectionRange(at, at); }, at);
  const page_ms = [], wall_ms = [];
  for (let i = 0; i < 7; i++) {
    t0 = Date.now();
    await page.keyboard.type('!');
    await waitLinted(page);
    wall_ms.push(Date.now() - t0);
    page_ms.push(Number(await page.getAttribute('#status', 'data-latency')));
  }
  const check_ms = [];
  for (let i = 0; i < 5; i++) {
    const s = process.hrtime.bigint();
    spawnSync(bin, ['check', '--fail-on', 'never', bigFile]);
    check_ms.push(Number(process.hrtime.bigint() - s) / 1e6);
  }
  console.log(`latency on ${big.split('\n').length - 1} lines: last keystroke to findings drawn, median ${median(page_ms).toFixed(0)} ms (page's measure; ${page_ms.map((x) => x.toFixed(0)).join(', ')}), ${median(wall_ms)} ms as the test sees it`);
  console.log(`celint check on the same file (a process each): median ${median(check_ms).toFixed(0)} ms (${check_ms.map((x) => x.toFixed(0)).join(', ')})`);
  check(await page.locator('#diagnostics li').count() >= 0 && (await page.getAttribute('#status', 'data-state')) === 'done', 'the big description is linted');

  // A paste past the limit says "too large" at once, leaves the editor
  // as it was, and the page stays live.
  const before = await page.inputValue('#text');
  const huge = await page.evaluate(() => {
    const s = 'mcpdesc: "0.8.0"\nitems:\n' + '  - {name: an item of a long list, value: 12345}\n'.repeat(Math.ceil((17 << 20) / 48));
    const dt = new DataTransfer();
    dt.setData('text/plain', s);
    const t = performance.now();
    text.focus();
    text.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
    return { mib: s.length / 1048576, ms: performance.now() - t, state: statusEl.dataset.state };
  });
  check(huge.state === 'too-large' && /too large/.test(await page.textContent('#status')) && await page.inputValue('#text') === before,
    `a ${huge.mib.toFixed(1)} MiB paste: "too large" in ${huge.ms.toFixed(0)} ms, the editor unchanged`);
  await page.fill('#text', faulty);
  await page.waitForSelector(item, { timeout: 60000 });
  check(true, 'after it, the page lints again');

  check(consoleErrors.length === 0, `no errors in the console${consoleErrors.length ? ': ' + consoleErrors.join(' | ') : ''}`);
} finally {
  await browser.close();
  server.kill();
  rmSync(work, { recursive: true, force: true });
}

// Only the page's own files were requested.
const own = new Set(['', 'favicon.svg', 'style.css', 'markdown.js', 'app.js', 'worker.js', 'gen/wasm_exec.js', 'gen/celint.wasm', 'gen/examples.json']);
console.log('requests:');
for (const u of requests) console.log('  ' + u);
const foreign = requests.filter((u) => !u.startsWith(base) || !own.has(u.slice(base.length)));
check(foreign.length === 0, `only the page's own files were requested${foreign.length ? ': ' + foreign.join(', ') : ''}`);

console.log(failures ? `${failures} checks failed` : 'playground end-to-end test passed');
process.exit(failures ? 1 : 0);

// waitLinted waits until the page has drawn the findings of its text as
// it is now.
async function waitLinted(page) {
  await page.waitForFunction(() => document.body.dataset.linted === String(state.generation) && !state.busy, null, { timeout: 120000 });
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

// bigDescription returns a 0.8.0 description of about 200 lines.
function bigDescription() {
  let s = '$schema: https://mcpdesc.org/schema/mcp-description/0.8.0.json\nmcpdesc: "0.8.0"\ninfo:\n  name: big-server\n  version: 1.0.0\n' +
    '  description: A server with many tools.\nprotocolVersions: ["2025-11-25"]\ntransports:\n  - type: stdio\n    command: big-server\ntools:\n';
  for (let i = 0; i < 19; i++) {
    s += `  - name: tool_${i}\n    description: Tool number ${i}.\n    inputSchema:\n      type: object\n      properties:\n        value:\n` +
      `          type: string\n          description: The value.\n      required: [value${i === 3 ? ', missing' : ''}]\n    annotations: {readOnlyHint: true}\n`;
  }
  return s;
}
