import { useState } from 'react';
import { toast } from 'sonner';
import {
  DROP_MAX_SECONDS,
  DROP_NAME_MAX_CHARS,
  MAX_VOICEMAIL_DROPS,
  VOICEMAIL_DROP_MESSAGES,
  type VoicemailDrop,
} from '#domain/recordings/voicemail-drop.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useAddVoicemailDrop, useDeleteVoicemailDrop, useVoicemailDrops } from '../api/voicemail-drops.ts';
import { MicrophoneRecorder } from './microphone-recorder.tsx';
import { RecordingPlayer } from './recording-player.tsx';

/**
 * Settings → Phone → Voicemail drop (decision 031): the messages a rep records once and leaves on an answering
 * machine in one click from the call panel, moving on while it plays. Only to contacts whose express consent is
 * recorded: a prerecorded message needs it.
 */
export function VoicemailDropsCard() {
  const drops = useVoicemailDrops();
  return (
    <Card role="region" aria-label="Voicemail drop">
      <CardHeader>
        <CardTitle>Voicemail drop</CardTitle>
        <CardDescription>
          Record the messages you leave most. When a call reaches an answering machine, choose one in the call
          panel: it plays after the tone while you move on to your next call. The law treats it as a
          prerecorded call, so it is allowed only for contacts whose express consent you have recorded.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4 text-sm">
        {drops.isPending ? (
          <Spinner />
        ) : drops.isError ? (
          <p role="alert" className="text-destructive">
            {drops.error.message}
          </p>
        ) : (
          <>
            {drops.data.length === 0 ? (
              <p className="text-muted-foreground">No messages yet.</p>
            ) : (
              <ul aria-label="Your voicemail messages" className="flex flex-col gap-2">
                {drops.data.map((drop) => (
                  <DropLine key={drop.id} drop={drop} />
                ))}
              </ul>
            )}
            {drops.data.length < MAX_VOICEMAIL_DROPS ? (
              <NewDrop />
            ) : (
              <p className="text-muted-foreground">{VOICEMAIL_DROP_MESSAGES.tooMany}</p>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}

function DropLine({ drop }: { drop: VoicemailDrop }) {
  const remove = useDeleteVoicemailDrop();
  return (
    <li className="flex flex-wrap items-center gap-3">
      <span className="min-w-32 font-medium">{drop.name}</span>
      <RecordingPlayer recording={drop.recording} label={`Voicemail message ${drop.name}`} />
      <Button
        variant="outline"
        size="sm"
        aria-label={`Delete ${drop.name}`}
        disabled={remove.isPending}
        onClick={() =>
          remove.mutate(drop.id, {
            onSuccess: () => toast.success(VOICEMAIL_DROP_MESSAGES.deleted),
            onError: (e) => toast.error('Error', { description: e.message }),
          })
        }
      >
        Delete
      </Button>
    </li>
  );
}

function NewDrop() {
  const add = useAddVoicemailDrop();
  const [name, setName] = useState('');
  return (
    <section aria-label="New voicemail message" className="flex flex-col gap-2">
      <Label htmlFor="drop-name">New message’s name</Label>
      <Input
        id="drop-name"
        className="max-w-xs"
        value={name}
        maxLength={DROP_NAME_MAX_CHARS}
        placeholder="e.g. First touch"
        onChange={(e) => setName(e.target.value)}
      />
      <MicrophoneRecorder
        maxSeconds={DROP_MAX_SECONDS}
        recordLabel="Record a message"
        canSave={name.trim().length > 0}
        saving={add.isPending}
        onSave={(wav, { saved, failed }) =>
          add.mutate(
            { name: name.trim(), wav },
            {
              onSuccess: () => {
                saved();
                setName('');
                toast.success(VOICEMAIL_DROP_MESSAGES.saved);
              },
              onError: (e) => failed(e.message),
            },
          )
        }
      />
    </section>
  );
}
