import { Clock, Download } from 'lucide-react';
import { CHANNEL_LABELS, OUTCOME_LABELS } from '#domain/consent/consent-record.ts';
import type { ReachAnswer } from '#domain/consent/consent.schema.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { formatMoment } from '../../../lib/dates.ts';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { useConsentRecord, useContactConsent } from '../api/consent-queries.ts';
import { ExpressConsentRow } from './express-consent-row.tsx';

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

/** The newest lines of the contact's consent record: each decision and opt-out change, when, and why. */
function ConsentHistory({ contactId, enabled }: { contactId: string; enabled: boolean }) {
  const record = useConsentRecord(contactId, enabled);
  const entries = record.data?.entries.slice(0, 10) ?? [];
  if (entries.length === 0) return null;
  return (
    <div className="flex flex-col gap-2">
      <p className="font-medium">Consent history</p>
      <ul aria-label="Consent history" className="flex flex-col gap-1">
        {entries.map((e, i) => (
          <li key={`${e.at}-${i}`} className="flex flex-wrap gap-2 text-muted-foreground">
            <span>{formatMoment(e.at)}</span>
            <span className="text-foreground">
              {CHANNEL_LABELS[e.channel]}: {OUTCOME_LABELS[e.outcome]}
            </span>
            {e.reason && <span>{e.reason}</span>}
          </li>
        ))}
      </ul>
    </div>
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
        <Button variant="outline" size="sm" className="ml-auto" asChild>
          <a href={`/api/contacts/${contactId}/consent/record.csv`} download>
            <Download /> Export consent record
          </a>
        </Button>
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
          <Channel label="Voicemail drop" answer={c.prerecorded} />
        </ul>
        <ExpressConsentRow contactId={contactId} consent={c.expressConsent} />
        <ConsentHistory contactId={contactId} enabled={enabled} />
      </CardContent>
    </Card>
  );
}
