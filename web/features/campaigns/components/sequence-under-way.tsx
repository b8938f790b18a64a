import { useState } from 'react';
import { LogOut } from 'lucide-react';
import { toast } from 'sonner';
import { campaignActions } from '#domain/campaigns/campaign-state.ts';
import type { EmailCampaign } from '#domain/campaigns/email-campaign.schema.ts';
import { SEQUENCE_MESSAGES } from '#domain/campaigns/email-sequence.schema.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { selectionSize, toBulkSelection, type ContactSelection } from '../../contacts/public.ts';
import { SelectionPicker } from '../../queues/public.ts';
import { useAddToCampaign, type RecipientOf } from '../api/campaign-queries.ts';
import { useLeaveSequence } from '../api/sequence-queries.ts';
import { RecipientsList, type RecipientLine } from './recipients-list.tsx';
import { SEQUENCE_STATE_LABEL } from './sequence-state-label.ts';

const waitText = (days: number, first: boolean) =>
  days === 0
    ? first
      ? 'as soon as a contact joins'
      : 'right after the e-mail before'
    : `${days} day(s) after ${first ? 'a contact joins' : 'the e-mail before'}`;

/**
 * A sequence once started: its e-mails (no longer editable), contacts joining it (until it is canceled; their
 * first e-mail is due its delay from then), and its recipients, each with how far it has come, any of them
 * taken out while still in it.
 */
export function SequenceUnderWay({
  sequence,
  describe,
}: {
  sequence: EmailCampaign;
  describe: (recipient: RecipientOf<'email'>) => RecipientLine;
}) {
  const allowed = campaignActions(sequence.status, sequence.type);
  const enroll = useAddToCampaign('email');
  const leave = useLeaveSequence(sequence.id);
  const [joining, setJoining] = useState<ContactSelection | null>(null);
  const [leaving, setLeaving] = useState<{ contactId: string; name: string } | null>(null);
  const steps = sequence.steps ?? [];
  const enrollSelection = () =>
    joining &&
    enroll.mutate(
      { campaignId: sequence.id, selection: toBulkSelection(joining) },
      {
        onSuccess: ({ added }) => {
          setJoining(null);
          toast.success('Contacts enrolled', {
            description: `${added.toLocaleString()} contact(s) joined ${sequence.name}${added < selectionSize(joining) ? '; the others were already in it' : ''}.`,
          });
        },
        onError: (error) => toast.error(SEQUENCE_MESSAGES.enrollFailed, { description: error.message }),
      },
    );
  return (
    <>
      <Card>
        <CardHeader>
          <CardTitle>E-mails</CardTitle>
        </CardHeader>
        <CardContent className="flex flex-col gap-3">
          {sequence.description && <p className="text-sm text-muted-foreground">{sequence.description}</p>}
          <ol aria-label="Sequence e-mails" className="flex flex-col gap-2 text-sm">
            {steps.map((step, i) => (
              <li key={i} className="rounded-md border border-border p-2">
                <p className="font-medium">
                  E-mail {i + 1}: {step.subject}
                </p>
                <p className="text-xs text-muted-foreground">Sent {waitText(step.delayDays, i === 0)}</p>
              </li>
            ))}
          </ol>
        </CardContent>
      </Card>
      {allowed.enroll && (
        <Card>
          <CardHeader>
            <CardTitle>Enroll contacts</CardTitle>
          </CardHeader>
          <CardContent className="flex flex-col gap-3">
            <SelectionPicker selection={joining} onChange={setJoining} />
            <Button
              className="self-end"
              disabled={selectionSize(joining) === 0 || enroll.isPending}
              onClick={enrollSelection}
            >
              Enroll {selectionSize(joining).toLocaleString()} contact(s)
            </Button>
          </CardContent>
        </Card>
      )}
      <Card>
        <CardHeader>
          <CardTitle>Recipients</CardTitle>
        </CardHeader>
        <CardContent>
          <RecipientsList
            channel="email"
            campaignId={sequence.id}
            labels={SEQUENCE_STATE_LABEL}
            describe={describe}
            actions={(r) =>
              allowed.leave &&
              (r.state === 'queued' || r.state === 'sending') && (
                <Button
                  type="button"
                  size="sm"
                  variant="ghost"
                  aria-label={`Take ${r.name} out of the sequence`}
                  onClick={() => setLeaving({ contactId: r.contactId, name: r.name })}
                >
                  <LogOut />
                </Button>
              )
            }
          />
        </CardContent>
      </Card>
      <ConfirmDialog
        open={leaving !== null}
        onOpenChange={(open) => !open && setLeaving(null)}
        title={`Take ${leaving?.name ?? 'this contact'} out of the sequence?`}
        description="E-mails already sent stay sent; no more e-mails of this sequence go to them."
        confirmLabel="Take out"
        busy={leave.isPending}
        onConfirm={() =>
          leaving &&
          leave.mutate([leaving.contactId], {
            onSuccess: () => {
              toast.success('Removed from the sequence', { description: leaving.name });
              setLeaving(null);
            },
            onError: (error) => toast.error('Error', { description: error.message }),
          })
        }
      />
    </>
  );
}
