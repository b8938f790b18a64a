import { describe, expect, it } from 'vitest';
import { isChangeVisibleTo, type ChangeEvent } from './change-event.ts';

const profileChange: ChangeEvent = {
  topic: 'profiles',
  op: 'INSERT',
  id: 'p1',
  userId: 'p1',
  role: 'pending',
};
const contactChange: ChangeEvent = { topic: 'contacts', op: 'UPDATE', id: 'c1', userId: 'u1' };

describe('who receives a change', () => {
  it('sends profile changes to admins and to the person concerned only', () => {
    expect(isChangeVisibleTo(profileChange, { userId: 'admin', isAdmin: true })).toBe(true);
    expect(isChangeVisibleTo(profileChange, { userId: 'p1', isAdmin: false })).toBe(true);
    expect(isChangeVisibleTo(profileChange, { userId: 'someone', isAdmin: false })).toBe(false);
  });

  it('sends owned rows to their owner only, admins included', () => {
    expect(isChangeVisibleTo(contactChange, { userId: 'u1', isAdmin: false })).toBe(true);
    expect(isChangeVisibleTo(contactChange, { userId: 'admin', isAdmin: true })).toBe(false);
  });
});
