import { describe, expect, it } from 'vitest';
import { IMPORT_PACE, importPace } from './import-pace.ts';

describe('importPace', () => {
  it.each([
    // batch ms, busy share, savers, rest ms
    [1000, 0, IMPORT_PACE.savers, 0],
    [1000, 0.19, IMPORT_PACE.savers, 0],
    [1000, 0.2, 1, 400],
    [1000, 0.5, 1, 1000],
    [1000, 1, 1, 2000],
    [1000, 3, 1, 2000],
    [-5, 1, 1, 0],
    [0, 1, 1, 0],
    [1000, Number.NaN, IMPORT_PACE.savers, 0],
  ])('a batch of %i ms with others busy %f of it: %i savers, rest %i ms', (batchMs, busy, savers, restMs) => {
    expect(importPace(batchMs, busy)).toEqual({ savers, restMs });
  });
});
