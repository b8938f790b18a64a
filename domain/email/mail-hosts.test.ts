import { describe, expect, it } from 'vitest';
import { isAllowedMailHost } from './mail-hosts.ts';

describe('allowed mail hosts', () => {
  it('allows any host when no list is set', () => {
    expect(isAllowedMailHost('127.0.0.1', null)).toBe(true);
    expect(isAllowedMailHost('mail.internal', [])).toBe(true);
  });

  it('allows exact names and wildcard subdomains only, without case or a trailing dot', () => {
    const allowed = ['smtp.gmail.com', '*.office365.com'];
    expect(isAllowedMailHost('SMTP.Gmail.com.', allowed)).toBe(true);
    expect(isAllowedMailHost('smtp.office365.com', allowed)).toBe(true);
    expect(isAllowedMailHost('office365.com', allowed)).toBe(false);
    expect(isAllowedMailHost('evil-office365.com', allowed)).toBe(false);
    expect(isAllowedMailHost('127.0.0.1', allowed)).toBe(false);
    expect(isAllowedMailHost('smtp.gmail.com.evil.example', allowed)).toBe(false);
  });
});
