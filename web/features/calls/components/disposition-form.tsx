import { useEffect, useRef, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import {
  canSaveDisposition,
  DISPOSITION_LABELS,
  DispositionSchema,
  LeadQualificationSchema,
  type Disposition,
  type LeadQualification,
} from '#domain/calls/disposition.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { NativeSelect } from '../../../components/ui/native-select.tsx';
import { Textarea } from '../../../components/ui/textarea.tsx';
import { atHourIn, todayIn } from '../../../lib/zoned-days.ts';
import { useTimeZone } from '../../auth/public.ts';
import { useSaveDisposition } from '../api/calls-queries.ts';

/**
 * The disposition of a call: the eight values, notes, lead qualification (cold by
 * default), and for call-back a date that cannot be in the past. An outcome may be proposed (answering-machine
 * detection's Voicemail) until the rep picks one. Save shows only when a disposition is set, and for
 * call-back only with a date. Qualified sets is_qualified; do-not-call puts the number on the do-not-call list.
 */
export function DispositionForm({
  contactId,
  callId,
  durationSeconds,
  onChosen,
  onSaved,
  notes: sharedNotes,
  onNotesChange,
  queueId,
  suggested = null,
  keyboard = false,
}: {
  contactId: string;
  /** The queue being walked: the disposition completes the contact there. */
  queueId?: string | null;
  callId: string | null;
  durationSeconds: number;
  onChosen?: (chosen: boolean) => void;
  onSaved: () => void;
  /** Notes kept outside the form (the dialer's Notes tab); the form keeps its own otherwise. */
  notes?: string;
  onNotesChange?: (notes: string) => void;
  /** An outcome proposed until the rep chooses one (a call answered by a machine: Voicemail). */
  suggested?: Disposition | null;
  /** The dialer's keys: 1–8 choose a disposition, Enter saves (not while typing notes). */
  keyboard?: boolean;
}) {
  const [picked, setDisposition] = useState<Disposition | null>(null);
  const disposition = picked ?? suggested;
  const [ownNotes, setOwnNotes] = useState('');
  const notes = sharedNotes ?? ownNotes;
  const setNotes = onNotesChange ?? setOwnNotes;
  const [qualification, setQualification] = useState<LeadQualification>('cold');
  const [callbackDay, setCallbackDay] = useState('');
  const save = useSaveDisposition();
  // A callback is due at 9:00 on its day, in the user's time zone (Settings → Profile, else the browser's).
  const timeZone = useTimeZone();
  const callbackDate = callbackDay ? atHourIn(callbackDay, 9, timeZone) : null;
  const allowed = canSaveDisposition({ disposition, callbackDate, hasContact: true }, new Date(), timeZone);

  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (!keyboard) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target)) return;
      const n = Number(event.key);
      const chosen = Number.isInteger(n) && n >= 1 ? DispositionSchema.options[n - 1] : undefined;
      if (chosen) {
        event.preventDefault();
        setDisposition(chosen);
        onChosen?.(true);
      } else if (event.key === 'Enter') {
        // A button of the form itself keeps its own Enter; any other focused button (the dialer's Pause) does not
        // take the key meant for saving.
        if (event.target instanceof HTMLButtonElement && form.current?.contains(event.target)) return;
        event.preventDefault();
        form.current?.requestSubmit();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [keyboard, onChosen]);

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!disposition || !allowed) return;
    save.mutate(
      {
        contactId,
        callId,
        disposition,
        notes: notes || undefined,
        qualification,
        callbackDate: disposition === 'call-back' && callbackDate ? callbackDate.toISOString() : null,
        callDurationSeconds: durationSeconds,
        ...(queueId ? { queueId } : {}),
      },
      {
        onSuccess: () => {
          toast.success('Disposition saved', { description: DISPOSITION_LABELS[disposition] });
          onSaved();
        },
        onError: (error) => toast.error('Error saving disposition', { description: error.message }),
      },
    );
  };

  return (
    <form ref={form} className="flex flex-col gap-3" onSubmit={handleSubmit} aria-label="Disposition">
      <fieldset className="grid grid-cols-2 gap-1.5">
        <legend className="mb-1 text-sm font-medium">Disposition</legend>
        {suggested && !picked && (
          <p className="col-span-2 text-xs text-muted-foreground">
            Proposed from the call: {DISPOSITION_LABELS[suggested]}. Choose another to change it.
          </p>
        )}
        {DispositionSchema.options.map((value, index) => (
          <label key={value} className="flex items-center gap-2 text-sm">
            <input
              type="radio"
              name="disposition"
              value={value}
              checked={disposition === value}
              onChange={() => {
                setDisposition(value);
                onChosen?.(true);
              }}
            />
            {DISPOSITION_LABELS[value]}
            {keyboard && (
              <kbd
                aria-hidden
                className="ml-auto rounded border border-border px-1 text-xs text-muted-foreground"
              >
                {index + 1}
              </kbd>
            )}
          </label>
        ))}
      </fieldset>
      {disposition === 'call-back' && (
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="callback-date">Callback date</Label>
          <Input
            id="callback-date"
            type="date"
            min={todayIn(timeZone)}
            value={callbackDay}
            onChange={(e) => setCallbackDay(e.target.value)}
          />
        </div>
      )}
      <div className="grid grid-cols-2 gap-2">
        <div className="col-span-2 flex flex-col gap-1.5">
          <Label htmlFor="call-notes">Notes</Label>
          <Textarea id="call-notes" rows={2} value={notes} onChange={(e) => setNotes(e.target.value)} />
        </div>
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="lead-qualification">Lead</Label>
          <NativeSelect
            id="lead-qualification"
            value={qualification}
            onChange={(e) => setQualification(LeadQualificationSchema.parse(e.target.value))}
          >
            {LeadQualificationSchema.options.map((q) => (
              <option key={q} value={q}>
                {q[0]!.toUpperCase() + q.slice(1)}
              </option>
            ))}
          </NativeSelect>
        </div>
      </div>
      {allowed && (
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save disposition'}
        </Button>
      )}
    </form>
  );
}

/** Keys typed into a field (notes, a date, a select) are the rep's words, not commands. */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return target instanceof HTMLInputElement && !['radio', 'checkbox', 'button'].includes(target.type);
}
