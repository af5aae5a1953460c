/**
 * Colours come only from tokens.css: every other stylesheet under web/src refers to the tokens
 * (var(--…)), so the light and dark themes change everything at once.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../../web/src');
const cssFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? cssFiles(join(dir, e.name)) : e.name.endsWith('.css') ? [join(dir, e.name)] : []));

/** hex, rgb()/rgba(), hsl()/hsla() with literal numbers, and named colours that sneak in */
const COLOUR = /#[0-9a-f]{3,8}\b|\brgba?\(|\bhsla?\((?!var\(--avatar-hue\))|(?<![-\w])(?:white|black|red|green|blue|gray|grey)(?![-\w])/gi;

describe('stylesheet colours', () => {
  it('are written only in tokens.css', () => {
    // Arrange
    const files = cssFiles(root).filter((f) => !f.endsWith('tokens.css'));
    // Act
    const found = files.flatMap((f) =>
      readFileSync(f, 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .split('\n')
        .flatMap((line, i) => (line.match(COLOUR) ? [`${relative(root, f)}:${i + 1}: ${line.trim()}`] : [])),
    );
    // Assert
    expect(found).toEqual([]);
  });
});
