import { Plus, Trash2 } from 'lucide-react';
import { SEQUENCE_LIMITS, type SequenceStep } from '#domain/campaigns/email-sequence.schema.ts';
import { MERGE_FIELDS } from '#domain/email/merge-fields.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { Textarea } from '../../../components/ui/textarea.tsx';

export const EMPTY_STEP: SequenceStep = { subject: '', body: '', delayDays: 0 };

const delayText = (index: number) => (index === 0 ? 'days after joining' : 'days after the e-mail before');

/**
 * A sequence's e-mails, in order ("Sequences carry an emails list"): each with its subject, message
 * and how many days it waits, the first after the contact joins, the others after the e-mail before. E-mails can be
 * added (up to SEQUENCE_LIMITS.steps) and removed (at least one stays).
 */
export function SequenceStepsEditor(props: {
  steps: SequenceStep[];
  onChange: (steps: SequenceStep[]) => void;
  disabled?: boolean;
}) {
  const { steps } = props;
  const set = (index: number, patch: Partial<SequenceStep>) =>
    props.onChange(steps.map((s, i) => (i === index ? { ...s, ...patch } : s)));
  return (
    <div className="flex flex-col gap-3">
      <ol aria-label="Sequence e-mails" className="flex flex-col gap-3">
        {steps.map((step, i) => {
          const n = i + 1;
          return (
            <li
              key={i}
              aria-label={`E-mail ${n}`}
              className="flex flex-col gap-2 rounded-md border border-border p-3"
            >
              <div className="flex items-center gap-2">
                <p className="text-sm font-medium">E-mail {n}</p>
                {steps.length > 1 && (
                  <Button
                    type="button"
                    size="sm"
                    variant="ghost"
                    className="ml-auto"
                    aria-label={`Remove e-mail ${n}`}
                    disabled={props.disabled}
                    onClick={() => props.onChange(steps.filter((_, j) => j !== i))}
                  >
                    <Trash2 />
                  </Button>
                )}
              </div>
              <div className="flex items-center gap-2 text-sm">
                <Label htmlFor={`step-${n}-delay`} className="font-normal">
                  Send
                </Label>
                <Input
                  id={`step-${n}-delay`}
                  aria-label={`E-mail ${n} delay in days`}
                  type="number"
                  className="w-20"
                  min={0}
                  max={SEQUENCE_LIMITS.delayDays}
                  value={step.delayDays}
                  disabled={props.disabled}
                  onChange={(e) =>
                    set(i, {
                      delayDays: Math.min(
                        SEQUENCE_LIMITS.delayDays,
                        Math.max(0, Math.trunc(Number(e.target.value) || 0)),
                      ),
                    })
                  }
                />
                <span className="text-muted-foreground">{delayText(i)}</span>
              </div>
              <Label htmlFor={`step-${n}-subject`}>E-mail {n} subject</Label>
              <Input
                id={`step-${n}-subject`}
                value={step.subject}
                maxLength={998}
                disabled={props.disabled}
                onChange={(e) => set(i, { subject: e.target.value })}
              />
              <Label htmlFor={`step-${n}-body`}>E-mail {n} message</Label>
              <Textarea
                id={`step-${n}-body`}
                rows={5}
                value={step.body}
                disabled={props.disabled}
                onChange={(e) => set(i, { body: e.target.value })}
              />
            </li>
          );
        })}
      </ol>
      <p className="text-xs text-muted-foreground">
        Merge fields:{' '}
        {Object.keys(MERGE_FIELDS)
          .map((f) => `{{${f}}}`)
          .join(' ')}
        . Every e-mail ends with an unsubscribe link; a contact who unsubscribes, is marked do not call or not
        interested leaves the sequence.
      </p>
      {steps.length < SEQUENCE_LIMITS.steps && (
        <Button
          type="button"
          variant="outline"
          className="self-start"
          disabled={props.disabled}
          onClick={() => props.onChange([...steps, { ...EMPTY_STEP, delayDays: 2 }])}
        >
          <Plus /> Add e-mail
        </Button>
      )}
    </div>
  );
}
