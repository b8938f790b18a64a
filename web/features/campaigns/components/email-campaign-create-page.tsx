import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { PACE, type EmailCampaign } from '#domain/campaigns/email-campaign.schema.ts';
import type { SequenceStep } from '#domain/campaigns/email-sequence.schema.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { selectionSize, toBulkSelection, type ContactSelection } from '../../contacts/public.ts';
import { SelectionPicker } from '../../queues/public.ts';
import { useCreateEmailCampaign } from '../api/email-campaigns-queries.ts';
import { CampaignMessageFields, type CampaignFields } from './campaign-message-fields.tsx';
import { checkCampaign, checkSequence, PROJECTS_CAMPAIGNS, showSaveError } from './campaign-checks.ts';
import { campaignPath } from './campaign-status.ts';
import { EMPTY_STEP, SequenceStepsEditor } from './sequence-steps-editor.tsx';

/**
 * /projects/email/create and /projects/email-sequence/create (spec part 2 §2.3): a setup step (name, type, message
 * or the sequence's e-mails, pace) and a contacts step; Cancel; Create Campaign (Create Sequence), disabled while
 * the name is empty, no contact is chosen, or the request is pending.
 */
export function EmailCampaignCreatePage({
  type: initialType = 'campaign',
}: {
  type?: EmailCampaign['type'];
}) {
  const navigate = useNavigate();
  const create = useCreateEmailCampaign();
  const [type, setType] = useState(initialType);
  const [step, setStep] = useState<'setup' | 'contacts'>('setup');
  const [fields, setFields] = useState<CampaignFields>({
    name: '',
    subject: '',
    body: '',
    perMinute: PACE.default,
    projectId: null,
  });
  const [steps, setSteps] = useState<SequenceStep[]>([{ ...EMPTY_STEP }]);
  const [selection, setSelection] = useState<ContactSelection | null>(null);
  const count = selectionSize(selection);
  const sequence = type === 'sequence';

  const submit = () => {
    if (sequence ? !checkSequence(fields, steps, count) : !checkCampaign(fields, count)) return;
    const common = {
      name: fields.name,
      projectId: fields.projectId,
      perMinute: fields.perMinute,
      selection: toBulkSelection(selection!),
    };
    create.mutate(
      sequence ? { type, ...common, steps } : { type, ...common, subject: fields.subject, body: fields.body },
      {
        onSuccess: (campaign) => {
          toast.success(sequence ? 'Sequence created' : 'Campaign created', {
            description: `${campaign.name}: ${campaign.counts.total.toLocaleString()} contact(s). Review it and press ${sequence ? 'Start' : 'Send'} when ready.`,
          });
          void navigate(campaignPath(campaign), { state: { campaignName: campaign.name } });
        },
        onError: showSaveError,
      },
    );
  };

  return (
    <Card className="mx-auto w-full max-w-3xl">
      <CardHeader>
        <CardTitle>{sequence ? 'Create Email Sequence' : 'Create Email Campaign'}</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <div role="tablist" aria-label="Campaign steps" className="flex gap-2">
          <Button
            role="tab"
            aria-selected={step === 'setup'}
            variant={step === 'setup' ? 'default' : 'outline'}
            onClick={() => setStep('setup')}
          >
            1. Setup
          </Button>
          <Button
            role="tab"
            aria-selected={step === 'contacts'}
            variant={step === 'contacts' ? 'default' : 'outline'}
            onClick={() => setStep('contacts')}
          >
            2. Contacts ({count.toLocaleString()})
          </Button>
        </div>
        {step === 'setup' ? (
          <>
            <fieldset className="flex flex-col gap-2">
              <legend className="mb-2 text-sm font-medium">Type</legend>
              <Label className="font-normal">
                <input
                  type="radio"
                  name="campaign-type"
                  checked={!sequence}
                  onChange={() => setType('campaign')}
                />{' '}
                One-time: a single e-mail to every contact
              </Label>
              <Label className="font-normal">
                <input
                  type="radio"
                  name="campaign-type"
                  checked={sequence}
                  onChange={() => setType('sequence')}
                />{' '}
                Automated sequence of several e-mails over time
              </Label>
            </fieldset>
            <CampaignMessageFields fields={fields} onChange={setFields} sequence={sequence} />
            {sequence && <SequenceStepsEditor steps={steps} onChange={setSteps} />}
            <Button variant="outline" className="self-start" onClick={() => setStep('contacts')}>
              Next: choose contacts
            </Button>
          </>
        ) : (
          <SelectionPicker selection={selection} onChange={setSelection} />
        )}
        <div className="flex justify-end gap-2 border-t border-border pt-4">
          <Button variant="outline" asChild>
            <Link to={PROJECTS_CAMPAIGNS}>Cancel</Link>
          </Button>
          <Button onClick={submit} disabled={!fields.name.trim() || count === 0 || create.isPending}>
            {sequence ? 'Create Sequence' : 'Create Campaign'}
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}

/** /projects/email-sequence/create: the same screen with the sequence chosen (its own state, not the campaign's). */
export function EmailSequenceCreatePage() {
  return <EmailCampaignCreatePage key="sequence" type="sequence" />;
}
