/**
 * /settings/integrations/api/reference (issue 20): the public API reference, rendered by Redoc
 * from GET /v1/openapi.json. Redoc's standalone bundle comes from the npm package and is served
 * with the web app (a separate asset, loaded only on this page; no CDN).
 */
import { useEffect, useRef, useState } from 'react';
import redocUrl from 'redoc/bundles/redoc.standalone.js?url';
import { getConfig } from '../../lib/config.ts';
import { MenuButton } from '../../app/shell/MenuButton.tsx';
import { SettingsTitle } from '../settings/index.ts';
import './integrations.css';

type RedocGlobal = { init: (spec: string, options: object, el: HTMLElement, cb?: (e?: unknown) => void) => void };

let loading: Promise<RedocGlobal> | undefined;
function loadRedoc(): Promise<RedocGlobal> {
  loading ??= new Promise((resolve, reject) => {
    const s = document.createElement('script');
    s.src = redocUrl;
    s.async = true;
    s.onload = () => resolve((window as unknown as { Redoc: RedocGlobal }).Redoc);
    s.onerror = () => reject(new Error('Could not load the API reference viewer.'));
    document.head.appendChild(s);
  });
  return loading;
}

export function ApiReferencePage() {
  const el = useRef<HTMLDivElement>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    loadRedoc()
      .then((Redoc) => {
        if (live && el.current) Redoc.init(`${getConfig().apiUrl || window.location.origin}/v1/openapi.json`, { hideDownloadButton: false, expandResponses: '200,201' }, el.current);
      })
      .catch((e: unknown) => live && setError((e as Error).message));
    return () => {
      live = false;
    };
  }, []);
  return (
    <div className="page" data-testid="api-reference-page">
      <header className="page-header">
        <MenuButton />
        <SettingsTitle title="API reference" />
      </header>
      <div className="page-body page-body-wide">
        {error && <p role="alert">{error}</p>}
        <div ref={el} className="api-reference" data-testid="api-reference" />
      </div>
    </div>
  );
}
