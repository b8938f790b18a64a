import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { Voicemail } from 'lucide-react';
import type { Call } from '#domain/calls/call.schema.ts';
import { formatRecordingLength } from '#domain/recordings/voicemail.ts';
import { VOICEMAIL_DROP_MESSAGES } from '#domain/recordings/voicemail-drop.ts';
import { Button } from '../../../components/ui/button.tsx';
import { NativeSelect } from '../../../components/ui/native-select.tsx';
import { useVoicemailDrops } from '../../recordings/public.ts';
import { useDropVoicemail } from '../api/calls-queries.ts';

/**
 * Drop voicemail on an answered call (decision 031): one click leaves the chosen recorded message on the answering
 * machine and frees the rep at once (`onLeft`), while the message plays and the call ends by itself. Made prominent
 * when detection says a machine answered; refused by the server, with its reason, where the contact's consent
 * does not allow a prerecorded message.
 */
export function VoicemailDropControl({ call, onLeft }: { call: Call; onLeft: () => void }) {
  const drops = useVoicemailDrops();
  const drop = useDropVoicemail();
  const [chosen, setChosen] = useState<string | null>(null);
  const machine = call.answeredBy === 'machine';
  if (!drops.data) return null;
  if (drops.data.length === 0)
    return machine ? (
      <p className="text-xs text-muted-foreground">
        Record voicemail messages in{' '}
        <Link to="/settings?tab=phone" className="text-primary hover:underline">
          Settings → Phone
        </Link>{' '}
        to drop one here in one click.
      </p>
    ) : null;
  const dropId = chosen ?? drops.data[0]!.id;
  const leave = () =>
    drop.mutate(
      { callId: call.id, dropId },
      {
        onSuccess: ({ call: left }) => {
          toast.success(VOICEMAIL_DROP_MESSAGES.left, {
            description: `“${left.voicemailLeft?.name ?? ''}” plays after the tone; the call ends by itself.`,
          });
          onLeft();
        },
        onError: (error) => toast.error('Could not drop the voicemail', { description: error.message }),
      },
    );
  return (
    <div
      role="group"
      aria-label="Voicemail drop"
      className={`flex flex-wrap items-center gap-2 ${machine ? 'rounded-md border border-primary/40 bg-primary/5 p-2' : ''}`}
    >
      <NativeSelect
        aria-label="Voicemail message"
        value={dropId}
        onChange={(e) => setChosen(e.target.value)}
        className="min-w-0 flex-1"
      >
        {drops.data.map((d) => (
          <option key={d.id} value={d.id}>
            {d.name} ({formatRecordingLength(d.recording.durationSeconds)})
          </option>
        ))}
      </NativeSelect>
      <Button variant={machine ? 'default' : 'outline'} size="sm" disabled={drop.isPending} onClick={leave}>
        <Voicemail /> Drop voicemail
      </Button>
    </div>
  );
}
