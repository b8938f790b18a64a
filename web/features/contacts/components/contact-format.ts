import { format } from 'date-fns';

/** Last call: 'MMM d, yyyy at h:mm a'; 'Never called' when none; 'Invalid date' on a bad value (spec part 1 §2). */
export function formatLastCalled(iso: string | null): string {
  if (!iso) return 'Never called';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? 'Invalid date' : format(date, "MMM d, yyyy 'at' h:mm a");
}

/** Forms and detail: MM/dd/yyyy (spec part 1 §9). */
export function formatShortDate(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? 'Invalid date' : format(date, 'MM/dd/yyyy');
}
