import { z } from 'zod';

/**
 * Account roles (decision 000 "Deny"). pending → user by Approve, pending → denied by Deny.
 * Approved means user or admin. Denied accounts cannot sign in and never show as pending again.
 */
export const RoleSchema = z.enum(['pending', 'user', 'admin', 'denied']);
export type Role = z.infer<typeof RoleSchema>;

export const APPROVED_ROLES: readonly Role[] = ['user', 'admin'];

export function isApproved(role: Role): boolean {
  return APPROVED_ROLES.includes(role);
}

/**
 * The role a brand-new profile gets (decision 000 "Owner address that becomes admin"):
 * admin when the address equals the configured ADMIN_EMAIL (case-insensitive) or when the instance has no admin
 * yet, so a fresh install is usable at once; pending otherwise.
 */
export function roleForNewProfile(input: {
  email: string;
  adminEmail: string | undefined;
  instanceHasAdmin: boolean;
}): Role {
  if (!input.instanceHasAdmin) return 'admin';
  if (input.adminEmail && sameEmail(input.email, input.adminEmail)) return 'admin';
  return 'pending';
}

/** An existing profile of the owner address with a non-admin role is upgraded to admin. */
export function shouldUpgradeToAdmin(input: {
  email: string;
  role: Role;
  adminEmail: string | undefined;
}): boolean {
  return (
    Boolean(input.adminEmail) && sameEmail(input.email, input.adminEmail ?? '') && input.role !== 'admin'
  );
}

export function sameEmail(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

/** Where a person goes right after sign-in ("After sign-in routing"). */
export function homePathForRole(role: Role | undefined): string {
  return role === 'admin' ? '/admin' : '/contacts';
}
