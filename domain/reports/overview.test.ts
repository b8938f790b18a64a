import { describe, expect, it } from 'vitest';
import type { DayLog } from '../calls/call.schema.ts';
import { dayOverview, daysEnding, dispositionText } from './overview.ts';
import { dayIn, hourReader, isTimeZone } from '../time/zoned-time.ts';

const line = (at: string, disposition: string | null, answered: boolean) => ({
  key: at,
  callId: null,
  contactId: null,
  contactName: null,
  phone: null,
  company: null,
  disposition,
  status: null,
  direction: null,
  answered,
  abandoned: false,
  isQualified: disposition === 'qualified',
  durationSeconds: 0,
  at,
  voicemail: null,
  recording: null,
});

describe('reports overview', () => {
  it("puts each call in its hour of the user's zone, across a daylight-saving change", () => {
    // 1 Nov 2026, New York falls back at 02:00: 05:30Z and 06:30Z are both 01:30 local.
    const log: DayLog = {
      lines: [
        line('2026-11-01T06:30:00.000Z', 'answered', true),
        line('2026-11-01T05:30:00.000Z', null, false),
        line('2026-11-01T15:00:00.000Z', 'qualified', true),
      ],
      stats: {
        total: 3,
        answered: 2,
        answerRate: '66.7',
        qualified: 1,
        qualifiedRate: '50.0',
        totalSeconds: 0,
        averageSeconds: 0,
        abandoned: 0,
      },
    };
    const o = dayOverview('2026-11-01', 'America/New_York', log);
    expect(o.hourly).toHaveLength(24);
    expect(o.hourly[1]).toEqual({ hour: 1, calls: 2, answered: 1 });
    expect(o.hourly[10]).toEqual({ hour: 10, calls: 1, answered: 1 });
    expect([o.totalCalls, o.answeredCalls, o.qualifiedLeads]).toEqual([3, 2, 1]);
    expect(o.recentCalls.map((c) => c.at)).toEqual([
      '2026-11-01T15:00:00.000Z',
      '2026-11-01T06:30:00.000Z',
      '2026-11-01T05:30:00.000Z',
    ]);
    expect(o.dispositions).toEqual([
      { disposition: 'answered', count: 1 },
      { disposition: 'qualified', count: 1 },
    ]);
  });

  it('shows dispositions with spaces for hyphens, and names the calls without one', () => {
    expect(dispositionText('not-interested')).toBe('Not Interested');
    expect(dispositionText('do-not-call')).toBe('Do Not Call');
    expect(dispositionText('none')).toBe('No disposition');
    expect(dispositionText(null)).toBe('No disposition');
  });

  it('lists the days of a range oldest first, across a month end', () => {
    expect(daysEnding('2026-12-02', 4)).toEqual(['2026-11-29', '2026-11-30', '2026-12-01', '2026-12-02']);
    expect(daysEnding('2026-11-25', 30)).toHaveLength(30);
  });

  it('knows real zones from made-up ones and finds the day and hour of a moment in a zone', () => {
    expect(isTimeZone('Europe/Paris')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    const at = new Date('2026-11-26T03:30:00Z');
    expect(dayIn(at, 'America/New_York')).toBe('2026-11-25');
    expect(dayIn(at, 'UTC')).toBe('2026-11-26');
    expect(hourReader('Asia/Kolkata')(at)).toBe(9);
  });
});
