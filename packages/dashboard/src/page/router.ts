// The address is the page's state: `/` (with its filters in the query) or `/runs/<id>`. Links
// with `data-link` are followed without a reload (pushState); the back button (popstate) and a
// deep link draw the same view a click would.
import { useEffect, useState } from 'preact/hooks';

/** Which view the address asks for; `visit` changes on every navigation, so a view starts afresh. */
export interface Route {
  runId: string | undefined;
  visit: number;
}

const listeners = new Set<() => void>();
let visit = 0;

function notify(): void {
  visit += 1;
  for (const listener of listeners) listener();
}

/** Goes to `path` as a link click would: a new history entry, the view it names. */
function navigate(path: string): void {
  history.pushState(null, '', path);
  notify();
}

function current(): Route {
  const match = /^\/runs\/([^/]+)$/.exec(location.pathname);
  let runId: string | undefined;
  if (match?.[1] !== undefined) {
    try {
      runId = decodeURIComponent(match[1]);
    } catch {
      // Not valid percent-encoding: shown as written; the server answers that no such run exists.
      runId = match[1];
    }
  }
  return { runId, visit };
}

/** The route of the address, kept current across links and the back and forward buttons. */
export function useRoute(): Route {
  const [route, setRoute] = useState(current);
  useEffect(() => {
    const update = (): void => {
      setRoute(current());
    };
    listeners.add(update);
    return () => {
      listeners.delete(update);
    };
  }, []);
  return route;
}

/** Follows same-page links (`a[data-link]`, the header's too) without a reload; a modified click opens a tab as usual. */
export function followLinks(): void {
  document.addEventListener('click', (event) => {
    const target = event.target instanceof Element ? event.target.closest('a[data-link]') : null;
    const path = target?.getAttribute('data-link');
    if (path == null || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    navigate(path);
  });
  window.addEventListener('popstate', notify);
}
