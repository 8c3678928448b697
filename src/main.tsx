import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Toaster } from 'react-hot-toast';
import { toasterProps } from './lib/toasts';
import { startAuth } from './machines/auth-session';
import { connectInspector, inspector } from './machines/inspector';
import { AuthProvider } from './components/auth-context';
import { App, preloadSignedIn } from './app';
import './styles.css';

/** The Stately inspector, in dev builds only: `?inspect` in the URL or VITE_INSPECT=1. */
async function devInspector() {
  if (!import.meta.env.DEV) return undefined;
  const wanted = new URLSearchParams(location.search).has('inspect') || import.meta.env.VITE_INSPECT === '1';
  if (!wanted) return undefined;
  const { createBrowserInspector } = await import('@statelyai/inspect');
  return createBrowserInspector().inspect;
}

// Every actor started from here on (the auth actor, each screen's) reports to the inspector.
connectInspector(await devInspector());
const auth = startAuth({ inspect: inspector() });
// A stored session is being checked: its screen will most likely be drawn, so its chunks and its data set off now, beside the check.
if (auth.getSnapshot().matches('checking')) preloadSignedIn(location.pathname, location.search);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AuthProvider actor={auth}>
      <App />
      <Toaster {...toasterProps} />
    </AuthProvider>
  </StrictMode>,
);
