import { format } from 'date-fns';

/*
 * The product's date formats, in the browser's time zone: MM/dd/yyyy for dates in forms,
 * details and tables; 'MMM d, yyyy at h:mm a' for a moment (the last call, a history entry, a call). Every screen
 * formats dates through these, never with toLocaleString, so the product reads the same in every browser locale.
 */

function parsed(iso: string): Date | null {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** MM/dd/yyyy; empty when there is no date; 'Invalid date' for a value that is not one. */
export function formatDate(iso: string | null): string {
  if (!iso) return '';
  const date = parsed(iso);
  return date ? format(date, 'MM/dd/yyyy') : 'Invalid date';
}

/** 'MMM d, yyyy at h:mm a' (Nov 24, 2026 at 3:05 PM); empty when there is none; 'Invalid date' for a bad value. */
export function formatMoment(iso: string | null): string {
  if (!iso) return '';
  const date = parsed(iso);
  return date ? format(date, "MMM d, yyyy 'at' h:mm a") : 'Invalid date';
}

/** The Last Called cell: the moment, or 'Never called'. */
export function formatLastCalled(iso: string | null): string {
  return iso ? formatMoment(iso) : 'Never called';
}
