import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { PACE } from '#domain/campaigns/email-campaign.schema.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { selectionSize, toBulkSelection, type ContactSelection } from '../../contacts/public.ts';
import { SelectionPicker } from '../../queues/public.ts';
import { useCreateSmsCampaign } from '../api/sms-campaigns-queries.ts';
import { PROJECTS_CAMPAIGNS, showSaveError } from './campaign-checks.ts';
import { checkSmsCampaign } from './sms-checks.ts';
import { SmsMessageFields, type SmsFields } from './sms-message-fields.tsx';

/**
 * /projects/sms/create (spec part 2 §2.3: name and contacts, with the message): Cancel; Create Campaign, disabled
 * while the name is empty, no contact is chosen, or the request is pending.
 */
export function SmsCampaignCreatePage() {
  const navigate = useNavigate();
  const create = useCreateSmsCampaign();
  const [fields, setFields] = useState<SmsFields>({
    name: '',
    message: '',
    perMinute: PACE.default,
    projectId: null,
  });
  const [selection, setSelection] = useState<ContactSelection | null>(null);
  const count = selectionSize(selection);
  const submit = () => {
    if (!checkSmsCampaign(fields, count)) return;
    create.mutate(
      { ...fields, selection: toBulkSelection(selection!) },
      {
        onSuccess: (campaign) => {
          toast.success('Campaign created', {
            description: `${campaign.name}: ${campaign.counts.total.toLocaleString()} contact(s). Review it and press Send when ready.`,
          });
          void navigate(`/projects/sms/edit/${campaign.id}`, { state: { campaignName: campaign.name } });
        },
        onError: showSaveError,
      },
    );
  };
  return (
    <Card className="mx-auto w-full max-w-3xl">
      <CardHeader>
        <CardTitle>Create SMS Campaign</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <SmsMessageFields fields={fields} onChange={setFields} />
        <div className="flex flex-col gap-2">
          <p className="text-sm font-medium">Contacts</p>
          <SelectionPicker selection={selection} onChange={setSelection} />
        </div>
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
