/**
 * The `gleaner inspect` report (issue 27): one self-contained HTML file — the page as Gleaner saw
 * it, with what it took drawn on it, beside the item.
 *
 * The page is the parsed page itself, annotated (`data-gl-*` attributes on the elements) and
 * serialized, shown in an `<iframe srcdoc>`; the report's script draws from the attributes, so
 * what is boxed is the element provenance names. Nothing is fetched when the report is opened: the
 * page's scripts, frames, stylesheets links and `<base>` are removed, images keep their size box
 * but lose their source, CSS `url(…)` and `@import` are disabled, and a Content-Security-Policy
 * (`default-src 'none'`, inline style and the report's own script only) covers what is left.
 *
 * Overlays (each can be switched off in the side panel):
 *   - lines: kept (in the item's text), removed by the site template (set difference), by the rule
 *     filters, or left out of the main block (the article extractor's line model and block choice);
 *   - fields (title, author, date, content start), list entries numbered and the next-page link,
 *     forum floors in alternating colours with their floor number, author and date chips;
 *   - links: followed with a label (entries, next and other pages), followed by a spider without
 *     rules (same host), not followed (other hosts).
 * Clicking a field of the item flashes its element; hovering an element lights its field.
 */
import { Element, Text, type AnyNode } from 'domhandler';
import render from 'dom-serializer';
import type { PageTrace } from './trace.js';
import type { Origin } from './locate.js';

/** What the report's policy allows: nothing from the network. */
export const REPORT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'unsafe-inline'; frame-src 'self' about: data:; font-src data:";

