import { describe, expect, it } from 'vitest';
import { checkCall, newRequestId, REQUEST_ID_PATTERN, serverCodeFor, type GuardState } from './call-guard.ts';
import { advanceStatus, CallStatusSchema, isFinished, staleOutcome } from './call-status.ts';
import { timeIn } from '../time/zoned-time.ts';
import { buildCallLog, callStats, formatDuration } from './call-log.ts';
import { canSaveDisposition, isAnswered, type Disposition } from './disposition.ts';
import { isPastDay } from '../time/zoned-time.ts';

const at = (seconds: number) => new Date(Date.UTC(2026, 10, 21, 9, 0, seconds));
const none: GuardState = { lockTakenAt: null, recentCalls: [] };
const call = { to: '(555) 010-0001', from: '+1 555 010 9999' };

describe('duplicate-call prevention (decision 000)', () => {
  it('lets a first call through', () => {
    expect(checkCall(call, none, at(0))).toEqual({ ok: true });
  });

  it('holds the global lock for 8 s, then treats it as stale', () => {
    const state = { ...none, lockTakenAt: at(0) };
    expect(checkCall(call, state, at(7))).toMatchObject({ ok: false, code: 'GLOBAL_LOCK_ACTIVE' });
    expect(checkCall(call, state, at(8))).toEqual({ ok: true });
  });

  it('refuses the same number within 5 s, whatever the from number, comparing normalised numbers', () => {
    const state = {
      ...none,
      recentCalls: [{ to: '5550100001', from: '+15550108888', startedAt: at(0), active: false }],
    };
    expect(checkCall(call, state, at(4))).toMatchObject({
      ok: false,
      code: 'VERY_RECENT_CALL',
      message: 'Please wait a moment before trying again',
    });
    expect(checkCall(call, state, at(5))).toEqual({ ok: true });
  });

  it('refuses a number whose call is still going on', () => {
    const state = { ...none, recentCalls: [{ ...call, startedAt: at(0), active: true }] };
    expect(checkCall(call, state, at(60))).toMatchObject({
      code: 'CONCURRENT_CALL_PREVENTED',
      message: 'A call to this number is already in progress',
    });
  });

  it('refuses the same from/to pair within 15 s, saying how long to wait', () => {
    const state = { ...none, recentCalls: [{ ...call, startedAt: at(0), active: false }] };
    expect(checkCall(call, state, at(6))).toEqual({
      ok: false,
      code: 'DUPLICATE_CALL_PREVENTED',
      message: 'This number was called recently. Please wait 9 seconds before trying again.',
      waitSeconds: 9,
    });
    expect(checkCall({ ...call, from: '+15550107777' }, state, at(6))).toEqual({ ok: true });
    expect(checkCall(call, state, at(15))).toEqual({ ok: true });
  });

  it('lets bulk calls 1 s apart through: each to its own number, the lock released in between', () => {
    const state: GuardState = {
      lockTakenAt: null,
      recentCalls: [{ to: '5550100002', from: call.from, startedAt: at(0), active: true }],
    };
    expect(checkCall({ to: '5550100003', from: call.from }, state, at(1))).toEqual({ ok: true });
  });

  it('answers the server codes the spec names', () => {
    expect(serverCodeFor('VERY_RECENT_CALL')).toBe('DUPLICATE_PREVENTED');
    expect(serverCodeFor('DUPLICATE_CALL_PREVENTED')).toBe('DUPLICATE_PREVENTED');
    expect(serverCodeFor('CONCURRENT_CALL_PREVENTED')).toBe('CONCURRENT_PREVENTED');
    expect(serverCodeFor('GLOBAL_LOCK_ACTIVE')).toBe('CONCURRENT_PREVENTED');
  });

  it('makes 8-character request ids', () => {
    const id = newRequestId();
    expect(id).toMatch(REQUEST_ID_PATTERN);
    expect(newRequestId(() => 0)).toBe('aaaaaaaa');
  });
});

describe('call state', () => {
  it('only moves forward, and a finished call never reopens', () => {
    expect(advanceStatus('queued', 'ringing')).toBe('ringing');
    expect(advanceStatus('in-progress', 'ringing')).toBe('in-progress');
    expect(advanceStatus('ringing', 'ringing')).toBe('ringing');
    expect(advanceStatus('ringing', 'completed')).toBe('completed');
    expect(advanceStatus('completed', 'in-progress')).toBe('completed');
    expect(advanceStatus('busy', 'completed')).toBe('busy');
  });

  it('ends in the right state whatever order and repetition the events come in', () => {
    const sequence = ['queued', 'ringing', 'in-progress', 'completed'].map((s) => CallStatusSchema.parse(s));
    for (let trial = 0; trial < 50; trial++) {
      const shuffled = [...sequence, ...sequence].sort(() => Math.sin(trial * 97 + sequence.length) - 0.5);
      expect(shuffled.reduce(advanceStatus, 'queued')).toBe('completed');
    }
  });

  it('closes calls that never hear back', () => {
    const minutes = (m: number) => new Date(at(0).getTime() + m * 60_000);
    expect(staleOutcome({ status: 'ringing', updatedAt: at(0) }, minutes(1))).toBeNull();
    expect(staleOutcome({ status: 'ringing', updatedAt: at(0) }, minutes(3))).toEqual({
      status: 'failed',
      reason: 'The telephony provider never reported back',
    });
    expect(staleOutcome({ status: 'in-progress', updatedAt: at(0) }, minutes(60))).toBeNull();
    expect(staleOutcome({ status: 'in-progress', updatedAt: at(0) }, minutes(241))?.status).toBe('completed');
    expect(staleOutcome({ status: 'completed', updatedAt: at(0) }, minutes(999))).toBeNull();
    expect(isFinished('no-answer')).toBe(true);
  });
});

