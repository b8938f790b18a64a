import type { ReactNode } from 'react';
import { PACE } from '#domain/campaigns/campaign-pace.ts';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { ProjectSelect } from '../../projects/public.ts';

/** What every campaign's form holds besides its message. */
export type CampaignForm = { name: string; perMinute: number; projectId: string | null };

/**
 * A campaign's name, project and pace, as create and edit show them, with the channel's message between
 * (`children`): the e-mail's subject and body, or the text message.
 */
export function CampaignFormFields<F extends CampaignForm>(props: {
  form: F;
  onChange: (form: F) => void;
  /** Prefix of the inputs' ids ('campaign', 'sms'). */
  idPrefix: string;
  nameLabel: string;
  paceLabel: string;
  paceHint?: string;
  children?: ReactNode;
}) {
  const { form, idPrefix } = props;
  const set = (patch: Partial<CampaignForm>) => props.onChange({ ...form, ...patch });
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-2">
        <Label htmlFor={`${idPrefix}-name`}>{props.nameLabel}</Label>
        <Input
          id={`${idPrefix}-name`}
          value={form.name}
          maxLength={200}
          onChange={(e) => set({ name: e.target.value })}
        />
      </div>
      <ProjectSelect
        id={`${idPrefix}-project`}
        value={form.projectId}
        onChange={(projectId) => set({ projectId })}
      />
      {props.children}
      <div className="flex flex-col gap-2">
        <Label htmlFor={`${idPrefix}-pace`}>{props.paceLabel}</Label>
        <Input
          id={`${idPrefix}-pace`}
          type="number"
          className="w-32"
          min={PACE.min}
          max={PACE.max}
          value={form.perMinute}
          onChange={(e) =>
            set({ perMinute: Math.min(PACE.max, Math.max(PACE.min, Number(e.target.value) || PACE.min)) })
          }
        />
        {props.paceHint && <p className="text-xs text-muted-foreground">{props.paceHint}</p>}
      </div>
    </div>
  );
}

/** The merge fields a message may use, as the forms list them. */
export const MERGE_FIELD_LIST = (fields: Record<string, string>) =>
  Object.keys(fields)
    .map((f) => `{{${f}}}`)
    .join(' ');
