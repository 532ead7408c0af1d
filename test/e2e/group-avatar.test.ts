import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';
import { postUpload } from '../support/uploads.js';

const UPDATE = 'mutation($avatar: Upload!) { groupUpdate(input: { fullPath: "opensource", avatar: $avatar }) { errors group { avatarUrl } } }';
const CREATE = 'mutation($avatar: Upload!) { groupCreate(input: { name: "Pictured", path: "pictured", avatar: $avatar }) { errors group { fullPath avatarUrl } } }';

describe('group avatars, uploaded as GraphQL multipart requests', () => {
  const harness = gatewayOverSimulator();

  /** Sends one operation with one file in the `avatar` variable, as GraphQL clients do. */
  async function upload(query: string, file: File, token = DEMO_TOKENS.maintainer) {
    const response = await postUpload(harness.gateway.url, query, {}, { avatar: file }, token);
    return (await response.json()) as { data?: Record<string, { errors: string[]; group: { avatarUrl: string | null; fullPath?: string } | null }>; errors?: Array<{ extensions?: Record<string, unknown> }> };
  }

  const png = (bytes: number, name = 'logo.png') => new File([new Uint8Array(bytes)], name, { type: 'image/png' });

  it('replaces a group\'s avatar, sent upstream as multipart', async () => {
    const result = await upload(UPDATE, png(2_048));
    expect(result.errors).toBeUndefined();
    expect(result.data?.['groupUpdate']?.group?.avatarUrl).toMatch(/\/uploads\/-\/system\/group\/avatar\/\d+\/logo\.png$/);
    // One look-up of the group's numeric id (PUT takes no path), then the upload.
    expect(restCalls(harness.simulator)).toEqual(['GET /groups/opensource', expect.stringMatching(/^PUT \/groups\/\d+$/)]);
    const group = await harness.oracle.get<{ avatar_url: string }>('/groups/opensource', DEMO_TOKENS.maintainer);
    expect(group.avatar_url).toBe(result.data?.['groupUpdate']?.group?.avatarUrl);
  });

  it('creates a group with its avatar in one call', async () => {
    const result = await upload(CREATE, png(512, 'mark.png'));
    expect(result.errors).toBeUndefined();
    expect(result.data?.['groupCreate']?.group).toMatchObject({ fullPath: 'pictured', avatarUrl: expect.stringMatching(/mark\.png$/) as string });
    expect(restCalls(harness.simulator)).toEqual(['POST /groups']);
  });

  it.each([
    ['an avatar over 200 KiB', png(201 * 1024)],
    ['a file that is not an image', new File(['#!/bin/sh'], 'run.sh', { type: 'application/x-sh' })],
  ])('refuses %s before any REST call', async (_label, file) => {
    const result = await upload(UPDATE, file);
    expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'avatar' });
    expect(restCalls(harness.simulator)).toEqual([]);
  });
});
