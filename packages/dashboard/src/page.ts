// The page the dashboard serves: one HTML shell for every route (deep links load it, the script
// draws the route), its script and its style, served from the same origin so the CSP needs no
// inline script. The script builds every node with textContent; the one exception is the saved
// report, rendered server-side with raw HTML off and parsed in an inert document.

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
.steps{list-style:none;padding:0}.steps li{border-left:3px solid #2563eb;padding:.25rem .75rem;margin:.5rem 0;background:#fff}
.tool{font-family:ui-monospace,monospace;white-space:pre-wrap;word-break:break-word;margin:.25rem 0}
.text{white-space:pre-wrap;word-break:break-word}
.report{background:#fff;border:1px solid #ddd;padding:.5rem 1rem}
.live{color:#166534}.offline{color:#b91c1c}
`;

/** The page's script (plain browser JavaScript, no dependency). */
export const PAGE_SCRIPT = `const app = document.getElementById('app');
const STATES = ['', 'running', 'completed', 'limit:iterations', 'limit:time', 'limit:cost', 'stalled', 'cancelled', 'failed', 'interrupted'];
let source;
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
function link(path, text) { return el('a', { href: path, 'data-link': path, text }); }
function runLink(runId) { return link('/runs/' + encodeURIComponent(runId), runId); }

function usd(n) { return '$' + n.toFixed(4); }
// A total that leaves out calls of a model with no price says so: their cost is unknown, not $0.
function spent(run) { return usd(run.spentUsd) + (run.unpricedCalls > 0 ? ' (excludes ' + run.unpricedCalls + ' unpriced call' + (run.unpricedCalls === 1 ? '' : 's') + ')' : ''); }
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
  const target = event.target instanceof Element ? event.target.closest('a[data-link]') : null;
  if (target === null || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
  event.preventDefault();
  go(target.getAttribute('data-link'));
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

// Live data: one EventSource per view. It reconnects by itself (after a drop or a server
// restart) and sends Last-Event-ID, so the server sends only what changed since.
function live(url, event, status, draw) {
  if (source) source.close();
  source = new EventSource(url);
  source.addEventListener(event, (message) => {
    status.textContent = '';
    status.className = 'live';
    draw(JSON.parse(message.data));
  });
  source.addEventListener('error', (message) => {
    if (message.data) {
      status.textContent = JSON.parse(message.data).error.message;
      status.className = 'error';
      source.close();
    } else {
      status.textContent = 'reconnecting…';
      status.className = 'offline';
    }
  });
}

function listView() {
  const params = new URLSearchParams(location.search);
  const state = el('select', { name: 'state', 'aria-label': 'state' });
  for (const word of STATES) state.append(el('option', { value: word, text: word === '' ? 'any state' : word }));
  state.value = params.get('state') || '';
  const agent = el('input', { name: 'agent', placeholder: 'agent', 'aria-label': 'agent' });
  agent.value = params.get('agent') || '';
  const worker = el('input', { name: 'worker', placeholder: 'worker', 'aria-label': 'worker' });
  worker.value = params.get('worker') || '';
  const q = el('input', { name: 'q', type: 'search', placeholder: 'search task or run id', 'aria-label': 'search' });
  q.value = params.get('q') || '';
  const form = el('form', { class: 'filters', role: 'search' }, state, agent, worker, q);
  const body = el('tbody');
  const count = el('p', { class: 'count' });
  const status = el('p', { role: 'status' });
  const table = el('table', {},
    el('thead', {}, el('tr', {}, ...['Run', 'Progress', 'ETA', 'State', 'Iteration', 'Spent', 'Age', 'Worker', 'Agent', 'Task'].map((h) => el('th', { scope: 'col', text: h })))),
    body);
  app.replaceChildren(el('h2', { text: 'All runs' }), form, count, status, table);
  const draw = ({ runs }) => {
    const now = Date.now();
    body.replaceChildren(...stableOrder(runs).map((run) => el('tr', { 'data-run': run.runId },
      el('td', {}, runLink(run.runId)),
      el('td', {}, bar(run.percent)),
      el('td', { text: eta(run) }),
      el('td', { class: 'state', text: run.state }),
      el('td', { text: String(run.iteration) }),
      el('td', { text: spent(run) }),
      el('td', { text: duration(Math.max(0, now - run.startedAt)) }),
      el('td', { text: run.sessionId }),
      el('td', { text: run.agent }),
      el('td', { class: 'task', title: run.task, text: run.task }))));
    count.textContent = runs.length + ' runs';
  };
  const connect = () => {
    const query = new URLSearchParams();
    if (state.value) query.set('state', state.value);
    if (agent.value) query.set('agent', agent.value);
    if (worker.value) query.set('worker', worker.value);
    if (q.value) query.set('q', q.value);
    const search = query.toString() ? '?' + query.toString() : '';
    if (location.pathname === '/' && location.search !== search) history.replaceState(null, '', '/' + search);
    live('/api/stream' + search, 'runs', status, draw);
  };
  for (const input of [state, agent, worker, q]) input.addEventListener('input', () => { order = []; connect(); });
  form.addEventListener('submit', (event) => event.preventDefault());
  connect();
}

// The report is the one piece drawn from HTML: the server rendered it with raw HTML off
// (@headway/report/html); DOMParser builds it in an inert document, so nothing in it runs.
function reportNode(html) {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const node = el('section', { class: 'report', 'aria-label': 'progress report' });
  node.append(...Array.from(doc.body.childNodes, (child) => document.adoptNode(child)));
  return node;
}

function stepNode(step) {
  const item = el('li', {}, el('h4', { text: 'Iteration ' + step.iteration }));
  if (step.text) item.append(el('div', { class: 'text', text: step.text }));
  for (const tool of step.tools) {
    item.append(el('div', { class: 'tool', text: tool.name + '(' + tool.args + ')' + (tool.result === undefined ? ' …running' : ' → ' + tool.result) }));
  }
  return item;
}

function runView(id) {
  const status = el('p', { role: 'status' });
  const content = el('div', {}, el('p', { text: 'loading ' + id }));
  app.replaceChildren(el('p', {}, link('/', '← all runs')), el('h2', { text: id }), status, content);
  const message = el('p', { role: 'alert' });
  live('/api/runs/' + encodeURIComponent(id) + '/stream', 'run', status, (detail) => {
    const { run, chain, view } = detail;
    const rows = [
      ['State', run.state + ' (' + run.stateText + ')'], ['Task', run.task], ['Agent', run.agent || 'not recorded'], ['Worker', run.sessionId], ['Iteration', String(run.iteration)],
      ['Spent', spent(run)], ['Tokens', run.inputTokens + ' in, ' + run.outputTokens + ' out'], ['Tools', run.toolsUsed.join(', ') || 'none'],
      ['Progress', Math.round(run.percent) + '%' + (eta(run) ? ', ETA ' + eta(run) : '')],
    ];
    if (view.plan) rows.push(['Plan', view.plan.completed + ' of ' + view.plan.total + ' done, ' + view.plan.inProgress + ' in progress']);
    if (view.currentStep) rows.push(['Step', view.currentStep]);
    if (run.error) rows.push(['Error', run.error]);
    const list = el('dl', {});
    for (const [k, v] of rows) list.append(el('dt', { text: k }), el('dd', { text: v }));
    const parts = [list];
    if (detail.costByModel.length > 0) {
      parts.push(el('h3', { text: 'Cost by model' }), el('table', {},
        el('thead', {}, el('tr', {}, ...['Model', 'Calls', 'Input tokens', 'Output tokens', 'Spent'].map((h) => el('th', { scope: 'col', text: h })))),
        el('tbody', {}, ...detail.costByModel.map((m) => el('tr', {}, el('td', { text: m.model }), el('td', { text: String(m.calls) }),
          el('td', { text: String(m.inputTokens) }), el('td', { text: String(m.outputTokens) }), el('td', { text: m.spentUsd === null ? 'unpriced' : usd(m.spentUsd) }))))));
    }
    if (chain.length > 1) {
      const items = el('ol', { class: 'chain' });
      for (const runId of chain) items.append(el('li', {}, runId === run.runId ? el('strong', { text: runId }) : runLink(runId)));
      parts.push(el('h3', { text: 'Chain of continuations' }), items);
    }
    const actions = el('p', {});
    // The server says what a run in its state offers (each is POST /api/runs/<id>/<action>).
    for (const action of run.actions) {
      const button = el('button', { type: 'button', text: action[0].toUpperCase() + action.slice(1) });
      button.addEventListener('click', async () => {
        const response = await fetch('/api/runs/' + encodeURIComponent(run.id) + '/' + action, { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json' }, body: '{}' });
        const body = await response.json();
        message.textContent = !response.ok ? body.error.message : response.status === 202 ? action + ': requested; a worker carries it out' : action + ': done';
      });
      actions.append(button);
    }
    parts.push(actions, message);
    if (detail.reportHtml !== undefined) parts.push(el('h3', { text: 'Progress report' }), reportNode(detail.reportHtml));
    if (detail.reportError !== undefined) parts.push(el('p', { class: 'error', text: 'The saved report cannot be read: ' + detail.reportError }));
    parts.push(el('h3', { text: 'Steps' }));
    if (view.omittedSteps > 0) parts.push(el('p', { text: view.omittedSteps + ' earlier iterations not shown' }));
    parts.push(view.steps.length === 0 ? el('p', { text: 'No iteration recorded yet.' }) : el('ol', { class: 'steps' }, ...view.steps.map(stepNode)));
    content.replaceChildren(...parts);
  });
}

function route() {
  if (source) source.close();
  const match = /^\\/runs\\/([^/]+)$/.exec(location.pathname);
  if (match) runView(decodeURIComponent(match[1]));
  else listView();
}
route();
`;
