import { describe, expect, it } from 'vitest';
import { isEnumType } from 'graphql';
import { createExecutableSchema } from '../../src/schema/executable.js';
import { restEnumValues, restEnumValuesOfDocument } from '../../src/schema/enum-values.js';
import { buildSchemaFromFiles, gatewayDocument } from '../../src/schema/sdl.js';

describe('REST enum values', () => {
  const fromSchema = restEnumValues(buildSchemaFromFiles());

  it('reads the same tables from the SDL document as from a schema built of it, `extend enum` blocks included', () => {
    expect(restEnumValuesOfDocument(gatewayDocument())).toEqual(fromSchema);
    expect(fromSchema['AccessLevelEnum']?.['DEVELOPER']).toBe(30);
  });

  it('are the internal values of every enum of the executable schema, built once', () => {
    const schema = createExecutableSchema();
    const internal: Record<string, Record<string, unknown>> = {};
    for (const type of Object.values(schema.getTypeMap())) {
      if (!isEnumType(type) || type.name.startsWith('__')) continue;
      internal[type.name] = Object.fromEntries(type.getValues().map((value) => [value.name, value.value]));
    }
    expect(internal).toEqual(fromSchema);
  });
});
