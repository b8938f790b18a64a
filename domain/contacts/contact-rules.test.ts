import { describe, expect, it } from 'vitest';
import {
  coldLeadNames,
  coldLeadPlaceholderEmail,
  ColdLeadInputSchema,
  isPlaceholderEmail,
} from './cold-lead.ts';
import { diffContact, historyValue, titleCaseField } from './contact-history.ts';
import { contactFormErrors, CreateContactInputSchema } from './contact.schema.ts';
import { isQualified, needsAttention } from './contact-flags.ts';
import { formatCount, hasActiveFilter, nextSort, visiblePages } from './contact-list.schema.ts';
import { parseTags } from './tags.ts';

const base = {
  status: 'contacted' as const,
  notes: null,
  latestDisposition: null,
  latestDispositionQualified: null,
};

describe('contact flags', () => {
  it('needs attention when new, when notes ask to follow up or call back, or after a call-back disposition', () => {
    expect(needsAttention(base)).toBe(false);
    expect(needsAttention({ ...base, status: 'new' })).toBe(true);
    expect(needsAttention({ ...base, notes: 'Follow Up on Monday' })).toBe(true);
    expect(needsAttention({ ...base, notes: 'asked for a CALLBACK' })).toBe(true);
    expect(needsAttention({ ...base, notes: 'followup' })).toBe(false);
    expect(needsAttention({ ...base, latestDisposition: 'call-back' })).toBe(true);
    expect(needsAttention({ ...base, latestDisposition: 'callback' })).toBe(true);
    expect(needsAttention({ ...base, latestDisposition: 'interested' })).toBe(true);
    expect(needsAttention({ ...base, latestDisposition: 'answered' })).toBe(false);
  });

  it('is qualified when the latest disposition is qualified or marked so, or when active', () => {
    expect(isQualified(base)).toBe(false);
    expect(isQualified({ ...base, latestDisposition: 'qualified' })).toBe(true);
    expect(isQualified({ ...base, latestDisposition: 'answered', latestDispositionQualified: true })).toBe(
      true,
    );
    expect(isQualified({ ...base, status: 'active' })).toBe(true);
  });
});

describe('tags', () => {
  it('split on commas, trimmed, empties and repeats dropped', () => {
    expect(parseTags(' vip, q4 ,, VIP , partner ')).toEqual(['vip', 'q4', 'partner']);
    expect(parseTags('')).toEqual([]);
  });
});

describe('validation', () => {
  it('gives the form its own messages', () => {
    expect(contactFormErrors({ firstName: '', lastName: '', email: '' })).toEqual({
      firstName: 'First name is required',
      lastName: 'Last name is required',
      email: 'Email is required',
    });
    expect(contactFormErrors({ firstName: 'A', lastName: 'B', email: 'a@b' })).toEqual({
      email: 'Invalid email address',
    });
    expect(contactFormErrors({ firstName: 'A', lastName: 'B', email: 'a@b.co' })).toEqual({});
  });

  it('prefixes the service rules with "Validation error: "', () => {
    const result = CreateContactInputSchema.safeParse({ firstName: 'A', lastName: '', email: 'x' });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toEqual([
      'Validation error: Last name is required',
      'Validation error: Valid email is required',
    ]);
  });

  it('defaults status to new and tags to none, and turns blank optional fields into null', () => {
    const parsed = CreateContactInputSchema.parse({
      firstName: 'A',
      lastName: 'B',
      email: 'a@b.co',
      company: '  ',
    });
    expect(parsed).toMatchObject({ status: 'new', tags: [], company: null, phone: null });
  });
});

describe('contact history', () => {
  it('lists only changed fields with both values', () => {
    expect(
      diffContact({ company: 'A', tags: ['x'], title: 'CTO' }, { company: 'B', tags: ['x'], title: 'CTO' }),
    ).toEqual({
      changedFields: ['company'],
      previousValues: { company: 'A' },
      newValues: { company: 'B' },
    });
    expect(diffContact({ company: 'A' }, { company: 'A' })).toBeNull();
    expect(diffContact({ notes: null }, { notes: '' })).toBeNull();
  });

  it('shows field names in title case and missing values as empty', () => {
    expect(titleCaseField('firstName')).toBe('First Name');
    expect(titleCaseField('last_synced_at')).toBe('Last Synced At');
    expect(historyValue(null)).toBe('empty');
    expect(historyValue([])).toBe('empty');
    expect(historyValue(['a', 'b'])).toBe('a, b');
  });
});

describe('cold leads', () => {
  it('need a company or a phone', () => {
    expect(ColdLeadInputSchema.safeParse({ website: 'x.example' }).success).toBe(false);
    expect(ColdLeadInputSchema.safeParse({ phone: '555' }).success).toBe(true);
  });

  it('are named Cold Lead + company, or Contact, with a reserved-domain placeholder address', () => {
    expect(coldLeadNames('Acme')).toEqual({ firstName: 'Cold Lead', lastName: 'Acme' });
    expect(coldLeadNames('  ')).toEqual({ firstName: 'Cold Lead', lastName: 'Contact' });
    const email = coldLeadPlaceholderEmail('abc');
    expect(email).toBe('cold-lead+abc@example.invalid');
    expect(isPlaceholderEmail(email)).toBe(true);
    expect(isPlaceholderEmail('a@b.co')).toBe(false);
  });
});

describe('list helpers', () => {
  it('toggles the direction on the same column and starts a new column ascending', () => {
    expect(nextSort({ sort: 'name', dir: 'asc' }, 'name')).toEqual({ sort: 'name', dir: 'desc' });
    expect(nextSort({ sort: 'name', dir: 'desc' }, 'lastCallDate')).toEqual({
      sort: 'lastCallDate',
      dir: 'asc',
    });
  });

  it('knows when a filter is active', () => {
    expect(hasActiveFilter({ status: 'all', lastCalled: 'all', coldOnly: false, search: '  ' })).toBe(false);
    expect(hasActiveFilter({ status: 'new' })).toBe(true);
    expect(hasActiveFilter({ coldOnly: true })).toBe(true);
  });

  it('shows first, last and neighbouring pages', () => {
    expect(visiblePages(1, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(visiblePages(1, 100)).toEqual([1, 2, 'gap', 100]);
    expect(visiblePages(50, 100)).toEqual([1, 'gap', 49, 50, 51, 'gap', 100]);
    expect(visiblePages(100, 100)).toEqual([1, 'gap', 99, 100]);
  });

  it('formats exact counts in full and estimates as ≈', () => {
    expect(formatCount({ count: 1234, estimate: false })).toBe('1,234');
    expect(formatCount({ count: 1_234_567, estimate: true })).toBe('≈ 1.2M');
    expect(formatCount({ count: 250_400, estimate: true })).toBe('≈ 250K');
  });
});
