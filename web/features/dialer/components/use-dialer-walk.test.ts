// @vitest-environment happy-dom
import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ContactListItem } from '#domain/contacts/contact-list.schema.ts';
import { COMPLETED_KEY, useDialerWalk } from './use-dialer-walk.ts';

const person = (id: string, phone: string | null): ContactListItem => ({
  id,
  firstName: id,
  lastName: 'Example',
  email: `${id}@example.com`,
  phone,
  phoneE164: phone,
  company: null,
  title: null,
  status: 'new',
  tags: [],
  isColdLead: false,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
  lastCallDate: null,
  needsAttention: false,
  isQualified: false,
});

// Least recently called first, as the server lists them; Bea has no phone.
const CONTACTS = [person('ada', '+15550100001'), person('bea', null), person('cy', '+15550100003')];

beforeEach(() => sessionStorage.clear());
afterEach(cleanup);

describe("the browser dialer's walk", () => {
  it('walks the contacts that have a phone, in order, skipping one without', () => {
    const { result } = renderHook(() => useDialerWalk(CONTACTS));
    expect(result.current.remaining.map((c) => c.id)).toEqual(['ada', 'cy']);
    expect(result.current.next?.id).toBe('ada');
  });

  it('moves on when a contact is done, says when the last one is, and marks them done', () => {
    const { result } = renderHook(() => useDialerWalk(CONTACTS));
    let step = { queueComplete: true };
    act(() => void (step = result.current.complete('ada')));
    expect(step.queueComplete).toBe(false);
    expect(result.current.next?.id).toBe('cy');
    expect(result.current.isDone('ada')).toBe(true);
    act(() => void (step = result.current.complete('cy')));
    expect(step.queueComplete).toBe(true);
    expect(result.current.next).toBeUndefined();
    expect(result.current.remaining).toEqual([]);
  });

  it('resumes where it stopped after a reload of the tab', () => {
    const first = renderHook(() => useDialerWalk(CONTACTS));
    act(() => void first.result.current.complete('ada'));
    first.unmount();
    const again = renderHook(() => useDialerWalk(CONTACTS));
    expect(again.result.current.next?.id).toBe('cy');
  });

  it('starts afresh when what the tab kept is unreadable', () => {
    sessionStorage.setItem(COMPLETED_KEY, '{not json');
    const { result } = renderHook(() => useDialerWalk(CONTACTS));
    expect(result.current.next?.id).toBe('ada');
  });

  it('waits for the contacts to load', () => {
    const { result } = renderHook(() => useDialerWalk(undefined));
    expect(result.current.next).toBeUndefined();
    expect(result.current.remaining).toEqual([]);
  });
});
