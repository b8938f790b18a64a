import { MERGE_FIELDS } from '#domain/email/merge-fields.ts';
import { PACE } from '#domain/campaigns/email-campaign.schema.ts';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { Textarea } from '../../../components/ui/textarea.tsx';
import { ProjectSelect } from '../../projects/public.ts';

export type CampaignFields = {
  name: string;
  subject: string;
  body: string;
  perMinute: number;
  projectId: string | null;
};

/**
 * The campaign's name, project, message (with its merge fields) and pace, as create and edit show them. A sequence
 * has no single message (`sequence`: its e-mails are edited beside these fields).
 */
export function CampaignMessageFields(props: {
  fields: CampaignFields;
  onChange: (fields: CampaignFields) => void;
  disabled?: boolean;
  sequence?: boolean;
}) {
  const { fields } = props;
  const set = (patch: Partial<CampaignFields>) => props.onChange({ ...fields, ...patch });
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-2">
        <Label htmlFor="campaign-name">{props.sequence ? 'Sequence name' : 'Campaign name'}</Label>
        <Input
          id="campaign-name"
          value={fields.name}
          maxLength={200}
          disabled={props.disabled}
          onChange={(e) => set({ name: e.target.value })}
        />
      </div>
      <ProjectSelect
        id="campaign-project"
        value={fields.projectId}
        disabled={props.disabled ?? false}
        onChange={(projectId) => set({ projectId })}
      />
      {!props.sequence && (
        <>
          <div className="flex flex-col gap-2">
            <Label htmlFor="campaign-subject">Subject</Label>
            <Input
              id="campaign-subject"
              value={fields.subject}
              maxLength={998}
              disabled={props.disabled}
              onChange={(e) => set({ subject: e.target.value })}
            />
          </div>
          <div className="flex flex-col gap-2">
            <Label htmlFor="campaign-body">Message</Label>
            <Textarea
              id="campaign-body"
              rows={8}
              value={fields.body}
              disabled={props.disabled}
              onChange={(e) => set({ body: e.target.value })}
            />
            <p className="text-xs text-muted-foreground">
              Merge fields:{' '}
              {Object.keys(MERGE_FIELDS)
                .map((f) => `{{${f}}}`)
                .join(' ')}
              . Every e-mail ends with an unsubscribe link.
            </p>
          </div>
        </>
      )}
      <div className="flex flex-col gap-2">
        <Label htmlFor="campaign-pace">E-mails per minute</Label>
        <Input
          id="campaign-pace"
          type="number"
          className="w-32"
          min={PACE.min}
          max={PACE.max}
          value={fields.perMinute}
          disabled={props.disabled}
          onChange={(e) =>
            set({ perMinute: Math.min(PACE.max, Math.max(PACE.min, Number(e.target.value) || PACE.min)) })
          }
        />
        <p className="text-xs text-muted-foreground">
          Your mail server may limit how fast it accepts mail; {PACE.default} a minute suits most.
        </p>
      </div>
    </div>
  );
}
