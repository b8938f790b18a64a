import { useState } from 'react';
import { PACE } from '#domain/campaigns/campaign-pace.ts';
import { SMS_MESSAGES } from '#domain/campaigns/sms-campaign.schema.ts';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { selectionSize, toBulkSelection, type ContactSelection } from '../../contacts/public.ts';
import { SelectionPicker } from '../../queues/public.ts';
import { useCreateCampaign } from '../api/campaign-queries.ts';
import { checkCampaign, showSaveError, smsProblem } from './campaign-checks.ts';
import { CreateCampaignFooter, useOpenCreated } from './create-campaign-footer.tsx';
import { SmsMessageFields, type SmsForm } from './sms-message-fields.tsx';

/** /projects/sms/create (name and contacts, with the message): Cancel; Create Campaign. */
export function SmsCampaignCreatePage() {
  const create = useCreateCampaign('sms');
  const openCreated = useOpenCreated('sms');
  const [form, setForm] = useState<SmsForm>({
    name: '',
    message: '',
    perMinute: PACE.default,
    projectId: null,
  });
  const [selection, setSelection] = useState<ContactSelection | null>(null);
  const count = selectionSize(selection);
  const submit = () => {
    if (!checkCampaign(SMS_MESSAGES.nameRequired, form, count, smsProblem(form))) return;
    create.mutate(
      { ...form, selection: toBulkSelection(selection!) },
      { onSuccess: openCreated, onError: showSaveError },
    );
  };
  return (
    <Card className="mx-auto w-full max-w-3xl">
      <CardHeader>
        <CardTitle>Create SMS Campaign</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <SmsMessageFields form={form} onChange={setForm} />
        <div className="flex flex-col gap-2">
          <p className="text-sm font-medium">Contacts</p>
          <SelectionPicker selection={selection} onChange={setSelection} />
        </div>
        <CreateCampaignFooter
          label="Create Campaign"
          disabled={!form.name.trim() || count === 0 || create.isPending}
          onCreate={submit}
        />
      </CardContent>
    </Card>
  );
}
