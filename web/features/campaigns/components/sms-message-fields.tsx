import { MERGE_FIELDS } from '#domain/email/merge-fields.ts';
import { SMS_MAX_LENGTH, smsSegments } from '#domain/sms/sms-text.ts';
import { Label } from '../../../components/ui/label.tsx';
import { Textarea } from '../../../components/ui/textarea.tsx';
import { CampaignFormFields, MERGE_FIELD_LIST, type CampaignForm } from './campaign-form-fields.tsx';

export type SmsForm = CampaignForm & { message: string };

/** An SMS campaign's form: name, project, message (length and segments counted as typed), pace. */
export function SmsMessageFields(props: { form: SmsForm; onChange: (form: SmsForm) => void }) {
  const { form } = props;
  return (
    <CampaignFormFields
      form={form}
      onChange={props.onChange}
      idPrefix="sms"
      nameLabel="Campaign name"
      paceLabel="Messages per minute"
    >
      <div className="flex flex-col gap-2">
        <Label htmlFor="sms-message">Message</Label>
        <Textarea
          id="sms-message"
          rows={4}
          maxLength={SMS_MAX_LENGTH}
          value={form.message}
          onChange={(e) => props.onChange({ ...form, message: e.target.value })}
        />
        <p className="text-xs text-muted-foreground" aria-label="Message length">
          {form.message.length.toLocaleString()} / {SMS_MAX_LENGTH.toLocaleString()} characters ·{' '}
          {smsSegments(form.message)} segment(s) before merge fields are filled in. Merge fields:{' '}
          {MERGE_FIELD_LIST(MERGE_FIELDS)}. Contacts who reply STOP get no more messages.
        </p>
      </div>
    </CampaignFormFields>
  );
}