/** Elements removed from the shown page: they run code or load something. */
const DROP = new Set(['script', 'iframe', 'frame', 'frameset', 'object', 'embed', 'link', 'base', 'applet', 'portal']);
/** Attributes that load something (images keep their box: width/height stay). */
const LOADING_ATTRS = ['src', 'srcset', 'data-src', 'poster', 'background', 'lowsrc', 'dynsrc', 'longdesc', 'action', 'formaction', 'ping'];

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** CSS that cannot load anything. */
const neutraliseCss = (css: string) => css.replace(/url\s*\(/gi, 'gl-blocked(').replace(/@import/gi, '@gl-blocked');

function addAttr(el: Element, name: string, value: string): void {
  const cur = el.attribs[name];
  el.attribs[name] = cur ? `${cur} ${value}` : value;
}

/** Remove what runs or loads; keep the layout. */
function sanitise(root: AnyNode): void {
  const stack: AnyNode[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (!(n instanceof Element) && !('children' in n)) continue;
    if (n instanceof Element) {
      for (const a of Object.keys(n.attribs)) {
        if (/^on/i.test(a) || LOADING_ATTRS.includes(a)) delete n.attribs[a];
        else if (a === 'style') n.attribs[a] = neutraliseCss(n.attribs[a]!);
        else if ((a === 'href' || a === 'xlink:href') && /^\s*javascript:/i.test(n.attribs[a]!)) n.attribs[a] = '#';
      }
      if (n.name === 'meta' && /refresh/i.test(n.attribs['http-equiv'] ?? '')) delete n.attribs.content;
      if (n.name === 'style') for (const c of n.children) if (c instanceof Text) c.data = neutraliseCss(c.data);
    }
    const kids = (n as Element).children;
    for (let i = kids.length - 1; i >= 0; i--) {
      const c = kids[i]!;
      if (c instanceof Element && DROP.has(c.name)) kids.splice(i, 1);
      else {
        // The shown page runs none of its scripts: what a <noscript> holds is what it shows (a
        // JavaScript forum's posts are there), but in the report's frame, which runs the report's
        // script, a <noscript> would be text. A <div> keeps it on show.
        if (c instanceof Element && c.name === 'noscript') {
          c.name = 'div';
          c.attribs['data-gl-noscript'] = '';
        }
        stack.push(c);
      }
    }
  }
}

/** A field's element in the page tree, by its DFS number. */
function elementAt(trace: PageTrace, o: Origin | null | undefined): Element | undefined {
  if (!o || o.dfs < 0) return undefined;
  let n: AnyNode | null | undefined = trace.page.nodes[o.dfs];
  while (n && !(n instanceof Element)) n = n.parent;
  return n ?? undefined;
}

/** Field paths (`title`, `items.3`, `posts.2.author`) → origin, for every field with provenance. */
export function fieldOrigins(trace: PageTrace): Map<string, Origin> {
  const out = new Map<string, Origin>();
  const p = trace.provenance;
  for (const k of ['title', 'author', 'publishedAt', 'content', 'nextPage'] as const) if (p[k]) out.set(k, p[k]);
  p.items?.forEach((o, i) => o && out.set(`items.${i}`, o));
  p.posts?.forEach((post, i) => {
    if (post.root) out.set(`posts.${i}`, post.root);
    for (const k of ['author', 'publishedAt', 'content'] as const) if (post[k]) out.set(`posts.${i}.${k}`, post[k]);
  });
  return out;
}

/** Mark the page tree: lines, fields, floors, entries, links. Returns field paths found only by
 * selector (no DFS number: the report resolves them in the shown page). */
function annotate(trace: PageTrace): Record<string, string> {
  const { page } = trace;
  const rank: Record<string, number> = { kept: 3, 'rule-filter': 2, template: 1, 'not-main': 0 };
  for (const l of trace.lines) {
    const cur = l.element.attribs['data-gl-line'];
    if (!cur || rank[l.fate]! > rank[cur]!) l.element.attribs['data-gl-line'] = l.fate;
  }
  const bySelector: Record<string, string> = {};
  for (const [path, o] of fieldOrigins(trace)) {
    const el = elementAt(trace, o);
    if (!el) {
      bySelector[path] = o.selector;
      continue;
    }
    addAttr(el, 'data-gl-f', path);
    if (/^posts\.\d+$/.test(path)) {
      const k = Number(path.split('.')[1]);
      const floor = (trace.item.kind === 'forum' && trace.item.posts?.[k]?.floor) || k + 1;
      el.attribs['data-gl-floor'] = String(floor);
      el.attribs['data-gl-alt'] = String(k % 2);
    }
    if (/^items\.\d+$/.test(path)) el.attribs['data-gl-entry'] = String(Number(path.split('.')[1]) + 1);
    if (o.source === 'pinned') el.attribs['data-gl-pinned'] = '';
  }
  const labelled = new Map(trace.follow.map((f) => [f.url, f.label]));
  const host = (() => {
    try {
      return new URL(page.url).host;
    } catch {
      return '';
    }
  })();
  for (const n of page.nodes) {
    if (!(n instanceof Element) || n.name !== 'a' || n.attribs.href === undefined) continue;
    const url = page.resolve(n.attribs.href);
    if (!url) continue;
    const label = labelled.get(url);
    let h = '';
    try {
      h = new URL(url).host;
    } catch {
      /* resolved URLs parse */
    }
    n.attribs['data-gl-follow'] = label ? 'labelled' : h === host ? 'same-host' : 'off-site';
    n.attribs['data-gl-why'] = label ? `followed as ${label} (found by the extractor)` : h === host ? 'followed by a spider without follow rules (same host)' : 'not followed: outside the allowed domains (default: the start URL hosts)';
  }
  return bySelector;
}

/** The item as JSON text, each field with provenance wrapped in a span naming its path. */
function itemJsonHtml(value: unknown, paths: Set<string>, path = '', indent = ''): string {
  const inner = indent + '  ';
  const wrap = (p: string, html: string) => (paths.has(p) ? `<span class="gl-f" data-f="${escapeHtml(p)}">${html}</span>` : html);
  if (Array.isArray(value)) {
    if (!value.length) return '[]';
    const parts = value.map((v, i) => inner + wrap(`${path}.${i}`, itemJsonHtml(v, paths, `${path}.${i}`, inner)));
    return `[\n${parts.join(',\n')}\n${indent}]`;
  }
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (!entries.length) return '{}';
    const parts = entries.map(([k, v]) => {
      const p = path ? `${path}.${k}` : k;
      return inner + wrap(p, `<span class="gl-k">${escapeHtml(JSON.stringify(k))}</span>: ${itemJsonHtml(v, paths, p, inner)}`);
    });
    return `{\n${parts.join(',\n')}\n${indent}}`;
  }
  const s = JSON.stringify(value);
  const shown = typeof value === 'string' && s.length > 300 ? `${s.slice(0, 300)}…"` : s;
  return `<span class="gl-v">${escapeHtml(shown)}</span>`;
}

