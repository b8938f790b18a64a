import { useCallback, useEffect, useRef, useState } from 'react';
import { formatRecordingLength } from '#domain/recordings/voicemail.ts';
import { Button } from '../../../components/ui/button.tsx';
import { startWavRecording, type WavRecording } from '../wav-recorder.ts';

type Take = { blob: Blob; url: string };

/**
 * Records from the microphone, up to `maxSeconds` (it stops by itself there), then lets the user listen to the take
 * and save or discard it. `onSave` gets the WAV file and says when it is saved (the take is cleared) or why not.
 */
export function MicrophoneRecorder({
  maxSeconds,
  recordLabel,
  canSave = true,
  saving,
  onSave,
}: {
  maxSeconds: number;
  recordLabel: string;
  /** Something else the save needs is missing (a name): Save waits for it. */
  canSave?: boolean;
  saving: boolean;
  onSave: (wav: Blob, outcome: { saved: () => void; failed: (message: string) => void }) => void;
}) {
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
  // The timer while recording; at the limit the recording stops by itself.
  useEffect(() => {
    if (!recorder) return;
    const started = Date.now();
    const timer = setInterval(() => {
      const seconds = (Date.now() - started) / 1000;
      setElapsed(seconds);
      if (seconds >= maxSeconds) void stop();
    }, 250);
    return () => clearInterval(timer);
  }, [recorder, stop, maxSeconds]);
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
  const keep = () => {
    if (!take) return;
    setError(null);
    onSave(take.blob, { saved: () => setTake(null), failed: setError });
  };

  return (
    <>
      {recorder ? (
        <div className="flex items-center gap-3">
          <span role="status" className="tabular-nums text-destructive">
            Recording… {formatRecordingLength(elapsed)} / {formatRecordingLength(maxSeconds)}
          </span>
          <Button size="sm" onClick={() => void stop()}>
            Stop
          </Button>
        </div>
      ) : take ? (
        <div className="flex flex-wrap items-center gap-3">
          <audio controls src={take.url} aria-label="New recording" className="h-8 w-64 max-w-full" />
          <Button size="sm" disabled={saving || !canSave} onClick={keep}>
            Save recording
          </Button>
          <Button size="sm" variant="outline" onClick={() => setTake(null)}>
            Discard
          </Button>
        </div>
      ) : (
        <Button variant="outline" size="sm" className="self-start" onClick={() => void start()}>
          {recordLabel}
        </Button>
      )}
      {error && (
        <p role="alert" className="text-destructive">
          {error}
        </p>
      )}
    </>
  );
}
