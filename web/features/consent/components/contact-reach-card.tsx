import { Clock } from 'lucide-react';
import type { ReachAnswer } from '#domain/consent/consent.schema.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { useContactConsent } from '../api/consent-queries.ts';

function Channel({ label, answer }: { label: string; answer: ReachAnswer }) {
  return (
    <li className="flex flex-wrap items-center gap-2">
      <span className="w-28 text-muted-foreground">{label}</span>
      <Badge variant={answer.allowed ? 'secondary' : 'destructive'}>
        {answer.allowed ? 'Allowed now' : 'Not allowed'}
      </Badge>
      {answer.reason && <span>{answer.reason}</span>}
    </li>
  );
}

/**
 * Where the contact is and what may reach them now, as the consent gate decides it: their local time and zone (set
 * on the contact, or from their number), their state, and for calls, texts and campaign e-mail, allowed or why not.
 */
export function ContactReachCard({ contactId, enabled = true }: { contactId: string; enabled?: boolean }) {
  const consent = useContactConsent(contactId, enabled);
  if (!consent.data) return null;
  const c = consent.data;
  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-center gap-3">
        <CardTitle>Consent and calling hours</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-3 text-sm">
        <p className="inline-flex flex-wrap items-center gap-2">
          <Clock className="size-4" />
          <span>{c.localTime ?? 'Local time unknown: no time zone from the number or the contact'}</span>
          {c.zoneSource && (
            <span className="text-muted-foreground">
              ({c.zoneSource === 'contact' ? 'set on the contact' : 'from the phone number'})
            </span>
          )}
          {c.state && <Badge variant="outline">{c.state}</Badge>}
          {!c.phoneValid && <Badge variant="outline">Not a valid phone number</Badge>}
        </p>
        <ul aria-label="What may reach this contact now" className="flex flex-col gap-2">
          <Channel label="Calls" answer={c.call} />
          <Channel label="Texts" answer={c.text} />
          <Channel label="Campaign e-mail" answer={c.campaignEmail} />
        </ul>
      </CardContent>
    </Card>
  );
}
