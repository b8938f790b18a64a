import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { PACE } from '#domain/campaigns/email-campaign.schema.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { selectionSize, toBulkSelection, type ContactSelection } from '../../contacts/public.ts';
import { SelectionPicker } from '../../queues/public.ts';
import { useCreateEmailCampaign } from '../api/email-campaigns-queries.ts';
import { CampaignMessageFields, type CampaignFields } from './campaign-message-fields.tsx';
import { checkCampaign, PROJECTS_CAMPAIGNS, showSaveError } from './campaign-checks.ts';

/**
 * /projects/email/create (spec part 2 §2.3): a setup step (name, type, message, pace) and a contacts step; Cancel;
 * Create Campaign, disabled while the name is empty, no contact is chosen, or the request is pending.
 */
export function EmailCampaignCreatePage() {
  const navigate = useNavigate();
  const create = useCreateEmailCampaign();
  const [step, setStep] = useState<'setup' | 'contacts'>('setup');
  const [fields, setFields] = useState<CampaignFields>({
    name: '',
    subject: '',
    body: '',
    perMinute: PACE.default,
    projectId: null,
  });
  const [selection, setSelection] = useState<ContactSelection | null>(null);
  const count = selectionSize(selection);

  const submit = () => {
    if (!checkCampaign(fields, count)) return;
    create.mutate(
      { ...fields, selection: toBulkSelection(selection!) },
      {
        onSuccess: (campaign) => {
          toast.success('Campaign created', {
            description: `${campaign.name}: ${campaign.counts.total.toLocaleString()} contact(s). Review it and press Send when ready.`,
          });
          void navigate(`/projects/email/edit/${campaign.id}`, { state: { campaignName: campaign.name } });
        },
        onError: showSaveError,
      },
    );
  };

  return (
    <Card className="mx-auto w-full max-w-3xl">
      <CardHeader>
        <CardTitle>Create Email Campaign</CardTitle>
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
                <input type="radio" name="campaign-type" checked readOnly /> One-time: a single e-mail to
                every contact
              </Label>
              <Label className="font-normal text-muted-foreground">
                <input type="radio" name="campaign-type" disabled /> Automated sequence of several e-mails
                over time (not available yet: sequences arrive in the next release)
              </Label>
            </fieldset>
            <CampaignMessageFields fields={fields} onChange={setFields} />
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
            Create Campaign
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
