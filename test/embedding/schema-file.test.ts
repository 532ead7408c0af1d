import { readFileSync } from 'node:fs';
import { buildSchema, findBreakingChanges } from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildSchemaFromFiles } from '../../src/schema/sdl.js';
import { printGatewaySchema, SCHEMA_FILE_NAME } from '../../src/schema/print.js';

const published = () => readFileSync(new URL(`../../${SCHEMA_FILE_NAME}`, import.meta.url), 'utf8');

describe('the published schema file', () => {
  it('is the executable schema, printed (run `npm run schema` after changing schema/*.graphql)', () => {
    expect(published(), `${SCHEMA_FILE_NAME} is stale`).toBe(printGatewaySchema());
  });

  it('stands alone, with the types, fields and arguments of schema/*.graphql', () => {
    const fromFile = buildSchema(published());
    const fromSources = buildSchemaFromFiles();
    // No change breaks a client either way: the same types, fields, arguments and enum values.
    expect(findBreakingChanges(fromSources, fromFile)).toEqual([]);
    expect(findBreakingChanges(fromFile, fromSources)).toEqual([]);
  });
});
