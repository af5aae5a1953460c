/**
 * Renders the web app's icons (issue 21: installable app) from one SVG with sharp (already a
 * dependency for thumbnails): `npx tsx scripts/make-icons.ts` writes web/public/icons/*.png.
 * The PNGs are committed; run again only when the artwork changes.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';

const OUT = join(import.meta.dirname, '..', 'web', 'public', 'icons');
// brand green (the favicon's), three message lines
const art = (pad: number) => `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">
  <rect width="512" height="512" rx="${pad ? 0 : 112}" fill="#00a884"/>
  <g transform="translate(${pad} ${pad}) scale(${(512 - 2 * pad) / 512})">
    <path d="M144 192h224M144 272h160M144 352h96" stroke="#ffffff" stroke-width="40" stroke-linecap="round"/>
  </g>
</svg>`;
const badge = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 72 72"><path d="M18 26h36M18 38h26M18 50h16" stroke="#ffffff" stroke-width="7" stroke-linecap="round"/></svg>`;

await mkdir(OUT, { recursive: true });
await writeFile(join(OUT, 'icon.svg'), art(0));
const png = (svg: string, size: number) => sharp(Buffer.from(svg)).resize(size, size).png().toBuffer();
await writeFile(join(OUT, 'icon-192.png'), await png(art(0), 192));
await writeFile(join(OUT, 'icon-512.png'), await png(art(0), 512));
// maskable: the artwork inside the 80% safe zone, the background to the edges
await writeFile(join(OUT, 'maskable-512.png'), await png(art(56), 512));
await writeFile(join(OUT, 'apple-touch-icon.png'), await png(art(24), 180));
await writeFile(join(OUT, 'badge-72.png'), await png(badge, 72));
console.log(`icons written to ${OUT}`);
