// The page the dashboard serves: one HTML shell for every route (deep links load it, the script
// draws the route), its script and its style, served from the same origin so the CSP needs no
// inline script. The script is built from src/page/ (Preact, bundled at build time); it sets
// every text as text, and the one exception, the saved report, is rendered server-side with raw
// HTML off and parsed in an inert document.
import { readFileSync } from 'node:fs';
import { DashboardError } from './dashboard-error.js';

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
table.runs{table-layout:fixed}table.runs td{white-space:nowrap;overflow:hidden;text-overflow:ellipsis}table.runs tr.spacer td{padding:0;border:0}
table.runs th:nth-child(1){width:7.5rem}table.runs th:nth-child(2){width:8rem}table.runs th:nth-child(3){width:5rem}table.runs th:nth-child(4){width:9rem}
table.runs th:nth-child(5){width:4.5rem}table.runs th:nth-child(6){width:4.5rem}table.runs th:nth-child(7){width:2.5rem}table.runs th:nth-child(8),table.runs th:nth-child(9){width:5rem}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}dt{font-weight:600}
button{padding:.3rem .8rem}
.error{color:#b91c1c}
.steps{list-style:none;padding:0}.steps li{border-left:3px solid #2563eb;padding:.25rem .75rem;margin:.5rem 0;background:#fff}
.tool{font-family:ui-monospace,monospace;white-space:pre-wrap;word-break:break-word;margin:.25rem 0}
.text{white-space:pre-wrap;word-break:break-word}
.report{background:#fff;border:1px solid #ddd;padding:.5rem 1rem}
.live{color:#166534}.offline{color:#b91c1c}
table.cost{width:auto;margin-bottom:.5rem}
`;

/** The page's scripts, as the build writes them from `src/page/` (bundled with Preact) into `dist/page/`. */
type PageScriptName = 'app.js' | 'live-worker.js';

const scripts = new Map<PageScriptName, string>();

/**
 * One of the page's scripts (`app.js`, the page; `live-worker.js`, the worker that reads its live
 * streams), as the build wrote it: read once, then kept. The same path serves from `src/` (tests)
 * and from `dist/` (the package).
 *
 * @throws {DashboardError} `DASHBOARD_UNAVAILABLE` when the package was not built.
 */
export function pageScript(name: PageScriptName): string {
  const known = scripts.get(name);
  if (known !== undefined) return known;
  let script: string;
  try {
    script = readFileSync(new URL(`../dist/page/${name}`, import.meta.url), 'utf8');
  } catch (error) {
    throw new DashboardError(
      'DASHBOARD_UNAVAILABLE',
      `the page script is not built (dist/page/${name}): run the build of @headway/dashboard`,
      {
        cause: error,
      },
    );
  }
  scripts.set(name, script);
  return script;
}
