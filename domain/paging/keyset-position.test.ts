import { describe, expect, it } from 'vitest';
import { KeysetPositionSchema } from './keyset-position.schema.ts';

const ID = '0b8f4c1e-2f0a-4c55-9a1e-6f1f5d2e9a10';

describe('page positions (keyset paging)', () => {
  it('accepts a position the server wrote, to the microsecond', () => {
    expect(KeysetPositionSchema.safeParse(`2026-11-25T10:00:00.123456Z|${ID}`).success).toBe(true);
    expect(KeysetPositionSchema.safeParse(`2026-11-25T10:00:00Z|${ID}`).success).toBe(true);
  });

  it('refuses made-up days, times and ids before they reach the database', () => {
    for (const bad of [
      `2026-02-30T10:00:00Z|${ID}`,
      `2026-13-01T10:00:00Z|${ID}`,
      `2026-11-25T24:00:00Z|${ID}`,
      `2026-11-25T10:00:00Z|${'-'.repeat(36)}`,
      `2026-11-25T10:00:00.1234567Z|${ID}`,
      'nonsense',
    ]) {
      expect(KeysetPositionSchema.safeParse(bad).success, bad).toBe(false);
    }
  });
});
