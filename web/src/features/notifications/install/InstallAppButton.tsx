/**
 * The install-app button (spec §2) with the iOS instructions dialog, and spec §8's toast when the
 * browser has no install prompt to show (use the address bar's install button instead).
 * Hidden when Chorus already runs as an installed app.
 */
import { useEffect, useState } from 'react';
import { Dialog } from '../../../components/ui/Dialog.tsx';
import { useToast } from '../../../app/toast.tsx';
import './install.css';
import { consumeInstallPrompt, installPrompt, isIos, isStandalone, onInstallPromptChange } from '../../../app/install-prompt.ts';

/** spec §8 'Install prompt missing': toast to use the address-bar install button. */
export const INSTALL_PROMPT_MISSING_MESSAGE = "Your browser did not offer to install Chorus here. Use the install button in your browser's address bar instead.";

export function InstallAppButton({ className = 'btn' }: { className?: string }) {
  const toast = useToast();
  const [iosOpen, setIosOpen] = useState(false);
  const [, setTick] = useState(0);
  useEffect(() => onInstallPromptChange(() => setTick((t) => t + 1)), []);
  if (isStandalone()) return null;

  const install = async () => {
    if (isIos()) return setIosOpen(true);
    const p = installPrompt();
    if (!p) return toast.show(INSTALL_PROMPT_MISSING_MESSAGE, 'info');
    await p.prompt();
    await p.userChoice.catch(() => undefined);
    consumeInstallPrompt();
  };

  return (
    <>
      <button type="button" className={className} onClick={() => void install()} data-testid="install-app">
        Install app
      </button>
      {iosOpen && (
        <Dialog title="Install Chorus on your iPhone or iPad" onClose={() => setIosOpen(false)} testId="ios-install-dialog">
          <ol className="ios-steps">
            <li>
              Open Chorus in <strong>Safari</strong>.
            </li>
            <li>
              Tap the <strong>Share</strong> button (the square with an arrow) in the toolbar.
            </li>
            <li>
              Scroll down and tap <strong>Add to Home Screen</strong>, then <strong>Add</strong>.
            </li>
            <li>Open Chorus from your Home Screen, then turn on notifications in Settings → Notifications.</li>
          </ol>
          <div className="dialog-actions">
            <button type="button" className="btn btn-primary" onClick={() => setIosOpen(false)}>
              Got it
            </button>
          </div>
        </Dialog>
      )}
    </>
  );
}
