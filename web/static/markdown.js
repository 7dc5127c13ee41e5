'use strict';
// renderMarkdown renders the Markdown of a rule page (celint docs) into
// DOM nodes: front matter dropped; headings, paragraphs, lists, quotes,
// fenced code and tables (as text); inline code, emphasis and links. Text
// only ever goes into text nodes, never into HTML.
function renderMarkdown(src) {
  const out = document.createDocumentFragment();
  let lines = src.replace(/\r\n?/g, '\n').split('\n');
  const el = (tag, text) => { const e = document.createElement(tag); if (text !== undefined) inline(e, text); return e; };
  if (lines[0] === '---') {
    const end = lines.indexOf('---', 1);
    if (end > 0) {
      const title = lines.slice(1, end).find((l) => l.startsWith('title: '));
      if (title) {
        let t = title.slice(7);
        try { t = JSON.parse(t); } catch (e) { /* a plain scalar */ }
        const h = document.createElement('h2');
        h.textContent = t;
        out.append(h);
      }
      lines = lines.slice(end + 1);
    }
  }
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (line.trim() === '') { i++; continue; }
    const fence = line.match(/^(```+|~~~+)/);
    if (fence) {
      const code = [];
      for (i++; i < lines.length && !lines[i].startsWith(fence[1]); i++) code.push(lines[i]);
      i++;
      const pre = document.createElement('pre');
      pre.textContent = code.join('\n');
      out.append(pre);
      continue;
    }
    const h = line.match(/^(#{1,6})\s+(.*)$/);
    if (h) { out.append(el('h' + Math.min(h[1].length + 1, 6), h[2])); i++; continue; }
    if (/^\s*\|/.test(line)) {
      const rows = [];
      for (; i < lines.length && /^\s*\|/.test(lines[i]); i++) rows.push(lines[i]);
      const pre = document.createElement('pre');
      pre.textContent = rows.join('\n');
      out.append(pre);
      continue;
    }
    if (/^>/.test(line)) {
      const q = [];
      for (; i < lines.length && /^>/.test(lines[i]); i++) q.push(lines[i].replace(/^>\s?/, ''));
      out.append(el('blockquote', q.join(' ')));
      continue;
    }
    if (/^\s*([-*]|\d+\.)\s+/.test(line)) {
      const ordered = /^\s*\d+\./.test(line);
      const list = document.createElement(ordered ? 'ol' : 'ul');
      let item = null;
      for (; i < lines.length && lines[i].trim() !== ''; i++) {
        const m = lines[i].match(/^\s*([-*]|\d+\.)\s+(.*)$/);
        if (m) { item = [m[2]]; list.append(item.li = document.createElement('li')); item.li.raw = item; }
        else if (item) item.push(lines[i].trim());
      }
      for (const li of list.children) inline(li, li.raw.join(' '));
      out.append(list);
      continue;
    }
    const para = [];
    for (; i < lines.length && lines[i].trim() !== '' && !/^(#{1,6}\s|```|~~~|>|\s*\||\s*([-*]|\d+\.)\s)/.test(lines[i]); i++) para.push(lines[i].trim());
    if (para.length === 0) { para.push(line); i++; }
    out.append(el('p', para.join(' ')));
  }
  return out;
}

// inline appends text to parent with its inline code, strong emphasis,
// links and backslash escapes. A link opens in a new tab, without a
// referrer.
function inline(parent, text) {
  const re = /\\([!-\/:-@\[-`{-~])|`([^`]+)`|\*\*([^*]+)\*\*|\[([^\]]+)\]\(([^)\s]+)\)/g;
  let last = 0, m;
  while ((m = re.exec(text)) !== null) {
    if (m.index > last) parent.append(text.slice(last, m.index));
    if (m[1] !== undefined) parent.append(m[1]);
    else if (m[2] !== undefined) { const c = document.createElement('code'); c.textContent = m[2]; parent.append(c); }
    else if (m[3] !== undefined) { const b = document.createElement('strong'); b.textContent = m[3]; parent.append(b); }
    else {
      const href = m[5];
      if (/^https?:\/\//.test(href)) {
        const a = document.createElement('a');
        a.textContent = m[4]; a.href = href; a.target = '_blank'; a.rel = 'noopener noreferrer';
        parent.append(a);
      } else parent.append(m[4]);
    }
    last = re.lastIndex;
  }
  if (last < text.length) parent.append(text.slice(last));
}
