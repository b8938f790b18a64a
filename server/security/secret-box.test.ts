import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSecretBox } from './secret-box.ts';

const key = () => randomBytes(32).toString('base64');

describe('secret box', () => {
  it('opens what it sealed, and never stores the plain text', () => {
    const box = createSecretBox(key());
    const sealed = box.seal('smtp pässword');
    expect(sealed).not.toContain('smtp');
    expect(sealed.startsWith('v1:')).toBe(true);
    expect(box.open(sealed)).toBe('smtp pässword');
    expect(box.seal('same')).not.toBe(box.seal('same'));
  });

  it('refuses a wrong key and a tampered secret', () => {
    const sealed = createSecretBox(key()).seal('secret');
    expect(() => createSecretBox(key()).open(sealed)).toThrow();
    const box = createSecretBox(key());
    const good = box.seal('secret');
    const parts = good.split(':');
    parts[3] = Buffer.from('tampered').toString('base64');
    expect(() => box.open(parts.join(':'))).toThrow();
    expect(() => box.open('plain text')).toThrow();
  });

  it('refuses a key of the wrong size', () => {
    expect(() => createSecretBox(randomBytes(16).toString('base64'))).toThrow(/32 bytes/);
  });
});
