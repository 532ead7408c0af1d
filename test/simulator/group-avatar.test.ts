import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startSimulator, type Simulator } from '../../simulator/index.js';

describe('embedded server: group avatars over multipart', () => {
  let simulator: Simulator;

  beforeAll(async () => {
    simulator = await startSimulator();
  });

  afterAll(async () => {
    await simulator?.close();
  });

  const put = (file: File) => {
    const form = new FormData();
    form.append('avatar', file, file.name);
    form.append('description', 'with a face');
    return fetch(`${simulator.url}/groups/9`, { method: 'PUT', headers: { 'private-token': DEMO_TOKENS.maintainer }, body: form });
  };

  it('stores an uploaded avatar and the other fields of the same form', async () => {
    const response = await put(new File([new Uint8Array(100)], 'face.png', { type: 'image/png' }));
    expect(response.status).toBe(200);
    const group = (await response.json()) as { avatar_url: string; description: string };
    expect(group.avatar_url).toBe(`${simulator.origin}/uploads/-/system/group/avatar/9/face.png`);
    expect(group.description).toBe('with a face');
  });

  it.each([
    ['too big', new File([new Uint8Array(201 * 1024)], 'big.png'), 'is too big (should be at most 200 KiB)'],
    ['not an image', new File(['x'], 'notes.txt'), 'file format is not supported'],
  ])('refuses an avatar that is %s with a validation error', async (_label, file, message) => {
    const response = await put(file);
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toContain(message);
  });
});
