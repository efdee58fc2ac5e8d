// Which demo e-mail a refusal's header may name: only one that looks like an address, never a list, a long value or
// control characters (the header is shown to the user inside the refusal's sentence).
import { describe, expect, it } from 'vitest';
import { demoEmailOffered } from '../../../src-main/core/api/mlso-client';
import { DEMO_EMAIL_HEADER } from '../../../src-shared/api/service-facts';

describe('the demo e-mail a server offers', () => {
  it('is taken when it looks like an address', () => {
    expect(demoEmailOffered({ [DEMO_EMAIL_HEADER]: 'demo@example.com' })).toBe('demo@example.com');
  });

  it.each([
    ['no header', undefined],
    ['a repeated header', ['demo@example.com', 'other@example.com']],
    ['no @', 'demo.example.com'],
    ['two @', 'demo@x@example.com'],
    ['a space', 'demo @example.com'],
    ['an escape sequence', '\u001b[31mdemo@example.com'],
    ['a non-ASCII letter', 'démo@example.com'],
    ['more than 254 characters', `${'d'.repeat(250)}@example.com`],
  ])('is ignored with %s', (_case, value) => {
    expect(demoEmailOffered({ [DEMO_EMAIL_HEADER]: value })).toBeUndefined();
  });
});
