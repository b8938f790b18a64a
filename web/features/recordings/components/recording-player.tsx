import { formatRecordingLength, type RecordingRef } from '#domain/recordings/voicemail.ts';

/**
 * Plays a stored recording (a voicemail, a greeting): the browser streams it from the server with range requests,
 * so it starts at once and seeks without downloading what it skips.
 */
export function RecordingPlayer({ recording, label }: { recording: RecordingRef; label: string }) {
  return (
    <span className="flex items-center gap-2">
      <audio
        controls
        preload="none"
        src={recording.url}
        aria-label={`${label} (${formatRecordingLength(recording.durationSeconds)})`}
        className="h-8 w-64 max-w-full"
      />
      <span className="tabular-nums text-muted-foreground">
        {formatRecordingLength(recording.durationSeconds)}
      </span>
    </span>
  );
}
