/**
 * The spec §2 help menu's links and troubleshooting items (issue 22), loaded when Help first opens
 * (app/shell/OrgSwitcher.tsx keeps Reload app and Refresh data inline). Links come from
 * configuration (features/plans/links.ts); one without a target is not listed.
 */
import * as Menu from '@radix-ui/react-dropdown-menu';
import { link } from './links.ts';

const HELP_LINKS = [
  ['status', 'System status'],
  ['documentation', 'Documentation'],
  ['tutorial', 'Tutorial'],
  ['contact', 'Contact us'],
  ['feature_request', 'Feature request'],
  ['best_practices', 'Best practices'],
  ['book_demo', 'Book a demo'],
] as const;

export function HelpLinks({ onTroubleshoot }: { onTroubleshoot: (kind: 'chats' | 'slow') => void }) {
  return (
    <>
      {HELP_LINKS.flatMap(([key, label]) => {
        // a link this deployment has no target for is left out (issue 49 item 10)
        const href = link(key);
        return href
          ? [
              <Menu.Item key={key} className="org-menu-item" onSelect={() => window.open(href, '_blank', 'noopener')} data-testid={`help-${key}`}>
                {label}
              </Menu.Item>,
            ]
          : [];
      })}
      <Menu.Item className="org-menu-item" onSelect={() => onTroubleshoot('chats')} data-testid="help-chats-not-loading">
        Chats not loading?
      </Menu.Item>
      <Menu.Item className="org-menu-item" onSelect={() => onTroubleshoot('slow')} data-testid="help-app-slow">
        App slow?
      </Menu.Item>
    </>
  );
}
