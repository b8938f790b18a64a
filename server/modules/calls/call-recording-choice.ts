import { RECORDING_DISCLOSURE, recordingDisclosure } from '#domain/consent/recording-rules.ts';
import type { DbExecutor } from '../../db/database.ts';
import { stateOfNumber } from '../../telephony/number-places.ts';
import { findRecordingSettings } from '../recordings/public.ts';

/**
 * Whether a call is recorded (the user's setting; off by default) and, if so, whether the other party first hears
 * the disclosure: the consent rule decides from their state (the contact's, else their number's) and our number's
 * (decision 030). The same for a call we place and one that comes in.
 */
export async function recordingOf(
  trx: DbExecutor,
  userId: string,
  /** Their state, read only when the call is recorded. */
  otherPartyState: () => Promise<string | null> | string | null,
  ourNumber: string,
): Promise<{ disclosure: string | null } | undefined> {
  if (!(await recordsCalls(trx, userId))) return undefined;
  return { disclosure: disclosureNeeded(await otherPartyState(), ourNumber) ? RECORDING_DISCLOSURE : null };
}

/** Whether the user records their calls (Settings → Phone → Call recording). */
export const recordsCalls = async (trx: DbExecutor, userId: string) =>
  (await findRecordingSettings(trx, userId)).recordCalls;

/** Whether the other party must hear the disclosure first (all-party consent, theirs or ours, or unknown). */
export const disclosureNeeded = (otherPartyState: string | null, ourNumber: string) =>
  recordingDisclosure({ callee: otherPartyState, caller: stateOfNumber(ourNumber) }).disclose;
