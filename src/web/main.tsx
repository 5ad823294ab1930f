import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { listenForInstallPrompt } from './lib/install-prompt';
import './styles.css';

// The browser may offer installation before React mounts; keep the event for the install buttons.
listenForInstallPrompt();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
// The first render as a transition: React renders the shell in slices of a few milliseconds instead
// of one long task, so the page stays responsive while it starts (docs/decisions/0020-hot-path-and-first-paint.md).
const reactRoot = createRoot(root);
startTransition(() => {
  reactRoot.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});

// Offline start and installability; only in production builds so dev reloads stay fresh.
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  window.addEventListener('load', () => {
    navigator.serviceWorker
      .register('/sw.js', { scope: '/' })
      .then(async () => {
        const ready = await navigator.serviceWorker.ready;
        // Build files loaded before the worker took over, so the next start works offline too.
        const urls = performance
          .getEntriesByType('resource')
          .map((e) => new URL(e.name).pathname)
          .filter((p) => p.startsWith('/assets/'));
        ready.active?.postMessage({ type: 'CACHE_ASSETS', urls });
      })
      .catch((err: unknown) => {
        console.warn('Service worker registration failed', err);
      });
  });
}
