/** Round avatar with initials on a colour derived from the chat id (no images are downloaded yet). */
import { avatarHue, initials } from '../../../lib/format.ts';

export function Avatar({ name, id, size = 44 }: { name: string; id: string; size?: number }) {
  const hue = avatarHue(id);
  return (
    <span
      className="avatar"
      aria-hidden="true"
      style={{ width: size, height: size, fontSize: size * 0.38, ['--avatar-hue' as string]: String(hue) }}
    >
      {initials(name)}
    </span>
  );
}
