import { useState } from 'react';
import { PACE } from '#domain/campaigns/campaign-pace.ts';
import type { CampaignType } from '#domain/campaigns/campaign-state.ts';
import { EMAIL_CAMPAIGN_MESSAGES } from '#domain/campaigns/email-campaign.schema.ts';
import { SEQUENCE_MESSAGES, type SequenceStep } from '#domain/campaigns/email-sequence.schema.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { selectionSize, toBulkSelection, type ContactSelection } from '../../contacts/public.ts';
import { SelectionPicker } from '../../queues/public.ts';
import { useCreateCampaign } from '../api/campaign-queries.ts';
import { useCreateSequence } from '../api/sequence-queries.ts';
import { checkCampaign, emailProblem, sequenceProblem, showSaveError } from './campaign-checks.ts';
import { CreateCampaignFooter, useOpenCreated } from './create-campaign-footer.tsx';
import { EmailMessageFields, type EmailForm } from './email-message-fields.tsx';
import { EMPTY_STEP, SequenceStepsEditor } from './sequence-steps-editor.tsx';

/**
 * /projects/email/create and /projects/email-sequence/create: a setup step (name, type, message
 * or the sequence's e-mails, pace) and a contacts step; Cancel; Create Campaign (Create Sequence), disabled while
 * the name is empty, no contact is chosen, or the request is pending.
 */
export function EmailCampaignCreatePage({ type: initialType = 'campaign' }: { type?: CampaignType }) {
  const createCampaign = useCreateCampaign('email');
  const createSequence = useCreateSequence();
  const openCreated = useOpenCreated('email');
  const pending = createCampaign.isPending || createSequence.isPending;
  const [type, setType] = useState(initialType);
  const [step, setStep] = useState<'setup' | 'contacts'>('setup');
  const [fields, setFields] = useState<EmailForm>({
    name: '',
    subject: '',
    body: '',
    description: '',
    perMinute: PACE.default,
    projectId: null,
  });
  const [steps, setSteps] = useState<SequenceStep[]>([{ ...EMPTY_STEP }]);
  const [selection, setSelection] = useState<ContactSelection | null>(null);
  const count = selectionSize(selection);
  const sequence = type === 'sequence';

  const submit = () => {
    const checked = sequence
      ? checkCampaign(SEQUENCE_MESSAGES.nameRequired, fields, count, sequenceProblem(steps))
      : checkCampaign(EMAIL_CAMPAIGN_MESSAGES.nameRequired, fields, count, emailProblem(fields));
    if (!checked) return;
    const common = {
      name: fields.name,
      projectId: fields.projectId,
      perMinute: fields.perMinute,
      selection: toBulkSelection(selection!),
    };
    const done = { onSuccess: openCreated, onError: showSaveError };
    if (sequence) createSequence.mutate({ ...common, steps, description: fields.description }, done);
    else createCampaign.mutate({ ...common, subject: fields.subject, body: fields.body }, done);
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
            <EmailMessageFields form={fields} onChange={setFields} sequence={sequence} />
            {sequence && <SequenceStepsEditor steps={steps} onChange={setSteps} />}
            <Button variant="outline" className="self-start" onClick={() => setStep('contacts')}>
              Next: choose contacts
            </Button>
          </>
        ) : (
          <SelectionPicker selection={selection} onChange={setSelection} />
        )}
        <CreateCampaignFooter
          label={sequence ? 'Create Sequence' : 'Create Campaign'}
          disabled={!fields.name.trim() || count === 0 || pending}
          onCreate={submit}
        />
      </CardContent>
    </Card>
  );
}

/** /projects/email-sequence/create: the same screen with the sequence chosen (its own state, not the campaign's). */
export function EmailSequenceCreatePage() {
  return <EmailCampaignCreatePage key="sequence" type="sequence" />;
}
