/**
 * The monitor's page: one HTML string, its chart drawn as inline SVG by its own script from
 * `/stats` (polled once a second while the crawl runs; polling stops when it has ended). A click
 * on a latest item shows its JSON and, when its page is still kept, its inspector view
 * (`/items/N/inspect`, the `gleaner inspect` report) in a frame below.
 */
export const MONITOR_PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>gleaner crawl monitor</title>
<style>
body{font:13px/1.4 system-ui,sans-serif;margin:16px;color:#222}
h1{font-size:16px;margin:0 0 8px}
.grid{display:grid;grid-template-columns:repeat(5,minmax(110px,1fr));gap:8px;margin:8px 0}
.card{background:#f4f6fa;border-radius:6px;padding:6px 10px}.card b{display:block;font-size:20px}
svg{background:#fbfbfd;border:1px solid #dde}
table{border-collapse:collapse}td{padding:1px 8px 1px 0;vertical-align:top}
#latest tr{cursor:pointer}#latest tr:hover{background:#ffe600}
#inspect{width:100%;height:80vh;border:1px solid #dde;margin-top:8px}
.cols{display:flex;gap:32px;flex-wrap:wrap}
pre{background:#f4f6fa;padding:8px;white-space:pre-wrap;word-break:break-word;max-height:40vh;overflow:auto}
.state-running{color:#1d8a5b}.state-ended{color:#b00}
</style></head>
<body>
<h1>gleaner · <span id="spider"></span> · <span id="state"></span></h1>
<div class="grid">
<div class="card">pages<b id="pages">0</b></div>
<div class="card">items<b id="items">0</b></div>
<div class="card">queued<b id="queued">0</b></div>
<div class="card">in flight<b id="inflight">0</b></div>
<div class="card">failed<b id="failed">0</b></div>
</div>
<svg id="chart" width="720" height="180" viewBox="0 0 720 180" role="img" aria-label="pages per second and items per second">
<polyline id="pps" fill="none" stroke="#2a6cf0" stroke-width="2" points=""/>
<polyline id="ips" fill="none" stroke="#1d8a5b" stroke-width="2" points=""/>
<text x="6" y="14" font-size="11" fill="#2a6cf0">pages/s <tspan id="pps-now"></tspan></text>
<text x="140" y="14" font-size="11" fill="#1d8a5b">items/s <tspan id="ips-now"></tspan></text>
<text x="714" y="14" font-size="11" text-anchor="end" id="ymax"></text>
</svg>
<div class="cols">
<div><h2>Items by kind</h2><p id="kinds-note" hidden></p><table id="kinds"></table></div>
<div><h2>Failures by reason</h2><div id="failures">none</div></div>
<div><h2 id="rates-title">Requests per host</h2><table id="rates"></table></div>
</div>
<h2>Latest items (click: the item and its inspector view)</h2><table id="latest"></table>
<pre id="item" hidden></pre>
<p id="inspect-note" hidden></p>
<iframe id="inspect" hidden title="inspector view"></iframe>
<script>
const $ = (id) => document.getElementById(id);
const esc = (s) => String(s).replace(/[&<>"]/g, (c) => '&#' + c.charCodeAt(0) + ';');
let timer, noInspect;
function line(samples, key, max) {
  if (!samples.length) return '';
  const t0 = samples[0].t, t1 = Math.max(samples[samples.length - 1].t, t0 + 1);
  return samples.map((s) => ((s.t - t0) / (t1 - t0) * 700 + 10).toFixed(1) + ',' + (170 - (s[key] / max) * 145).toFixed(1)).join(' ');
}
function draw(st) {
  $('spider').textContent = st.spider;
  $('state').textContent = st.running ? 'running' : 'ended';
  $('state').className = st.running ? 'state-running' : 'state-ended';
  const p = st.progress || {};
  $('pages').textContent = p.pages ?? 0;
  $('items').textContent = st.items;
  $('queued').textContent = p.queued ?? 0;
  $('failed').textContent = p.failed ?? 0;
  $('inflight').textContent = p.inFlight ?? 0;
  const max = Math.max(1, ...st.samples.map((s) => Math.max(s.pagesPerSec, s.itemsPerSec)));
  $('pps').setAttribute('points', line(st.samples, 'pagesPerSec', max));
  $('ips').setAttribute('points', line(st.samples, 'itemsPerSec', max));
  const last = st.samples[st.samples.length - 1];
  $('pps-now').textContent = last ? last.pagesPerSec.toFixed(1) : '';
  $('ips-now').textContent = last ? last.itemsPerSec.toFixed(1) : '';
  $('ymax').textContent = 'max ' + max.toFixed(1) + '/s';
  $('kinds').innerHTML = Object.entries(st.itemsByKind).map(([k, n]) => '<tr><td>' + esc(k) + '</td><td>' + n + '</td></tr>').join('');
  if (st.failuresByReason) $('failures').innerHTML = Object.keys(st.failuresByReason).length ? '<table>' + Object.entries(st.failuresByReason).map(([k, n]) => '<tr><td>' + esc(k) + '</td><td>' + n + '</td></tr>').join('') + '</table>' : 'none';
  $('rates-title').textContent = st.rates.by === 'worker' ? 'Pages per worker' : 'Requests per host';
  $('rates').innerHTML = '<tr><td></td><td>total</td><td>/s</td></tr>' + st.rates.rows.map((r) => '<tr><td>' + esc(r.name) + '</td><td>' + r.total + '</td><td>' + r.perSec.toFixed(1) + '</td></tr>').join('');
  $('latest').innerHTML = st.latest.map((i) => '<tr data-n="' + i.n + '" data-inspect="' + (i.inspect ? 1 : 0) + '"><td>' + i.n + '</td><td>' + esc(i.kind) + '</td><td>' + esc(i.title || '') + '</td><td>' + esc(i.url) + '</td><td>' + (i.inspect ? 'inspect' : '') + '</td></tr>').join('');
  noInspect = st.noInspect;
  if (st.kindsNote) { $('kinds-note').hidden = false; $('kinds-note').textContent = st.kindsNote; }
  document.body.dataset.updates = String(Number(document.body.dataset.updates || 0) + 1);
  document.body.dataset.state = st.running ? 'running' : 'ended';
}
async function poll() {
  try {
    const st = await (await fetch('/stats')).json();
    draw(st);
    if (!st.running) return;
  } catch (e) {
    document.body.dataset.state = 'gone';
    return;
  }
  timer = setTimeout(poll, 1000);
}
$('latest').addEventListener('click', async (ev) => {
  const tr = ev.target.closest('tr');
  if (!tr) return;
  const r = await fetch('/items/' + tr.dataset.n);
  $('item').hidden = false;
  $('item').textContent = JSON.stringify(await r.json(), null, 2);
  const can = tr.dataset.inspect === '1';
  $('inspect').hidden = !can;
  $('inspect-note').hidden = can;
  if (can) $('inspect').src = '/items/' + tr.dataset.n + '/inspect';
  else $('inspect-note').textContent = 'No inspector view: ' + (noInspect || 'the pages of the latest items only are kept') + '.';
});
poll();
</script>
</body></html>
`;
