import { describe, expect, it } from 'vitest';
import { redact, redactDeep } from '../src/errors/redact.js';

describe('redact', () => {
  it.each(['glpat-demo-admin', 'glrt-6337ff461c94fd3fa32ba3b1ff4125', 'GR1348941abcDEF', 'gloas-xyz', 'glcbt-64_abc'])(
    'removes the GitLab token %s',
    (token) => {
      expect(redact(`token ${token} was refused`)).toBe('token [REDACTED] was refused');
    },
  );

  it('removes given secrets that have no GitLab prefix, deep inside bodies', () => {
    expect(redactDeep({ message: { field: ['oauth-secret-value is wrong'] } }, ['oauth-secret-value'])).toEqual({
      message: { field: ['[REDACTED] is wrong'] },
    });
  });

  it('leaves ordinary text alone', () => {
    expect(redact('gitlab-org/gitlab has 3 runners')).toBe('gitlab-org/gitlab has 3 runners');
  });
});
