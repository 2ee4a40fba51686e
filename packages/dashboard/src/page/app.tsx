// The page's script: the list at `/`, one run at `/runs/<id>`, drawn by Preact into #app. Every
// text is set as text (Preact never parses strings as HTML); the saved report is the one piece
// built from HTML, in an inert document (see run-view.tsx).
import { render } from 'preact';
import { ListView } from './list-view.js';
import { followLinks, useRoute } from './router.js';
import { RunView } from './run-view.js';

function App() {
  const route = useRoute();
  // Keyed by the visit: a navigation (a link, the back button) starts the view afresh, as a load would.
  return route.runId === undefined ? <ListView key={route.visit} /> : <RunView key={route.visit} id={route.runId} />;
}

const root = document.getElementById('app');
if (root !== null) {
  followLinks();
  render(<App />, root);
}