export const PAGE_STYLE = `
[data-gl-line]{transition:background .2s}
body.gl-lines [data-gl-line=kept]{background:rgba(40,180,80,.18)!important}
body.gl-lines [data-gl-line=template]{background:rgba(150,150,150,.25)!important;text-decoration:line-through rgba(0,0,0,.35)}
body.gl-lines [data-gl-line=rule-filter]{background:rgba(240,160,0,.25)!important;text-decoration:line-through rgba(0,0,0,.35)}
body.gl-lines [data-gl-line=not-main]{background:rgba(230,60,60,.12)!important}
body.gl-fields [data-gl-f]{outline:2px solid #2a6cf0!important;outline-offset:1px}
body.gl-fields [data-gl-pinned]{outline-color:#a000c8!important}
body.gl-fields [data-gl-floor]{outline:3px solid #1d8a5b!important;position:relative}
body.gl-fields [data-gl-floor][data-gl-alt="1"]{outline-color:#c27a00!important}
body.gl-fields [data-gl-floor]::before{content:"#" attr(data-gl-floor);position:absolute;left:-3px;top:-1.5em;background:#1d8a5b;color:#fff;font:bold 11px sans-serif;padding:1px 4px;z-index:9999}
body.gl-fields [data-gl-floor][data-gl-alt="1"]::before{background:#c27a00}
body.gl-fields [data-gl-entry]::before{content:attr(data-gl-entry);background:#2a6cf0;color:#fff;font:bold 11px sans-serif;padding:0 4px;margin-right:4px;border-radius:6px}
body.gl-fields [data-gl-f~="nextPage"]{outline:3px dashed #e0007a!important}
body.gl-links a[data-gl-follow=labelled]{box-shadow:inset 0 -3px 0 #1d8a5b}
body.gl-links a[data-gl-follow=same-host]{box-shadow:inset 0 -2px 0 #8bc34a}
body.gl-links a[data-gl-follow=off-site]{box-shadow:inset 0 -2px 0 #e53935}
.gl-chip{display:inline-block;font:11px sans-serif;background:#2a6cf0;color:#fff;border-radius:6px;padding:0 4px;margin:0 3px}
.gl-flash{animation:glflash 1.2s 1}
.gl-hot{outline:4px solid #ff0!important}
@keyframes glflash{0%,100%{box-shadow:none}30%,70%{box-shadow:0 0 0 6px #ffe600}}
img:not([src]){background:repeating-linear-gradient(45deg,#eee,#eee 6px,#ddd 6px,#ddd 12px);min-width:16px;min-height:16px}
`;

const REPORT_STYLE = `
html,body{margin:0;height:100%;font:13px/1.4 system-ui,sans-serif}
#gl{display:grid;grid-template-columns:minmax(0,1fr) 440px;height:100%}
#gl-page{width:100%;height:100%;border:0;border-right:1px solid #ccc}
#gl-side{overflow:auto;padding:10px 12px;background:#fafafa}
h2{font-size:14px;margin:12px 0 4px}
.bar{display:flex;align-items:center;gap:6px}.bar i{display:inline-block;height:8px;background:#2a6cf0}
pre{font:12px/1.35 ui-monospace,monospace;white-space:pre-wrap;word-break:break-word;margin:0}
.gl-f{cursor:pointer;border-radius:3px}.gl-f:hover,.gl-f.hot{background:#ffe600}
.gl-k{color:#7a3e9d}.gl-v{color:#0b6e4f}
.legend span{display:inline-block;width:10px;height:10px;margin-right:4px;vertical-align:middle}
.missing{color:#b00}
table{border-collapse:collapse}td{padding:1px 6px 1px 0;vertical-align:top}
`;

