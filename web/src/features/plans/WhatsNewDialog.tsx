/** What's New (spec §2 sidebar footer), from the changelog file (features/plans/changelog.json). */
import { Dialog } from '../../components/ui/Dialog.tsx';
import changelog from './changelog.json';

export function WhatsNewDialog({ onClose }: { onClose: () => void }) {
  return (
    <Dialog title="What's New" onClose={onClose} testId="whats-new-dialog">
      <div className="lc-changelog">
        {changelog.map((e) => (
          <article key={e.id}>
            <h3>
              {e.title} <span className="muted small">{e.date}</span>
            </h3>
            <ul>
              {e.items.map((i) => (
                <li key={i}>{i}</li>
              ))}
            </ul>
          </article>
        ))}
      </div>
    </Dialog>
  );
}
