import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { settingsMarkdownTable } from '../../src/server/config.js';

const OPERATIONS = new URL('../../docs/operations.md', import.meta.url);

/**
 * The settings table of docs/operations.md ("Settings and the command line") is generated from the
 * one table in src/server/config.ts (which also reads the environment and the command line and prints
 * --help); this keeps the page from drifting. To update it: print `settingsMarkdownTable()` and paste
 * it over the table there.
 */
describe('the settings table of docs/operations.md', () => {
  it('is the table generated from src/server/config.ts', () => {
    const page = readFileSync(OPERATIONS, 'utf8');
    const header = settingsMarkdownTable().split('\n')[0]!;
    const start = page.indexOf(header);
    expect(start, `docs/operations.md has no table starting with "${header}"`).toBeGreaterThanOrEqual(0);
    const rest = page.slice(start);
    const end = rest.search(/\n(?!\|)/);
    expect(rest.slice(0, end === -1 ? undefined : end)).toBe(settingsMarkdownTable());
  });
});
