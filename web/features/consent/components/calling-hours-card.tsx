import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { DEFAULT_CALLING_WINDOW, STATE_RULES } from '#domain/consent/calling-rules.ts';
import type { ConsentSettings } from '#domain/consent/consent.schema.ts';
import { clockOf } from '#domain/time/zoned-time.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { NativeSelect } from '../../../components/ui/native-select.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useConsentSettings, useSaveConsentSettings } from '../api/consent-queries.ts';

/** 'HH:MM' of an <input type="time"> ↔ minutes of the day. */
const toInput = (minute: number) => clockOf(minute).padStart(5, '0');
const fromInput = (value: string) => {
  const [h, m] = value.split(':').map(Number);
  return h === undefined || m === undefined || Number.isNaN(h) || Number.isNaN(m) ? null : h * 60 + m;
};

const stricter = Object.values(STATE_RULES)
  .map(
    (r) =>
      `${r.name} ${r.window ? `${clockOf(r.window.from)}–${clockOf(r.window.to)}` : ''}${r.maxCallsPer24h ? `, at most ${r.maxCallsPer24h} calls a day` : ''}`,
  )
  .join('; ');

/**
 * Settings → Phone: the user's calling hours, in each contact's local time, inside the law's (8:00–21:00, and the
 * stricter states'), never wider; and whether a contact whose local time is unknown may be called and texted.
 */
export function CallingHoursCard() {
  const settings = useConsentSettings();
  if (settings.isPending) return <Spinner />;
  if (settings.isError) return null;
  return <CallingHoursForm settings={settings.data} key={JSON.stringify(settings.data)} />;
}

function CallingHoursForm({ settings }: { settings: ConsentSettings }) {
  const save = useSaveConsentSettings();
  const window = settings.window ?? DEFAULT_CALLING_WINDOW;
  const [from, setFrom] = useState(toInput(window.from));
  const [to, setTo] = useState(toInput(window.to));
  const [unknown, setUnknown] = useState(settings.unknownLocalTime);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const start = fromInput(from);
    const end = fromInput(to);
    if (start === null || end === null || start >= end)
      return void toast.error('Error', { description: 'Calling hours must end after they start.' });
    const lawful = {
      from: Math.max(start, DEFAULT_CALLING_WINDOW.from),
      to: Math.min(end, DEFAULT_CALLING_WINDOW.to),
    };
    const same = lawful.from === DEFAULT_CALLING_WINDOW.from && lawful.to === DEFAULT_CALLING_WINDOW.to;
    save.mutate(
      { window: same ? null : lawful, unknownLocalTime: unknown },
      {
        onSuccess: () =>
          toast.success('Calling hours saved', {
            description: `Calls and texts go out from ${clockOf(lawful.from)} to ${clockOf(lawful.to)} in each contact's local time${
              lawful.from !== start || lawful.to !== end ? ' (the law allows no wider)' : ''
            }.`,
          }),
        onError: (error) => toast.error('Error', { description: error.message }),
      },
    );
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>Calling hours</CardTitle>
        <CardDescription>
          Calls and texts reach a contact only inside these hours in their local time (from the contact's time
          zone, else their phone number). The law allows {clockOf(DEFAULT_CALLING_WINDOW.from)}–
          {clockOf(DEFAULT_CALLING_WINDOW.to)}; some states allow less ({stricter}), and that always applies.
          You can narrow the hours, never widen them.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form className="flex flex-wrap items-end gap-3" onSubmit={submit} aria-label="Calling hours">
          <div className="flex flex-col gap-2">
            <Label htmlFor="calling-from">From</Label>
            <Input id="calling-from" type="time" value={from} onChange={(e) => setFrom(e.target.value)} />
          </div>
          <div className="flex flex-col gap-2">
            <Label htmlFor="calling-to">To</Label>
            <Input id="calling-to" type="time" value={to} onChange={(e) => setTo(e.target.value)} />
          </div>
          <div className="flex flex-col gap-2">
            <Label htmlFor="calling-unknown">Contacts whose local time is unknown</Label>
            <NativeSelect
              id="calling-unknown"
              value={unknown}
              onChange={(e) => setUnknown(e.target.value === 'block' ? 'block' : 'allow')}
            >
              <option value="allow">Call and text them (flagged)</option>
              <option value="block">Don't call or text them</option>
            </NativeSelect>
          </div>
          <Button type="submit" disabled={save.isPending}>
            Save calling hours
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
