import { ANSWERED_BY_NOTICE, type AnsweredBy } from '#domain/calls/answered-by.ts';
import type { CallStatus } from '#domain/calls/call-status.ts';
import { formatDuration } from '#domain/calls/call-log.ts';
import { formatPhoneForDisplay } from '#domain/contacts/phone.ts';
import { STATUS_TEXT } from '../call-status-text.ts';

/**
 * Who is on the line, the call's state and its timer (in-call panel): the call panel and the dialer. Once
 * answering-machine detection says a machine answered, it says so; and the number the call goes out from.
 */
export function CallSummary({
  name,
  phone,
  status,
  seconds,
  answeredBy = null,
  callingFrom = null,
}: {
  name: string;
  phone: string;
  status: CallStatus;
  seconds: number;
  answeredBy?: AnsweredBy | null;
  /** 'Calling from (303) 555-0101, Denver' (callingFromLine). */
  callingFrom?: string | null;
}) {
  const detected = answeredBy ? ANSWERED_BY_NOTICE[answeredBy] : null;
  return (
    <>
      <div className="min-w-0">
        <p className="truncate font-semibold">{name}</p>
        <p className="text-sm text-muted-foreground">{formatPhoneForDisplay(phone)}</p>
        {callingFrom && <p className="text-xs text-muted-foreground">{callingFrom}</p>}
      </div>
      <div className="ml-auto text-right">
        <p className="text-sm font-medium" aria-live="polite">
          {STATUS_TEXT[status]}
        </p>
        {detected && <p className="text-xs font-medium text-amber-700 dark:text-amber-400">{detected}</p>}
        <p className="font-mono text-sm tabular-nums" aria-label="Call time">
          {formatDuration(seconds)}
        </p>
      </div>
    </>
  );
}
