/**
 * Local reset (spec §9: clears databases, caches, service workers, cookies and storage; §8 'Failed
 * to clear local data!…'). Used by the help menu's 'Chats not loading?' / 'App slow?' dialog.
 */
export const CLEAR_DATA_FAILED = 'Failed to clear local data! Please clear all your cookies and try again. Or contact support';

export async function clearLocalData(): Promise<void> {
  const dbs = (await indexedDB.databases?.()) ?? [];
  await Promise.all(dbs.map((d) => (d.name ? new Promise<void>((res) => { const r = indexedDB.deleteDatabase(d.name!); r.onsuccess = r.onerror = r.onblocked = () => res(); }) : undefined)));
  if ('caches' in window) await Promise.all((await caches.keys()).map((k) => caches.delete(k)));
  if ('serviceWorker' in navigator) await Promise.all((await navigator.serviceWorker.getRegistrations()).map((r) => r.unregister()));
  for (const c of document.cookie.split(';')) {
    const name = c.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  }
  localStorage.clear();
  sessionStorage.clear();
}
