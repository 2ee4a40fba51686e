// The page the dashboard serves: one HTML shell for every route (deep links load it, the script
// draws the route), its script and its style, served from the same origin so the CSP needs no
// inline script. The script builds every node with textContent: no run text is ever parsed as HTML.

/** The HTML shell of `/` and `/runs/<id>`. */
export const PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<title>headway runs</title>
<link rel="stylesheet" href="/app.css" />
<script type="module" src="/app.js"></script>
</head>
<body>
<header><h1><a href="/" data-link="/">headway runs</a></h1></header>
<main id="app" aria-live="polite"></main>
</body>
</html>
`;

/** The page's style. */
export const PAGE_CSS = `body{font:14px/1.4 system-ui,sans-serif;margin:0;color:#1a1a1a;background:#fafafa}
header{background:#1f2937;padding:.5rem 1rem}header h1{margin:0;font-size:1.1rem}header a{color:#fff;text-decoration:none}
main{padding:1rem}
form.filters{display:flex;gap:.5rem;margin-bottom:.75rem;flex-wrap:wrap}
label{display:flex;gap:.25rem;align-items:center}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.3rem .5rem;border-bottom:1px solid #ddd;vertical-align:top}
.bar{width:8rem;height:.6rem;background:#e5e7eb;border-radius:.3rem;overflow:hidden}.fill{height:100%;background:#2563eb}
.state{font-family:ui-monospace,monospace}
.task{max-width:28rem;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}dt{font-weight:600}
button{padding:.3rem .8rem}
.error{color:#b91c1c}
`;

/** The page's script (plain browser JavaScript, no dependency). */
export const PAGE_SCRIPT = `const app = document.getElementById('app');
const STATES = ['', 'running', 'completed', 'limit:iterations', 'limit:time', 'limit:cost', 'stalled', 'cancelled', 'failed', 'interrupted'];
let timer;
let order = [];

function el(tag, props, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (key === 'text') node.textContent = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

function usd(n) { return '$' + n.toFixed(4); }
function duration(ms) {
  const s = Math.round(ms / 1000);
  if (s < 60) return s + 's';
  const m = Math.round(s / 60);
  return m < 60 ? m + 'm' : Math.round(m / 60) + 'h';
}
function eta(run) {
  if (run.etaLowMs === undefined || run.etaHighMs === undefined) return '';
  return duration(run.etaLowMs) + '–' + duration(run.etaHighMs);
}
function bar(percent) {
  const fill = el('div', { class: 'fill' });
  fill.style.width = Math.max(0, Math.min(100, percent)) + '%';
  return el('div', { class: 'bar', role: 'progressbar', 'aria-label': 'progress', 'aria-valuenow': String(Math.round(percent)), 'aria-valuemin': '0', 'aria-valuemax': '100' }, fill);
}

function go(path) {
  history.pushState(null, '', path);
  route();
}
document.addEventListener('click', (event) => {
  const link = event.target instanceof Element ? event.target.closest('a[data-link]') : null;
  if (link === null || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
  event.preventDefault();
  go(link.getAttribute('data-link'));
});
window.addEventListener('popstate', route);

function stableOrder(runs) {
  const known = new Set(order);
  for (const run of runs) {
    if (known.has(run.id)) continue;
    known.add(run.id);
    if (run.active) {
      const at = order.findIndex((id) => !runs.find((r) => r.id === id && r.active));
      order.splice(at === -1 ? order.length : at, 0, run.id);
    } else order.push(run.id);
  }
  const byId = new Map(runs.map((r) => [r.id, r]));
  return order.map((id) => byId.get(id)).filter(Boolean);
}

async function getJson(url) {
  const response = await fetch(url, { credentials: 'same-origin' });
  const body = await response.json();
  if (!response.ok) throw new Error(body.error ? body.error.message : response.statusText);
  return body;
}

function listView() {
  const params = new URLSearchParams(location.search);
  const state = el('select', { name: 'state', 'aria-label': 'state' });
  for (const word of STATES) state.append(el('option', { value: word, text: word === '' ? 'any state' : word }));
  state.value = params.get('state') || '';
  const session = el('input', { name: 'session', placeholder: 'session / worker', 'aria-label': 'session' });
  session.value = params.get('session') || '';
  const q = el('input', { name: 'q', type: 'search', placeholder: 'search task or run id', 'aria-label': 'search' });
  q.value = params.get('q') || '';
  const form = el('form', { class: 'filters', role: 'search' }, state, session, q);
  const body = el('tbody');
  const status = el('p', { class: 'count' });
  const table = el('table', {},
    el('thead', {}, el('tr', {}, ...['Run', 'Progress', 'ETA', 'State', 'Iteration', 'Spent', 'Age', 'Session', 'Task'].map((h) => el('th', { scope: 'col', text: h })))),
    body);
  app.replaceChildren(form, status, table);
  const refresh = async () => {
    const query = new URLSearchParams();
    if (state.value) query.set('state', state.value);
    if (session.value) query.set('session', session.value);
    if (q.value) query.set('q', q.value);
    const search = query.toString();
    if (location.pathname === '/' && location.search !== (search ? '?' + search : '')) history.replaceState(null, '', '/' + (search ? '?' + search : ''));
    try {
      const { runs } = await getJson('/api/runs' + (search ? '?' + search : ''));
      const now = Date.now();
      body.replaceChildren(...stableOrder(runs).map((run) => el('tr', { 'data-run': run.runId },
        el('td', {}, el('a', { href: '/runs/' + encodeURIComponent(run.runId), 'data-link': '/runs/' + encodeURIComponent(run.runId), text: run.runId })),
        el('td', {}, bar(run.percent)),
        el('td', { text: eta(run) }),
        el('td', { class: 'state', text: run.state }),
        el('td', { text: String(run.iteration) }),
        el('td', { text: usd(run.spentUsd) }),
        el('td', { text: duration(Math.max(0, now - run.startedAt)) }),
        el('td', { text: run.sessionId }),
        el('td', { class: 'task', title: run.task, text: run.task }))));
      status.textContent = runs.length + ' runs';
    } catch (error) {
      status.textContent = String(error.message || error);
      status.className = 'error';
    }
  };
  for (const input of [state, session, q]) input.addEventListener('input', () => { order = []; refresh(); });
  form.addEventListener('submit', (event) => event.preventDefault());
  refresh();
  timer = setInterval(refresh, 2000);
}

async function runView(id) {
  app.replaceChildren(el('p', { text: 'loading ' + id }));
  let data;
  try {
    data = await getJson('/api/runs/' + encodeURIComponent(id));
  } catch (error) {
    app.replaceChildren(el('p', { class: 'error', text: String(error.message || error) }), el('a', { href: '/', 'data-link': '/', text: 'all runs' }));
    return;
  }
  const { run, continuations } = data;
  const rows = [
    ['State', run.state + ' (' + run.stateText + ')'], ['Task', run.task], ['Session', run.sessionId], ['Iteration', String(run.iteration)],
    ['Spent', usd(run.spentUsd)], ['Tokens', run.inputTokens + ' in, ' + run.outputTokens + ' out'], ['Tools', run.toolsUsed.join(', ') || 'none'],
    ['Progress', Math.round(run.percent) + '%' + (eta(run) ? ', ETA ' + eta(run) : '')],
  ];
  if (run.error) rows.push(['Error', run.error]);
  const list = el('dl', {});
  for (const [k, v] of rows) list.append(el('dt', { text: k }), el('dd', { text: v }));
  const chain = el('p', {});
  if (run.parentRunId) chain.append('Continues ', el('a', { href: '/runs/' + encodeURIComponent(run.parentRunId), 'data-link': '/runs/' + encodeURIComponent(run.parentRunId), text: run.parentRunId }), '. ');
  for (const next of continuations) chain.append('Continued by ', el('a', { href: '/runs/' + encodeURIComponent(next), 'data-link': '/runs/' + encodeURIComponent(next), text: next }), '. ');
  const actions = el('p', {});
  const message = el('p', { role: 'status' });
  if (run.state === 'interrupted') {
    const button = el('button', { type: 'button', text: 'Abandon' });
    button.addEventListener('click', async () => {
      const response = await fetch('/api/runs/' + encodeURIComponent(run.id) + '/abandon', { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json' }, body: '{}' });
      const body = await response.json();
      message.textContent = response.ok ? 'abandoned' : body.error.message;
      if (response.ok) runView(id);
    });
    actions.append(button);
  }
  app.replaceChildren(el('p', {}, el('a', { href: '/', 'data-link': '/', text: '← all runs' })), el('h2', { text: run.runId }), list, chain, actions, message);
}

function route() {
  clearInterval(timer);
  const match = /^\\/runs\\/([^/]+)$/.exec(location.pathname);
  if (match) runView(decodeURIComponent(match[1]));
  else listView();
}
route();
`;