describe('dispositions and the call log (decision 000)', () => {
  it('lets the disposition decide whether a call was answered', () => {
    expect(isAnswered({ disposition: 'voicemail', connected: true })).toBe(false);
    expect(isAnswered({ disposition: 'call-back', connected: false })).toBe(true);
    expect(isAnswered({ disposition: null, connected: true })).toBe(true);
    expect(isAnswered({ disposition: null, connected: false })).toBe(false);
  });

  it('offers Save only with a disposition and, for call-back, a date from today on in the user’s zone', () => {
    // 15:00 UTC on 21 November: 7:00 am in Los Angeles, 4:00 am on the 22nd in Auckland.
    const now = new Date('2026-11-21T15:00:00Z');
    const zone = 'America/Los_Angeles';
    const save = (disposition: Disposition | null, callbackDate: Date | null, hasContact = true) =>
      canSaveDisposition({ disposition, callbackDate, hasContact }, now, zone);
    expect(save(null, null)).toBe(false);
    expect(save('answered', null, false)).toBe(false);
    expect(save('answered', null)).toBe(true);
    expect(save('call-back', null)).toBe(false);
    // 9:00 today in Los Angeles (17:00 UTC) is fine; 9:00 yesterday there is not.
    expect(save('call-back', new Date('2026-11-21T17:00:00Z'))).toBe(true);
    expect(save('call-back', new Date('2026-11-20T17:00:00Z'))).toBe(false);
  });

  it.each([
    // [callback moment, now, zone, past?]
    ['2026-11-21T17:00:00Z', '2026-11-22T06:00:00Z', 'America/Los_Angeles', false], // still the 21st in LA
    ['2026-11-21T17:00:00Z', '2026-11-22T06:00:00Z', 'Europe/London', true],
    ['2026-11-21T20:00:00Z', '2026-11-21T12:00:00Z', 'Pacific/Auckland', false], // the 22nd there, both
    ['2026-11-20T23:00:00Z', '2026-11-21T11:00:00Z', 'Etc/GMT+12', false], // the earliest zone: still the 20th
    ['2026-03-08T16:00:00Z', '2026-03-09T06:59:00Z', 'America/Los_Angeles', false], // across spring forward
    ['2026-03-08T16:00:00Z', '2026-03-09T07:00:00Z', 'America/Los_Angeles', true],
  ])('a callback at %s seen at %s in %s: past %s', (at, now, zone, past) => {
    expect(isPastDay(new Date(at), new Date(now), zone)).toBe(past);
  });

  it('merges calls with their dispositions by link, or by the 60 s rule, and counts the day', () => {
    const calls = [
      { id: 'c1', contactId: 'a', startedAt: at(0), durationSeconds: 120, connected: true },
      { id: 'c2', contactId: 'b', startedAt: at(10), durationSeconds: 30, connected: true },
      { id: 'c3', contactId: 'c', startedAt: at(20), durationSeconds: 0, connected: false },
    ];
    const dispositions = [
      {
        id: 'd1',
        callId: 'c1',
        contactId: 'a',
        disposition: 'qualified',
        isQualified: true,
        calledAt: at(130),
        callDurationSeconds: 120,
      },
      {
        id: 'd2',
        callId: null,
        contactId: 'b',
        disposition: 'voicemail',
        isQualified: false,
        calledAt: at(50),
        callDurationSeconds: 30,
      },
      {
        id: 'd3',
        callId: null,
        contactId: 'z',
        disposition: 'answered',
        isQualified: false,
        calledAt: at(59),
        callDurationSeconds: 60,
      },
    ];
    const log = buildCallLog(calls, dispositions);
    expect(log.map((e) => [e.key, e.disposition, e.answered])).toEqual([
      ['d3', 'answered', true],
      ['c3', null, false],
      ['c2', 'voicemail', false],
      ['c1', 'qualified', true],
    ]);
    expect(callStats(log)).toEqual({
      total: 4,
      answered: 2,
      answerRate: '50.0',
      qualified: 1,
      qualifiedRate: '50.0',
      totalSeconds: 210,
      averageSeconds: 105,
      abandoned: 0,
    });
    expect(callStats([])).toMatchObject({ answerRate: '0.0', qualifiedRate: '0.0', averageSeconds: 0 });
  });

  it('counts a call a parallel round abandoned apart: connected, yet never answered', () => {
    const log = buildCallLog(
      [
        { id: 'p1', contactId: 'a', startedAt: at(0), durationSeconds: 60, connected: true },
        { id: 'p2', contactId: 'b', startedAt: at(0), durationSeconds: 6, connected: true, abandoned: true },
      ],
      [],
    );
    expect(log.map((e) => [e.key, e.answered, e.abandoned])).toEqual([
      ['p1', true, false],
      ['p2', false, true],
    ]);
    expect(callStats(log)).toMatchObject({ total: 2, answered: 1, answerRate: '50.0', abandoned: 1 });
  });

  it('formats durations as m:ss or mm:ss and times as HH:mm', () => {
    expect(formatDuration(5)).toBe('0:05');
    expect(formatDuration(65)).toBe('1:05');
    expect(formatDuration(659)).toBe('10:59');
    expect(formatDuration(3725)).toBe('1:02:05');
    expect(timeIn(new Date('2026-01-01T07:03:00Z'), 'UTC')).toBe('07:03');
    expect(timeIn(new Date('2026-01-01T07:03:00Z'), 'America/New_York')).toBe('02:03');
  });
});
