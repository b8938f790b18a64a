import { MERGE_FIELDS } from '#domain/email/merge-fields.ts';
import { PACE } from '#domain/campaigns/email-campaign.schema.ts';
import { SMS_MAX_LENGTH, smsSegments } from '#domain/campaigns/sms-campaign.schema.ts';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { Textarea } from '../../../components/ui/textarea.tsx';
import { ProjectSelect } from '../../projects/public.ts';

export type SmsFields = { name: string; message: string; perMinute: number; projectId: string | null };

/** An SMS campaign's name, project, message (length and segments counted as typed) and pace. */
export function SmsMessageFields(props: { fields: SmsFields; onChange: (fields: SmsFields) => void }) {
  const { fields } = props;
  const set = (patch: Partial<SmsFields>) => props.onChange({ ...fields, ...patch });
  const segments = smsSegments(fields.message);
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-2">
        <Label htmlFor="sms-name">Campaign name</Label>
        <Input
          id="sms-name"
          value={fields.name}
          maxLength={200}
          onChange={(e) => set({ name: e.target.value })}
        />
      </div>
      <ProjectSelect id="sms-project" value={fields.projectId} onChange={(projectId) => set({ projectId })} />
      <div className="flex flex-col gap-2">
        <Label htmlFor="sms-message">Message</Label>
        <Textarea
          id="sms-message"
          rows={4}
          maxLength={SMS_MAX_LENGTH}
          value={fields.message}
          onChange={(e) => set({ message: e.target.value })}
        />
        <p className="text-xs text-muted-foreground" aria-label="Message length">
          {fields.message.length.toLocaleString()} / {SMS_MAX_LENGTH.toLocaleString()} characters · {segments}{' '}
          segment(s) before merge fields are filled in. Merge fields:{' '}
          {Object.keys(MERGE_FIELDS)
            .map((f) => `{{${f}}}`)
            .join(' ')}
          . Contacts who reply STOP get no more messages.
        </p>
      </div>
      <div className="flex flex-col gap-2">
        <Label htmlFor="sms-pace">Messages per minute</Label>
        <Input
          id="sms-pace"
          type="number"
          className="w-32"
          min={PACE.min}
          max={PACE.max}
          value={fields.perMinute}
          onChange={(e) =>
            set({ perMinute: Math.min(PACE.max, Math.max(PACE.min, Number(e.target.value) || PACE.min)) })
          }
        />
      </div>
    </div>
  );
}
