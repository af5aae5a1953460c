/* Chorus service worker (issue 21): web push, notification clicks, and an offline shell.
 *
 * - push: the payload is JSON (shared/push/push.schemas.ts PushPayload: kind, title, body, url,
 *   org_id, chat_id, tag) decrypted by the browser; it is shown with showNotification, and open
 *   windows are told ({ type: 'chorus.push', payload }) so the page can react.
 * - notificationclick: focus a Chorus window and navigate it to the payload's url (e.g.
 *   /chats/{chat_id}), or open one.
 * - offline shell: the app page and the hashed assets it loaded are kept in a cache; with no
 *   network, navigations get the cached page (the app then shows its own offline state). API
 *   calls, sockets and media are never cached.
 */
const SHELL_CACHE = 'chorus-shell-v1';
const SHELL = ['/', '/manifest.webmanifest', '/icons/icon-192.png', '/icons/icon-512.png'];

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(SHELL_CACHE)
      .then((c) => c.addAll(SHELL))
      .catch(() => undefined)
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith('chorus-shell-') && k !== SHELL_CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  if (req.mode === 'navigate') {
    // network first: a fresh page when online, the cached shell when not
    event.respondWith(
      fetch(req)
        .then((res) => {
          if (res.ok) {
            const copy = res.clone();
            caches.open(SHELL_CACHE).then((c) => c.put('/', copy));
          }
          return res;
        })
        .catch(() => caches.match('/').then((r) => r || new Response('Chorus is offline.', { status: 503, headers: { 'content-type': 'text/plain' } }))),
    );
    return;
  }
  if (url.pathname.startsWith('/assets/')) {
    // hashed file names never change: cache first
    event.respondWith(
      caches.match(req).then(
        (hit) =>
          hit ||
          fetch(req).then((res) => {
            if (res.ok) {
              const copy = res.clone();
              caches.open(SHELL_CACHE).then((c) => c.put(req, copy));
            }
            return res;
          }),
      ),
    );
  }
});

function parsePayload(event) {
  try {
    return event.data ? event.data.json() : null;
  } catch {
    return { title: 'Chorus', body: event.data ? event.data.text() : '', url: '/chats', tag: 'chorus' };
  }
}

async function tellClients(message) {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  for (const w of windows) w.postMessage(message);
}

self.addEventListener('push', (event) => {
  const p = parsePayload(event) || { title: 'Chorus', body: '', url: '/chats', tag: 'chorus' };
  event.waitUntil(
    self.registration
      .showNotification(p.title || 'Chorus', {
        body: p.body || '',
        tag: p.tag || undefined,
        renotify: !!p.tag,
        icon: '/icons/icon-192.png',
        badge: '/icons/badge-72.png',
        data: { url: p.url || '/chats', org_id: p.org_id || null, chat_id: p.chat_id || null, kind: p.kind || null },
      })
      .then(() => tellClients({ type: 'chorus.push', payload: p })),
  );
});

/** Focus a Chorus window and send it to `url` (same origin only), or open one. */
async function openUrl(url) {
  const target = new URL(url || '/chats', self.location.origin);
  if (target.origin !== self.location.origin) return null;
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  for (const w of windows) {
    if (new URL(w.url).origin !== self.location.origin) continue;
    // the page navigates itself without a reload when it can (it listens for this message)
    w.postMessage({ type: 'chorus.navigate', url: target.pathname + target.search });
    try {
      await w.focus();
    } catch {
      /* focusing needs a user gesture in some browsers */
    }
    return w;
  }
  return self.clients.openWindow(target.href);
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const data = event.notification.data || {};
  event.waitUntil(openUrl(data.url).then(() => tellClients({ type: 'chorus.notification_clicked', url: data.url, tag: event.notification.tag })));
});

// Test hook (tests/e2e/push.e2e.test.ts): DevTools cannot click an OS notification, so the test
// asks the worker to list what it shows and to run the same click path for one tag.
self.addEventListener('message', (event) => {
  const m = event.data || {};
  if (m.type === 'chorus.list_notifications') {
    event.waitUntil(
      self.registration.getNotifications().then((ns) => {
        const out = ns.map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data }));
        if (event.source) event.source.postMessage({ type: 'chorus.notifications', notifications: out });
      }),
    );
  }
  if (m.type === 'chorus.click_notification') {
    event.waitUntil(
      self.registration.getNotifications({ tag: m.tag }).then(async (ns) => {
        const n = ns[0];
        if (!n) return;
        const url = (n.data && n.data.url) || '/chats';
        n.close();
        await openUrl(url);
        await tellClients({ type: 'chorus.notification_clicked', url, tag: m.tag });
      }),
    );
  }
});
