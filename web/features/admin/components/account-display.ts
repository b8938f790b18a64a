/* How an account is named and labelled on the admin screens. */
import type { Profile } from '#domain/profiles/profile.schema.ts';

export function displayName(p: Pick<Profile, 'firstName' | 'lastName'>): string {
  return `${p.firstName} ${p.lastName}`.trim() || '—';
}

export function accountState(p: Profile): {
  label: string;
  variant: 'yellow' | 'green' | 'blue' | 'grey' | 'destructive';
} {
  if (p.deactivated) return { label: 'Deactivated', variant: 'grey' };
  if (p.role === 'pending') return { label: 'Pending', variant: 'yellow' };
  if (p.role === 'denied') return { label: 'Denied', variant: 'destructive' };
  if (p.role === 'admin') return { label: 'Admin', variant: 'blue' };
  return { label: 'User', variant: 'green' };
}
