import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
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
import { startWavRecording, type WavRecording } from '../wav-recorder.ts';
import { RecordingPlayer } from './recording-player.tsx';

type Take = { blob: Blob; url: string };

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
  const [recorder, setRecorder] = useState<WavRecording | null>(null);
  const [elapsed, setElapsed] = useState(0);
  const [take, setTake] = useState<Take | null>(null);
  const [error, setError] = useState<string | null>(null);
  const stopping = useRef(false);

  const stop = useCallback(async () => {
    if (!recorder || stopping.current) return;
    stopping.current = true;
    const blob = await recorder.stop();
    stopping.current = false;
    setRecorder(null);
    setTake({ blob, url: URL.createObjectURL(blob) });
  }, [recorder]);
  // The timer while recording; at two minutes the recording stops by itself.
  useEffect(() => {
    if (!recorder) return;
    const started = Date.now();
    const timer = setInterval(() => {
      const seconds = (Date.now() - started) / 1000;
      setElapsed(seconds);
      if (seconds >= GREETING_MAX_SECONDS) void stop();
    }, 250);
    return () => clearInterval(timer);
  }, [recorder, stop]);
  // A recorder left running (the user navigates away) releases the microphone; a take's URL is released too.
  useEffect(() => () => recorder?.cancel(), [recorder]);
  useEffect(
    () => () => {
      if (take) URL.revokeObjectURL(take.url);
    },
    [take],
  );

  const start = async () => {
    setError(null);
    try {
      setElapsed(0);
      setRecorder(await startWavRecording());
    } catch (e) {
      setError(`Microphone not available: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  const keep = () =>
    take &&
    save.mutate(take.blob, {
      onSuccess: () => {
        setTake(null);
        toast.success(VOICEMAIL_MESSAGES.recordingSaved);
      },
      onError: (e) => setError(e.message),
    });

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
      {recorder ? (
        <div className="flex items-center gap-3">
          <span role="status" className="tabular-nums text-destructive">
            Recording… {formatRecordingLength(elapsed)} / {formatRecordingLength(GREETING_MAX_SECONDS)}
          </span>
          <Button size="sm" onClick={() => void stop()}>
            Stop
          </Button>
        </div>
      ) : take ? (
        <div className="flex flex-wrap items-center gap-3">
          <audio controls src={take.url} aria-label="New recording" className="h-8 w-64 max-w-full" />
          <Button size="sm" disabled={save.isPending} onClick={keep}>
            Save recording
          </Button>
          <Button size="sm" variant="outline" onClick={() => setTake(null)}>
            Discard
          </Button>
        </div>
      ) : (
        <Button variant="outline" size="sm" className="self-start" onClick={() => void start()}>
          {current ? 'Record a new greeting' : 'Record greeting'}
        </Button>
      )}
      {error && (
        <p role="alert" className="text-destructive">
          {error}
        </p>
      )}
    </section>
  );
}
