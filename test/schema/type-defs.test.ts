import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { typeDefsSource } from '../../scripts/type-defs.js';
import { gatewayTypeDefs, readTypeDefs, TYPE_DEFS_FILE } from '../../src/schema/sdl.js';

describe('the type definitions the running gateway reads', () => {
  it('are the SDL files expanded, as last generated (run `npm run codegen` after changing schema/)', () => {
    expect(readFileSync(TYPE_DEFS_FILE, 'utf8'), `${TYPE_DEFS_FILE} is stale`).toBe(typeDefsSource());
  });

  it('are what the gateway hands embedders, with no @connection declaration left', () => {
    expect(gatewayTypeDefs().endsWith(readTypeDefs())).toBe(true);
    expect(gatewayTypeDefs()).not.toMatch(/^[^#\n]*@connection\b/m);
  });
});
