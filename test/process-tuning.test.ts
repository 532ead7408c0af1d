import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const FIXTURE = 'test/fixtures/process-tuning/long-lived-literals.ts';

/**
 * How many allocation sites V8 decided to allocate in the old generation while the fixture ran. A
 * young generation held at its largest (1 MB semi-spaces) makes V8 decide at once rather than
 * "maybe", so that the untuned run's decisions do not hang on how far it grew.
 */
async function tenureDecisions(tune: boolean): Promise<number> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--trace-pretenuring-statistics', '--max-semi-space-size=1', '--import', 'tsx', FIXTURE], {
    cwd: ROOT,
    env: { ...process.env, TUNE: tune ? '1' : '0' },
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout.split('\n').filter((line) => line.endsWith('=> tenure')).length;
}

describe('the server process settings (tuneServerProcess, applied by the command line)', () => {
  it('turn off allocation-site pretenuring, which a process of long-lived literals otherwise gets', async () => {
    // Without them V8 does pretenure here, so the tuned run's zero is the setting's doing.
    expect(await tenureDecisions(false)).toBeGreaterThan(0);
    expect(await tenureDecisions(true)).toBe(0);
  }, 60_000);
});
