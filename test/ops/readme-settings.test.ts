import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { settingsMarkdownTable } from '../../src/server/config.js';

const README = new URL('../../README.md', import.meta.url);

/**
 * The README's settings table is generated from the one table in src/server/config.ts (which also reads
 * the environment and the command line and prints --help); this keeps the README from drifting.
 * To update it: print `settingsMarkdownTable()` and paste it over the table in "Operations".
 */
describe('the README settings table', () => {
  it('is the table generated from src/server/config.ts', () => {
    const readme = readFileSync(README, 'utf8');
    const header = settingsMarkdownTable().split('\n')[0]!;
    const start = readme.indexOf(header);
    expect(start, `README.md has no table starting with "${header}"`).toBeGreaterThanOrEqual(0);
    const rest = readme.slice(start);
    const end = rest.search(/\n(?!\|)/);
    expect(rest.slice(0, end === -1 ? undefined : end)).toBe(settingsMarkdownTable());
  });
});
