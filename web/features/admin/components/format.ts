import { format } from 'date-fns';
import type { Profile } from '#domain/profiles/profile.schema.ts';

/** Forms and tables show dates as MM/dd/yyyy (spec part 1 §9). */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? 'Invalid date' : format(date, 'MM/dd/yyyy');
}

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
