/**
 * Boot: load `/config.json`, configure Amplify's Cognito client from it, then render the app.
 * A missing or broken configuration shows a plain error with Retry instead of a blank page.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { loadConfig } from './lib/config.ts';
import { configureAuth } from './lib/auth.ts';
import { App } from './app/App.tsx';
import { FullScreenMessage } from './app/pages/FullScreenMessage.tsx';
import './styles/app.css';
import './app/install-prompt.ts';

const root = createRoot(document.getElementById('root')!);

async function boot(): Promise<void> {
  root.render(<FullScreenMessage title="Loading Chorus…" busy />);
  try {
    const config = await loadConfig();
    configureAuth(config);
  } catch (e) {
    root.render(
      <FullScreenMessage title="Chorus could not start" body={e instanceof Error ? e.message : String(e)}>
        <button type="button" className="btn btn-primary" onClick={() => void boot()}>
          Retry
        </button>
      </FullScreenMessage>,
    );
    return;
  }
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

void boot();
