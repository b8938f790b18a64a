import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { RecordingSettingsSchema } from '#domain/recordings/call-recording.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useRecordingSettings, useSaveRecordingSettings } from '../api/recording-settings.ts';

/**
 * Settings → Phone → Call recording (decision 030): off by default. When on, every call placed or taken is recorded; where
 * the law needs every party's consent the called person first hears "This call is recorded."; recordings (and
 * voicemails) are deleted after the retention.
 */
export function CallRecordingCard() {
  const settings = useRecordingSettings();
  const save = useSaveRecordingSettings();
  const [draft, setDraft] = useState<{ recordCalls: boolean; retentionDays: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (settings.isPending) return <Spinner />;
  if (settings.isError)
    return (
      <p role="alert" className="text-sm text-destructive">
        {settings.error.message}
      </p>
    );
  const saved = settings.data.settings;
  const shown = draft ?? { recordCalls: saved.recordCalls, retentionDays: String(saved.retentionDays) };

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = RecordingSettingsSchema.safeParse({
      recordCalls: shown.recordCalls,
      retentionDays: Number(shown.retentionDays),
    });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Invalid settings');
    setError(null);
    save.mutate(parsed.data, {
      onSuccess: () => {
        setDraft(null);
        toast.success('Call recording settings saved');
      },
      onError: (e) => setError(e.message),
    });
  };

  return (
    <Card role="region" aria-label="Call recording">
      <CardHeader>
        <CardTitle>Call recording</CardTitle>
        <CardDescription>
          Off by default. When on, the calls you place and take are recorded and play in the contact&apos;s
          Calls list and the Call History. Where every party must consent to a recording, the other person
          first hears “This call is recorded.” — decided for each call from the contact&apos;s state and your
          number&apos;s, and also when the contact&apos;s state is not known. Parallel dialing records only
          where no such message is needed (it would hold the person past the 2-second rule), from when you
          take the call.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form className="flex flex-col gap-4 text-sm" onSubmit={handleSubmit} noValidate>
          <label className="flex items-center gap-2">
            <input
              type="checkbox"
              className="size-4"
              checked={shown.recordCalls}
              onChange={(e) => setDraft({ ...shown, recordCalls: e.target.checked })}
            />
            Record my calls
          </label>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="retention-days">Keep recordings and voicemails for (days)</Label>
            <Input
              id="retention-days"
              type="number"
              min={1}
              max={3650}
              className="w-32"
              value={shown.retentionDays}
              onChange={(e) => setDraft({ ...shown, retentionDays: e.target.value })}
            />
            <p className="text-xs text-muted-foreground">Older ones are deleted every night.</p>
          </div>
          <details className="text-muted-foreground">
            <summary className="cursor-pointer">States where everyone must consent</summary>
            <ul className="mt-2 flex flex-col gap-1">
              {settings.data.allPartyStates.map((s) => (
                <li key={s.state}>
                  {s.name} — {s.source}
                </li>
              ))}
            </ul>
          </details>
          <Button type="submit" className="self-start" disabled={save.isPending || draft === null}>
            Save
          </Button>
          {error && (
            <p role="alert" className="text-destructive">
              {error}
            </p>
          )}
        </form>
      </CardContent>
    </Card>
  );
}
