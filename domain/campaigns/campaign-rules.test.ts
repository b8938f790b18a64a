import { describe, expect, it } from 'vitest';
import { effectivePace, limitFor, nextSlot, spacingMs } from './campaign-pace.ts';
import {
  campaignActions,
  campaignProgress,
  CampaignStatusSchema,
  STATUS_AFTER,
  type CampaignStatus,
} from './campaign-state.ts';
import { emailSkipReason, SKIP_REASONS } from './email-campaign.schema.ts';

describe('the pace a campaign really sends at', () => {
  it.each([
    [60, null, 60],
    [60, 30, 30],
    [30, 60, 30],
    [3000, 1, 1],
    [1, 3000, 1],
  ])('its own %i a minute under a limit of %s: %i', (own, limit, pace) => {
    expect(effectivePace(own, limit)).toBe(pace);
  });

  it('spaces messages evenly: 60 a minute is one a second', () => {
    expect(spacingMs(60)).toBe(1000);
    expect(spacingMs(1)).toBe(60_000);
    expect(spacingMs(3000)).toBe(20);
  });

  it('waits for the next slot after the last message, or sends at once', () => {
    const now = new Date('2026-11-25T10:00:00.000Z');
    expect(nextSlot(null, 60, now)).toBeNull();
    expect(nextSlot(new Date('2026-11-25T09:59:58.000Z'), 60, now)).toBeNull();
    expect(nextSlot(new Date('2026-11-25T09:59:59.000Z'), 60, now)).toBeNull();
    expect(nextSlot(new Date('2026-11-25T09:59:59.500Z'), 60, now)).toEqual(
      new Date('2026-11-25T10:00:00.500Z'),
    );
    expect(nextSlot(now, 1, now)).toEqual(new Date('2026-11-25T10:01:00.000Z'));
  });

  it("reads the user's limit for each channel", () => {
    const limits = { emailPerMinute: 10, smsPerMinute: null };
    expect(limitFor(limits, 'email')).toBe(10);
    expect(limitFor(limits, 'sms')).toBeNull();
  });
});

describe('what a campaign state allows', () => {
  const statuses = CampaignStatusSchema.options;
  it.each(statuses)('a one-time campaign that is %s', (status) => {
    const allowed = campaignActions(status);
    expect(allowed).toEqual({
      edit: status === 'draft',
      enroll: status === 'draft',
      leave: false,
      send: status === 'draft',
      pause: status === 'sending',
      resume: status === 'paused',
      cancel: status === 'sending' || status === 'paused',
    });
  });

  it.each(statuses)(
    'a sequence that is %s takes contacts until canceled, and lets them leave once started',
    (status) => {
      const allowed = campaignActions(status, 'sequence');
      expect(allowed.enroll).toBe(status !== 'canceled');
      expect(allowed.leave).toBe(['sending', 'paused', 'sent'].includes(status));
      expect(allowed.edit).toBe(status === 'draft');
    },
  );

  it('leads each transition from a state that allows it to the state it names', () => {
    for (const status of statuses)
      for (const [action, after] of Object.entries(STATUS_AFTER) as [
        keyof typeof STATUS_AFTER,
        CampaignStatus,
      ][])
        if (campaignActions(status)[action]) expect(after).not.toBe(status);
  });

  it('counts progress from the recipients that have an outcome', () => {
    const counts = { total: 8, queued: 2, sent: 3, failed: 1, skipped: 1, unconfirmed: 1 };
    expect(campaignProgress(counts)).toEqual({ done: 6, percent: 75 });
    expect(campaignProgress({ ...counts, total: 0, queued: 0 })).toEqual({ done: 0, percent: 0 });
  });
});

describe('whether a recipient is mailed', () => {
  it.each([
    ['an address', { contactExists: true, email: 'ann@example.com', unsubscribed: false }, null],
    [
      'a deleted contact',
      { contactExists: false, email: 'ann@example.com', unsubscribed: false },
      SKIP_REASONS.deleted,
    ],
    ['no address', { contactExists: true, email: null, unsubscribed: false }, SKIP_REASONS.noEmail],
    ['a blank address', { contactExists: true, email: '  ', unsubscribed: false }, SKIP_REASONS.noEmail],
    [
      "a cold lead's placeholder",
      { contactExists: true, email: 'cold-lead+1@example.invalid', unsubscribed: false },
      SKIP_REASONS.noEmail,
    ],
    [
      'an unsubscribed address',
      { contactExists: true, email: 'ann@example.com', unsubscribed: true },
      SKIP_REASONS.unsubscribed,
    ],
    ['deleted wins', { contactExists: false, email: null, unsubscribed: true }, SKIP_REASONS.deleted],
  ])('%s', (_what, facts, reason) => {
    expect(emailSkipReason(facts)).toBe(reason);
  });
});
