// Small pieces both views draw.
import type { LiveStatus } from './live-messages.js';

/** A same-page link (followed without a reload, see `followLinks`). */
export function Link({ path, children }: { path: string; children: string }) {
  return (
    <a href={path} data-link={path}>
      {children}
    </a>
  );
}

/** A link to a run's page. */
export function RunLink({ runId }: { runId: string }) {
  return <Link path={`/runs/${encodeURIComponent(runId)}`}>{runId}</Link>;
}

/** The line that says whether the view is live, reconnecting, or why it stopped. */
export function Status({ status }: { status: LiveStatus }) {
  return (
    <p role="status" class={status.kind}>
      {status.text}
    </p>
  );
}