/** Side-panel script: sets up the page, links fields and regions both ways. */
const REPORT_SCRIPT = `
const D = JSON.parse(document.getElementById('gl-data').textContent);
const frame = document.getElementById('gl-page');
const side = document.getElementById('gl-side');
function doc() { return frame.contentDocument; }
function regions(path) { const d = doc(); return d ? [...d.querySelectorAll('[data-gl-f]')].filter((e) => e.getAttribute('data-gl-f').split(' ').includes(path)) : []; }
function flash(path) {
  const els = regions(path);
  if (!els.length) return false;
  els[0].scrollIntoView({ block: 'center' });
  for (const e of els) { e.classList.remove('gl-flash'); void e.offsetWidth; e.classList.add('gl-flash'); setTimeout(() => e.classList.remove('gl-flash'), 1300); }
  return true;
}
function setup() {
  const d = doc();
  const style = d.createElement('style');
  style.id = 'gl-style';
  style.textContent = D.pageStyle;
  (d.head || d.documentElement).appendChild(style);
  for (const [path, sel] of Object.entries(D.bySelector)) {
    let el = null;
    try { el = d.querySelector(sel); } catch (e) {}
    if (el) el.setAttribute('data-gl-f', ((el.getAttribute('data-gl-f') || '') + ' ' + path).trim());
  }
  for (const [path, chip] of Object.entries(D.chips)) for (const el of regions(path)) {
    const c = d.createElement('span'); c.className = 'gl-chip'; c.textContent = chip; c.setAttribute('data-gl-chip', path); el.prepend(c);
  }
  d.body.classList.add('gl-lines', 'gl-fields', 'gl-links');
  d.addEventListener('click', (ev) => { const a = ev.target.closest && ev.target.closest('a'); if (a) ev.preventDefault(); });
  d.addEventListener('mouseover', (ev) => {
    const r = ev.target.closest && ev.target.closest('[data-gl-f]');
    for (const s of side.querySelectorAll('.gl-f.hot')) s.classList.remove('hot');
    if (!r) return;
    for (const p of r.getAttribute('data-gl-f').split(' ')) for (const s of side.querySelectorAll('.gl-f[data-f="' + p + '"]')) s.classList.add('hot');
  });
  for (const box of side.querySelectorAll('input[data-layer]')) box.addEventListener('change', () => d.body.classList.toggle(box.dataset.layer, box.checked));
  document.body.setAttribute('data-gl-ready', '1');
}
side.addEventListener('click', (ev) => {
  const f = ev.target.closest('.gl-f');
  if (!f) return;
  ev.stopPropagation();
  flash(f.dataset.f);
});
frame.addEventListener('load', setup, { once: true });
frame.srcdoc = D.html;
`;

/** Inline JSON for a `<script type="application/json">`: no `</script>` inside. */
const inlineJson = (v: unknown) => JSON.stringify(v).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

