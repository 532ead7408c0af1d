import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generate } from '@graphql-codegen/cli';
import config from '../codegen.js';

describe('generated resolver types', () => {
  it('match schema/*.graphql (run `npm run codegen` after changing the schema)', async () => {
    const outputs = (await generate({ ...config, silent: true }, false)) as Array<{ filename: string; content: string }>;
    expect(outputs.length).toBeGreaterThan(0);
    for (const output of outputs) {
      const committed = readFileSync(output.filename, 'utf8');
      expect(committed, `${output.filename} is stale`).toBe(output.content);
    }
  });
});
