// NOTE: first: zod must not probe for `eval` under the CSP (issue #4; see the module).
import './zod-csp';
import { nextTask } from './start/next-task';

/**
 * The app's entry, kept tiny (issue #20, decision 0070): it evaluates the app's code in stages, each a chunk of its
 * own evaluated in a task of its own, yielding to the browser between them, so that no single task runs the whole
 * start (Total Blocking Time): React and react-dom, then emotion, MUI's style system and the theme, then the site,
 * which renders or hydrates. The pre-rendered /donate preloads every stage's chunk once it has painted
 * (prerender-page.ts), so no stage waits for another's download; until the site is live, the early script keeps the
 * donor's choices (decision 0023).
 */
async function start(): Promise<void> {
  const container = document.getElementById('root');
  if (!container) throw new Error('index.html has no #root element');
  await import('./start/react-stage');
  await nextTask();
  await import('./start/theme-stage');
  await nextTask();
  const { startSite } = await import('./start/site-stage');
  await nextTask();
  await startSite(container);
}

void start();
