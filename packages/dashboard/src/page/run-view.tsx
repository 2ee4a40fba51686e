// One run's page: its state and numbers, the chain of continuations, the actions the server
// allows now, its cost by model, its saved report and its iterations.
import { useEffect, useRef, useState } from 'preact/hooks';
import { eta, spent, usd } from './format.js';
import type { CostLine, PageAction, PageRun, RunFrame } from './frames.js';
import { useLiveRun } from './live.js';
import { Link, RunLink, Status } from './parts.js';

type Step = RunFrame['view']['steps'][number];

/**
 * The saved report: the one piece drawn from HTML. The server rendered it with raw HTML off
 * (@headway/report/html); DOMParser builds it in an inert document, so nothing in it runs, and
 * the CSP forbids any script in it anyway.
 */
function Report({ html }: { html: string }) {
  const section = useRef<HTMLElement>(null);
  useEffect(() => {
    const doc = new DOMParser().parseFromString(html, 'text/html');
    section.current?.replaceChildren(...Array.from(doc.body.childNodes, (child) => document.adoptNode(child)));
  }, [html]);
  return <section ref={section} class="report" aria-label="progress report" />;
}

function StepItem({ step }: { step: Step }) {
  return (
    <li>
      <h4>Iteration {String(step.iteration)}</h4>
      {step.text === '' ? null : <div class="text">{step.text}</div>}
      {step.tools.map((tool, i) => (
        <div key={i} class="tool">
          {`${tool.name}(${tool.args})${tool.result === undefined ? ' …running' : ` → ${tool.result}`}`}
        </div>
      ))}
    </li>
  );
}

function CostByModel({ lines }: { lines: CostLine[] }) {
  return (
    <>
      <h3>Cost by model</h3>
      <table class="cost">
        <thead>
          <tr>
            {['Model', 'Calls', 'Tokens in', 'Tokens out', 'Spent'].map((h) => (
              <th key={h} scope="col">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {lines.map((line) => (
            <tr key={line.model}>
              <td>{line.model}</td>
              <td>{String(line.calls)}</td>
              <td>{String(line.inputTokens)}</td>
              <td>{String(line.outputTokens)}</td>
              <td>{line.spentUsd === null ? 'unpriced' : usd(line.spentUsd)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

const DONE: Record<PageAction, string> = { continue: 'requested', resume: 'requested', cancel: 'requested', abandon: 'done' };

/** The buttons of the actions the server allows on the run now (none when it does not say). */
function Actions({ run, onResult }: { run: PageRun; onResult: (text: string) => void }) {
  const take = async (action: PageAction): Promise<void> => {
    try {
      const response = await fetch(`/api/runs/${encodeURIComponent(run.id)}/${action}`, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      const body = (await response.json()) as { error?: { message?: string } };
      if (!response.ok) onResult(body.error?.message ?? `${action}: refused (${String(response.status)})`);
      else onResult(response.status === 202 ? `${action}: requested; a worker carries it out` : `${action}: ${DONE[action]}`);
    } catch {
      onResult(`${action}: the server could not be reached`);
    }
  };
  return (
    <p>
      {(run.actions ?? []).map((action) => (
        <button key={action} type="button" onClick={() => void take(action)}>
          {action.charAt(0).toUpperCase() + action.slice(1)}
        </button>
      ))}
    </p>
  );
}

function Detail({ detail }: { detail: RunFrame }) {
  const [message, setMessage] = useState('');
  const { run, chain, view } = detail;
  const rows: [string, string][] = [
    ['State', `${run.state} (${run.stateText})`],
    ['Task', run.task],
    ['Agent', run.agent === '' ? 'not recorded' : run.agent],
    ['Worker', run.sessionId],
    ['Iteration', String(run.iteration)],
    ['Spent', spent(run)],
    ['Tokens', `${String(run.inputTokens)} in, ${String(run.outputTokens)} out`],
    ['Tools', run.toolsUsed.join(', ') || 'none'],
    ['Progress', `${String(Math.round(run.percent))}%${eta(run) === '' ? '' : `, ETA ${eta(run)}`}`],
  ];
  if (view.plan !== undefined)
    rows.push(['Plan', `${String(view.plan.completed)} of ${String(view.plan.total)} done, ${String(view.plan.inProgress)} in progress`]);
  if (view.currentStep !== undefined) rows.push(['Step', view.currentStep]);
  if (run.error !== undefined) rows.push(['Error', run.error]);
  return (
    <div>
      <dl>{rows.map(([k, v]) => [<dt key={`${k}-t`}>{k}</dt>, <dd key={`${k}-d`}>{v}</dd>])}</dl>
      {chain.length > 1 ? (
        <>
          <h3>Chain of continuations</h3>
          <ol class="chain">
            {chain.map((runId) => (
              <li key={runId}>{runId === run.runId ? <strong>{runId}</strong> : <RunLink runId={runId} />}</li>
            ))}
          </ol>
        </>
      ) : null}
      <Actions run={run} onResult={setMessage} />
      <p role="alert">{message}</p>
      {detail.costByModel !== undefined && detail.costByModel.length > 0 ? <CostByModel lines={detail.costByModel} /> : null}
      {detail.reportHtml === undefined ? null : (
        <>
          <h3>Progress report</h3>
          <Report html={detail.reportHtml} />
        </>
      )}
      {detail.reportError === undefined ? null : <p class="error">The saved report cannot be read: {detail.reportError}</p>}
      <h3>Steps</h3>
      {view.omittedSteps > 0 ? <p>{String(view.omittedSteps)} earlier iterations not shown</p> : null}
      {view.steps.length === 0 ? (
        <p>No iteration recorded yet.</p>
      ) : (
        <ol class="steps">
          {view.steps.map((step) => (
            <StepItem key={step.iteration} step={step} />
          ))}
        </ol>
      )}
    </div>
  );
}

/** The run view of `/runs/<id>`. */
export function RunView({ id }: { id: string }) {
  const { frame, status } = useLiveRun(`/api/runs/${encodeURIComponent(id)}/stream`);
  return (
    <>
      <p>
        <Link path="/">← all runs</Link>
      </p>
      <h2>{id}</h2>
      <Status status={status} />
      {frame === undefined ? (
        <div>
          <p>loading {id}</p>
        </div>
      ) : (
        <Detail detail={frame} />
      )}
    </>
  );
}
