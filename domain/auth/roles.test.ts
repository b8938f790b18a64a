import { describe, expect, it } from 'vitest';
import { homePathForRole, isApproved, roleForNewProfile, sameEmail, shouldUpgradeToAdmin } from './roles.ts';

describe('roles', () => {
  it('treats user and admin as approved, pending and denied as not', () => {
    expect([isApproved('user'), isApproved('admin'), isApproved('pending'), isApproved('denied')]).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });

  it('makes the first profile of an instance admin whatever its address', () => {
    expect(
      roleForNewProfile({ email: 'anyone@example.com', adminEmail: undefined, instanceHasAdmin: false }),
    ).toBe('admin');
  });

  it('makes later profiles pending unless they use ADMIN_EMAIL (case and spaces ignored)', () => {
    expect(
      roleForNewProfile({ email: 'b@example.com', adminEmail: 'owner@example.com', instanceHasAdmin: true }),
    ).toBe('pending');
    expect(
      roleForNewProfile({
        email: ' Owner@Example.com',
        adminEmail: 'owner@example.com',
        instanceHasAdmin: true,
      }),
    ).toBe('admin');
    expect(roleForNewProfile({ email: 'b@example.com', adminEmail: undefined, instanceHasAdmin: true })).toBe(
      'pending',
    );
  });

  it('upgrades an existing owner profile that is not admin, and nothing else', () => {
    expect(
      shouldUpgradeToAdmin({ email: 'owner@example.com', role: 'pending', adminEmail: 'OWNER@example.com' }),
    ).toBe(true);
    expect(
      shouldUpgradeToAdmin({ email: 'owner@example.com', role: 'denied', adminEmail: 'owner@example.com' }),
    ).toBe(true);
    expect(
      shouldUpgradeToAdmin({ email: 'owner@example.com', role: 'admin', adminEmail: 'owner@example.com' }),
    ).toBe(false);
    expect(
      shouldUpgradeToAdmin({ email: 'other@example.com', role: 'user', adminEmail: 'owner@example.com' }),
    ).toBe(false);
    expect(shouldUpgradeToAdmin({ email: 'owner@example.com', role: 'user', adminEmail: undefined })).toBe(
      false,
    );
  });

  it('routes admins to /admin and everyone else to /contacts after sign-in', () => {
    expect(homePathForRole('admin')).toBe('/admin');
    expect(homePathForRole('user')).toBe('/contacts');
    expect(homePathForRole('pending')).toBe('/contacts');
    expect(homePathForRole(undefined)).toBe('/contacts');
  });

  it('compares addresses without case or surrounding spaces', () => {
    expect(sameEmail('A@B.com ', 'a@b.COM')).toBe(true);
    expect(sameEmail('a@b.com', 'a@c.com')).toBe(false);
  });
});
