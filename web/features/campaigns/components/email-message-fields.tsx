import { MERGE_FIELDS } from '#domain/email/merge-fields.ts';
import { PACE } from '#domain/campaigns/campaign-pace.ts';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { Textarea } from '../../../components/ui/textarea.tsx';
import { CampaignFormFields, MERGE_FIELD_LIST, type CampaignForm } from './campaign-form-fields.tsx';

export type EmailForm = CampaignForm & { subject: string; body: string; description: string };

/**
 * An e-mail campaign's form: name, project, subject and message (with its merge fields), pace. A sequence has no
 * single message (`sequence`: its e-mails are edited beside these fields).
 */
export function EmailMessageFields(props: {
  form: EmailForm;
  onChange: (form: EmailForm) => void;
  sequence?: boolean;
}) {
  const { form } = props;
  const set = (patch: Partial<EmailForm>) => props.onChange({ ...form, ...patch });
  return (
    <CampaignFormFields
      form={form}
      onChange={props.onChange}
      idPrefix="campaign"
      nameLabel={props.sequence ? 'Sequence name' : 'Campaign name'}
      paceLabel="E-mails per minute"
      paceHint={`Your mail server may limit how fast it accepts mail; ${PACE.default} a minute suits most.`}
    >
      {props.sequence && (
        <div className="flex flex-col gap-2">
          <Label htmlFor="sequence-description">Description</Label>
          <Textarea
            id="sequence-description"
            rows={2}
            maxLength={2000}
            placeholder="What this sequence is for"
            value={form.description}
            onChange={(e) => set({ description: e.target.value })}
          />
        </div>
      )}
      {!props.sequence && (
        <>
          <div className="flex flex-col gap-2">
            <Label htmlFor="campaign-subject">Subject</Label>
            <Input
              id="campaign-subject"
              value={form.subject}
              maxLength={998}
              onChange={(e) => set({ subject: e.target.value })}
            />
          </div>
          <div className="flex flex-col gap-2">
            <Label htmlFor="campaign-body">Message</Label>
            <Textarea
              id="campaign-body"
              rows={8}
              value={form.body}
              onChange={(e) => set({ body: e.target.value })}
            />
            <p className="text-xs text-muted-foreground">
              Merge fields: {MERGE_FIELD_LIST(MERGE_FIELDS)}. Every e-mail ends with an unsubscribe link.
            </p>
          </div>
        </>
      )}
    </CampaignFormFields>
  );
}
