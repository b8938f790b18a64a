import type { RecipientState } from '#domain/campaigns/campaign-state.ts';
import { RECIPIENT_STATE_LABEL } from './recipients-list.tsx';

/** In a sequence, a queued recipient is waiting for its next e-mail, and a sent one has had them all. */
export const SEQUENCE_STATE_LABEL: Record<RecipientState, string> = {
  ...RECIPIENT_STATE_LABEL,
  queued: 'In sequence',
  sent: 'Completed',
};
