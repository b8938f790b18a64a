import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import {
  formatRecordingLength,
  GREETING_MAX_CHARS,
  GREETING_MAX_SECONDS,
  VOICEMAIL_MESSAGES,
} from '#domain/recordings/voicemail.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { Textarea } from '../../../components/ui/textarea.tsx';
import {
  useRemoveGreetingRecording,
  useSaveGreetingRecording,
  useSaveGreetingText,
  useVoicemailGreeting,
} from '../api/voicemail-greeting.ts';
import { RecordingPlayer } from './recording-player.tsx';
import { MicrophoneRecorder } from './microphone-recorder.tsx';

/**
 * Settings → Phone → Voicemail greeting (decision 029): what a caller hears when nobody answers, before the tone.
 * A recorded greeting, when there is one, is played; else the written one is spoken; else the default.
 */
export function VoicemailGreetingCard() {
  const greeting = useVoicemailGreeting();
  const saveText = useSaveGreetingText();
  const [text, setText] = useState<string | null>(null);
  if (greeting.isPending) return <Spinner />;
  if (greeting.isError)
    return (
      <p role="alert" className="text-sm text-destructive">
        {greeting.error.message}
      </p>
    );
  const { recording, defaultText } = greeting.data;
  const shown = text ?? greeting.data.text ?? '';
  const hears = recording
    ? `your recorded greeting (${formatRecordingLength(recording.durationSeconds)})`
    : greeting.data.text
      ? 'your written greeting'
      : 'the default greeting';

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    saveText.mutate(shown, {
      onSuccess: () => {
        setText(null);
        toast.success(VOICEMAIL_MESSAGES.greetingSaved);
      },
      onError: (error) => toast.error('Error', { description: error.message }),
    });
  };

  return (
    <Card role="region" aria-label="Voicemail greeting">
      <CardHeader>
        <CardTitle>Voicemail greeting</CardTitle>
        <CardDescription>
          When nobody answers a call to your numbers, the caller hears this, then a tone, and can leave a
          message of up to two minutes. Callers now hear <strong>{hears}</strong>.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-6">
        <form className="flex flex-col gap-2" onSubmit={handleSubmit} aria-label="Written greeting">
          <Label htmlFor="greeting-text">Written greeting (spoken by the phone system)</Label>
          <Textarea
            id="greeting-text"
            value={shown}
            maxLength={GREETING_MAX_CHARS}
            placeholder={defaultText}
            onChange={(e) => setText(e.target.value)}
          />
          <p className="text-xs text-muted-foreground">Leave it empty for the default: “{defaultText}”</p>
          <Button type="submit" className="self-start" disabled={saveText.isPending || text === null}>
            Save greeting
          </Button>
        </form>
        <RecordedGreeting current={recording} />
      </CardContent>
    </Card>
  );
}

function RecordedGreeting({
  current,
}: {
  current: Parameters<typeof RecordingPlayer>[0]['recording'] | null;
}) {
  const save = useSaveGreetingRecording();
  const remove = useRemoveGreetingRecording();
  const [error, setError] = useState<string | null>(null);

  return (
    <section aria-label="Recorded greeting" className="flex flex-col gap-2 text-sm">
      <p className="font-medium">Recorded greeting</p>
      {current ? (
        <div className="flex flex-wrap items-center gap-3">
          <RecordingPlayer recording={current} label="Your recorded greeting" />
          <Button
            variant="outline"
            size="sm"
            disabled={remove.isPending}
            onClick={() =>
              remove.mutate(undefined, {
                onSuccess: () => toast.success(VOICEMAIL_MESSAGES.recordingRemoved),
                onError: (e) => setError(e.message),
              })
            }
          >
            Remove recording
          </Button>
        </div>
      ) : (
        <p className="text-muted-foreground">None: callers hear the written greeting.</p>
      )}
      <MicrophoneRecorder
        maxSeconds={GREETING_MAX_SECONDS}
        recordLabel={current ? 'Record a new greeting' : 'Record greeting'}
        saving={save.isPending}
        onSave={(wav, { saved, failed }) =>
          save.mutate(wav, {
            onSuccess: () => {
              saved();
              toast.success(VOICEMAIL_MESSAGES.recordingSaved);
            },
            onError: (e) => failed(e.message),
          })
        }
      />
      {error && (
        <p role="alert" className="text-destructive">
          {error}
        </p>
      )}
    </section>
  );
}
