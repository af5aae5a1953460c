/**
 * Small display parts of a chat shared by the chat list, the chat header actions and settings:
 * a member's name and initials avatar, the glyphs the shared icon set lacks, a label chip.
 * Kept apart from ChatActions.tsx so the list (the first screen of /chats) does not load the
 * header's pickers and dialogs.
 */
import type { OrgMember } from '../../../lib/api.ts';
import { avatarHue, initials } from '../../../lib/format.ts';
import { labelTextColor } from '../../tickets/index.ts';

export const memberName = (email: string, members: OrgMember[]): string => members.find((m) => m.email.toLowerCase() === email.toLowerCase())?.member_name?.trim() || email;

/** Small round initials of a member (the list's assignee, the picker). */
export function MemberAvatar({ email, name, size = 20 }: { email: string; name: string; size?: number }) {
  return (
    <span className="avatar member-avatar" aria-hidden="true" style={{ width: size, height: size, fontSize: size * 0.42, ['--avatar-hue' as string]: String(avatarHue(email)) }}>
      {initials(name.includes('@') ? name.split('@')[0].replace(/[._-]+/g, ' ') : name)}
    </span>
  );
}

// ---- glyphs the shared icon set does not have (24x24, currentColor, decorative) -----------

const GLYPHS = {
  user: ['M20 21v-2a4 4 0 0 0-4-4H8a4 4 0 0 0-4 4v2', 'M12 3a4 4 0 1 0 0 8 4 4 0 0 0 0-8z'],
  tag: ['M20.6 13.4l-7.2 7.2a2 2 0 0 1-2.8 0L2 12V2h10l8.6 8.6a2 2 0 0 1 0 2.8z', 'M7 7h.01'],
  clock: ['M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20z', 'M12 6v6l4 2'],
  check: ['M22 11.1V12a10 10 0 1 1-5.9-9.1', 'M22 4L12 14l-3-3'],
  reopen: ['M3 12a9 9 0 1 0 3-6.7L3 8', 'M3 3v5h5'],
  'bell-off': ['M13.7 21a2 2 0 0 1-3.4 0', 'M18.6 13A17.9 17.9 0 0 1 18 8', 'M6.3 6.3A5.9 5.9 0 0 0 6 8c0 7-3 9-3 9h14', 'M18 8a6 6 0 0 0-9.3-5', 'M1 1l22 22'],
  archive: ['M21 8v13H3V8', 'M1 3h22v5H1z', 'M10 12h4'],
  lock: ['M5 11h14v10H5z', 'M8 11V7a4 4 0 0 1 8 0v4'],
} as const;

export function Glyph({ name, size = 18 }: { name: keyof typeof GLYPHS; size?: number }) {
  return (
    <svg className="icon" width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      {GLYPHS[name].map((d) => (
        <path key={d} d={d} />
      ))}
    </svg>
  );
}

/** Coloured chip of a chat label (list rows, settings). */
export function ChatLabelChip({ name, color }: { name: string; color: string }) {
  return (
    <span className="chat-label-chip" style={{ background: color, color: labelTextColor(color) }} title={`Label: ${name}`}>
      {name}
    </span>
  );
}