function sidePanel(trace: PageTrace, paths: Set<string>): string {
  const { item } = trace;
  const probs = (p: Record<string, number> | undefined) =>
    p
      ? Object.entries(p)
          .sort((a, b) => b[1] - a[1])
          .map(([k, v]) => `<div class="bar"><span style="width:4.5em">${escapeHtml(k)}</span><i style="width:${Math.round(v * 200)}px"></i>${v.toFixed(3)}</div>`)
          .join('')
      : '<div>no classifier run (label given)</div>';
  const changed = trace.classifier && item.pageType && trace.classifier.label !== item.pageType.label;
  const evidence = trace.siteEvidence ? `<div>site evidence (earlier pages of the site): ${escapeHtml(JSON.stringify(trace.siteEvidence).slice(0, 400))}</div>` : '<div>site evidence: none (first page of its site)</div>';
  const counts: Record<string, number> = {};
  for (const l of trace.lines) counts[l.fate] = (counts[l.fate] ?? 0) + 1;
  const missing = [...fieldOrigins(trace).keys()].length;
  return `
<h2>Page type: <b>${escapeHtml(item.pageType?.label ?? item.kind)}</b> → item kind <b>${escapeHtml(item.kind)}</b></h2>
${probs(item.pageType?.probabilities)}
${changed ? `<div>the classifier alone said <b>${escapeHtml(trace.classifier!.label)}</b>; the site's earlier pages changed it</div>` : ''}
${evidence}
<h2>Lines</h2>
<div class="legend">
<div><span style="background:rgba(40,180,80,.5)"></span>kept (in the item's text): ${counts.kept ?? 0}</div>
<div><span style="background:rgba(150,150,150,.6)"></span>removed by the site template (set difference${trace.templateApplied ? '' : ': no template yet, first page of its site'}): ${counts.template ?? 0}</div>
<div><span style="background:rgba(240,160,0,.6)"></span>removed by the rule filters: ${counts['rule-filter'] ?? 0}</div>
<div><span style="background:rgba(230,60,60,.4)"></span>left out of the main content (block choice / line model): ${counts['not-main'] ?? 0}</div>
</div>
<h2>Layers</h2>
<label><input type="checkbox" data-layer="gl-lines" checked> lines</label>
<label><input type="checkbox" data-layer="gl-fields" checked> fields, entries, floors</label>
<label><input type="checkbox" data-layer="gl-links" checked> links (dark green: followed with a label; light green: same host; red: not followed)</label>
<h2>Follow (${trace.follow.length} labelled links)</h2>
<table>${trace.follow
    .slice(0, 50)
    .map((f) => `<tr><td>${escapeHtml(f.label)}</td><td>${escapeHtml(f.url)}</td></tr>`)
    .join('')}</table>
<h2>Item (click a field: its element flashes; ${missing} fields located)</h2>
<pre id="gl-item">${itemJsonHtml(item, paths)}</pre>
<h2>Provenance</h2>
<table id="gl-prov">${[...fieldOrigins(trace)]
    .map(([p, o]) => `<tr><td><span class="gl-f" data-f="${escapeHtml(p)}">${escapeHtml(p)}</span></td><td><code>${escapeHtml(o.selector)}</code>${o.attr ? ` @${escapeHtml(o.attr)}` : ''} · dfs ${o.dfs}${o.source === 'pinned' ? ` · pinned <code>${escapeHtml(o.pinned ?? '')}</code>` : ''}</td></tr>`)
    .join('')}</table>`;
}

/** Chips drawn at the start of a floor: its author and date as the item has them. */
export function chips(trace: PageTrace): Record<string, string> {
  const out: Record<string, string> = {};
  if (trace.item.kind !== 'forum') return out;
  trace.item.posts?.forEach((p, i) => {
    if (trace.provenance.posts?.[i]?.author && p.author) out[`posts.${i}.author`] = `author: ${p.author}`;
    if (trace.provenance.posts?.[i]?.publishedAt && (p.publishedAt || p.publishedAtText)) out[`posts.${i}.publishedAt`] = `date: ${p.publishedAt ?? p.publishedAtText}`;
  });
  return out;
}

/** The report: one HTML file, nothing loaded from anywhere when it is opened. */
export function renderReport(trace: PageTrace): string {
  const bySelector = annotate(trace);
  const paths = new Set(fieldOrigins(trace).keys());
  sanitise(trace.page.document);
  // The page's own base (its links read as on the page; a <base> loads nothing).
  const pageHtml = `<meta http-equiv="Content-Security-Policy" content="${REPORT_CSP}"><base href="${escapeHtml(trace.page.baseUrl)}">` + render(trace.page.document, { encodeEntities: 'utf8' });
  const data = { html: pageHtml, pageStyle: PAGE_STYLE, bySelector, chips: chips(trace) };
  return `<!doctype html>
<html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${REPORT_CSP}">
<title>gleaner inspect: ${escapeHtml(trace.item.title ?? trace.item.url)}</title>
<style>${REPORT_STYLE}</style></head>
<body><div id="gl"><iframe id="gl-page" title="the page"></iframe><div id="gl-side">
<div><b>gleaner inspect</b> · <code>${escapeHtml(trace.item.url)}</code></div>
${sidePanel(trace, paths)}
</div></div>
<script type="application/json" id="gl-data">${inlineJson(data)}</script>
<script>${REPORT_SCRIPT}</script>
</body></html>
`;
}
