import { toast } from 'sonner';
import { Link } from 'react-router';
import { Check, PhoneCall } from 'lucide-react';
import { formatPhoneForDisplay } from '#domain/contacts/phone.ts';
import type { MissedCallToReturn } from '#domain/calls/incoming-call.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { formatMoment } from '../../../lib/dates.ts';
import { RecordingPlayer } from '../../recordings/public.ts';
import type { CallTarget } from '../active-call.ts';
import { useMissedCallDone, useMissedCalls } from '../api/incoming-calls.ts';

/**
 * Missed calls to return (decision 028): each number that called and was missed, once, with how many times, who it
 * is and the voicemail left; Call back places the call, and the line goes once the number is called back (or a
 * later call from it is answered), or marked Done.
 */
export function MissedCallsCard({ onCall }: { onCall: (target: CallTarget) => void }) {
  const missed = useMissedCalls();
  const done = useMissedCallDone();
  if (!missed.data?.length) return null;
  return (
    <Card role="region" aria-label="Missed calls to return">
      <CardHeader>
        <CardTitle>Missed calls to return</CardTitle>
        <CardDescription>People who called you and were missed, until you call them back.</CardDescription>
      </CardHeader>
      <CardContent>
        <ul aria-label="Missed calls" className="flex flex-col divide-y divide-border text-sm">
          {missed.data.map((m) => (
            <MissedLine
              key={m.callId}
              missed={m}
              onCall={onCall}
              onDone={() =>
                done.mutate(m.callId, {
                  onError: (error) => toast.error('Error', { description: error.message }),
                })
              }
            />
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}

function MissedLine({
  missed,
  onCall,
  onDone,
}: {
  missed: MissedCallToReturn;
  onCall: (target: CallTarget) => void;
  onDone: () => void;
}) {
  const number = formatPhoneForDisplay(missed.from);
  const who = missed.contact?.name || number;
  return (
    <li className="flex flex-wrap items-center gap-3 py-2">
      {missed.contact ? (
        <Link to={`/contacts/${missed.contact.id}`} className="font-medium hover:underline">
          {who}
        </Link>
      ) : (
        <span className="font-medium">{number}</span>
      )}
      <span className="text-muted-foreground">
        {missed.missed > 1 ? `${missed.missed} missed calls, last ` : 'Missed '}
        {formatMoment(missed.at)}
      </span>
      {missed.voicemail && <RecordingPlayer recording={missed.voicemail} label={`Voicemail from ${who}`} />}
      <span className="ml-auto flex gap-2">
        <Button
          size="sm"
          onClick={() =>
            onCall({
              ...(missed.contact && { contactId: missed.contact.id, company: missed.contact.company }),
              name: who,
              phone: missed.from,
            })
          }
        >
          <PhoneCall /> Call back
        </Button>
        <Button size="sm" variant="outline" aria-label={`Done with ${who}`} onClick={onDone}>
          <Check /> Done
        </Button>
      </span>
    </li>
  );
}
