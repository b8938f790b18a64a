import { describe, expect, it } from 'vitest';
import { formatDate, formatLastCalled, formatMoment } from './dates.ts';

// A moment given in local time, so the expectations hold in any time zone the tests run in.
const moment = new Date(2026, 10, 4, 15, 5).toISOString();

describe('dates as the product shows them', () => {
  it('shows dates as MM/dd/yyyy, nothing for none, and says so for a value that is not a date', () => {
    expect(formatDate(moment)).toBe('11/04/2026');
    expect(formatDate(null)).toBe('');
    expect(formatDate('not a date')).toBe('Invalid date');
  });

  it("shows a moment as 'MMM d, yyyy at h:mm a', and the Last Called cell says 'Never called' without one", () => {
    expect(formatMoment(moment)).toBe('Nov 4, 2026 at 3:05 PM');
    expect(formatLastCalled(moment)).toBe('Nov 4, 2026 at 3:05 PM');
    expect(formatLastCalled(null)).toBe('Never called');
    expect(formatLastCalled('2026-13-45')).toBe('Invalid date');
  });
});
