import type { ContactStatus } from '#domain/contacts/contact.schema.ts';
import { Badge } from '../../../components/ui/badge.tsx';

/** One palette everywhere (decision 000): new yellow, contacted blue, active green, inactive grey. */
const VARIANT = { new: 'yellow', contacted: 'blue', active: 'green', inactive: 'grey' } as const;

export function StatusBadge({ status }: { status: ContactStatus }) {
  return <Badge variant={VARIANT[status]}>{status}</Badge>;
}
