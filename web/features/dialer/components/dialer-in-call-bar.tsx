import { toast } from 'sonner';
import { Mic, MicOff, PhoneOff, Volume2, VolumeX } from 'lucide-react';
import { Button } from '../../../components/ui/button.tsx';
import { CallSummary, callingFromLine, phone, useCallingSetup } from '../../calls/public.ts';
import type { BrowserDialer } from './use-browser-dialer.ts';

/** The call the dialer placed: who, its state and timer, and on a live call Mute, Speaker and END CALL. */
export function DialerInCallBar({ dialer }: { dialer: BrowserDialer }) {
  const { call, active, device, onCall } = dialer;
  const setup = useCallingSetup();
  if (!call || !active) return null;
  return (
    <section aria-label="In call" className="flex items-center gap-3 rounded-md border border-border p-3">
      <CallSummary
        name={active.target.name}
        phone={active.target.phone}
        status={call.status}
        seconds={dialer.seconds}
        answeredBy={call.answeredBy}
        callingFrom={callingFromLine(call, setup.data)}
      />
      {onCall && (
        <div className="ml-auto flex flex-wrap items-center gap-2">
          <Button
            size="sm"
            variant={device.muted ? 'secondary' : 'outline'}
            aria-pressed={device.muted}
            onClick={() => {
              phone.setMuted(!device.muted);
              toast.info(device.muted ? 'Microphone unmuted' : 'Microphone muted');
            }}
          >
            {device.muted ? <MicOff /> : <Mic />} {device.muted ? 'Unmute' : 'Mute'}
          </Button>
          <Button
            size="sm"
            variant={device.speakerOn ? 'outline' : 'secondary'}
            aria-pressed={!device.speakerOn}
            onClick={() => {
              phone.setSpeaker(!device.speakerOn);
              toast.info(device.speakerOn ? 'Speaker off' : 'Speaker on');
            }}
          >
            {device.speakerOn ? <Volume2 /> : <VolumeX />} {device.speakerOn ? 'Speaker' : 'Speaker off'}
          </Button>
          <Button variant="destructive" onClick={dialer.endCall} disabled={dialer.hangingUp}>
            <PhoneOff /> END CALL
          </Button>
        </div>
      )}
    </section>
  );
}
