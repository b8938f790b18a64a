import { describe, expect, it } from 'vitest';
import { wouldRemoveLastAdmin } from './admin.schema.ts';
import {
  isNewApprovalBadgeVisible,
  NEW_APPROVAL_BADGE_MS,
  NEW_SIGNUP_TOAST_MS,
  newSignupToast,
} from './new-signup-alert.ts';

describe('last admin protection', () => {
  it('refuses to demote or deactivate the only active admin', () => {
    expect(
      wouldRemoveLastAdmin({
        targetRole: 'admin',
        targetDeactivated: false,
        activeAdminCount: 1,
        change: 'demote',
      }),
    ).toBe(true);
    expect(
      wouldRemoveLastAdmin({
        targetRole: 'admin',
        targetDeactivated: false,
        activeAdminCount: 1,
        change: 'deactivate',
      }),
    ).toBe(true);
  });

  it('allows it when another active admin remains, or when the target is not an active admin', () => {
    expect(
      wouldRemoveLastAdmin({
        targetRole: 'admin',
        targetDeactivated: false,
        activeAdminCount: 2,
        change: 'demote',
      }),
    ).toBe(false);
    expect(
      wouldRemoveLastAdmin({
        targetRole: 'user',
        targetDeactivated: false,
        activeAdminCount: 1,
        change: 'deactivate',
      }),
    ).toBe(false);
    expect(
      wouldRemoveLastAdmin({
        targetRole: 'admin',
        targetDeactivated: true,
        activeAdminCount: 1,
        change: 'demote',
      }),
    ).toBe(false);
  });
});

describe('new sign-up alert', () => {
  it('shows the badge for 5 s and the toast lasts 10 s', () => {
    expect(NEW_APPROVAL_BADGE_MS).toBe(5000);
    expect(NEW_SIGNUP_TOAST_MS).toBe(10000);
    const seen = 1_000_000;
    expect(isNewApprovalBadgeVisible(null, seen)).toBe(false);
    expect(isNewApprovalBadgeVisible(seen, seen)).toBe(true);
    expect(isNewApprovalBadgeVisible(seen, seen + 4999)).toBe(true);
    expect(isNewApprovalBadgeVisible(seen, seen + 5000)).toBe(false);
  });

  it('names the person when known', () => {
    expect(newSignupToast({ email: 'a@b.c', firstName: 'Ada', lastName: 'King' }).description).toBe(
      'Ada King (a@b.c) is waiting for approval.',
    );
    expect(newSignupToast({ email: 'a@b.c', firstName: '', lastName: '' }).description).toBe(
      'a@b.c is waiting for approval.',
    );
  });
});
