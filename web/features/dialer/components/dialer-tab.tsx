import type { FormEvent } from 'react';
import { toast } from 'sonner';
import { Phone, PhoneOff } from 'lucide-react';
import { formatPhoneForDisplay } from '#domain/contacts/phone.ts';
import { waitingText } from '#domain/dialer/queue-walk.ts';
import { useTimeZone } from '../../auth/public.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { NativeSelect } from '../../../components/ui/native-select.tsx';
import { callerIdToSend, choosesNearestCallerId, phone } from '../../calls/public.ts';
import { useRestartQueue } from '../../queues/public.ts';
import { DialerKeypad } from './dialer-keypad.tsx';
import { WalkNotice } from './dialer-walk-notice.tsx';
import type { BrowserDialer } from './use-browser-dialer.ts';

/**
 * The Dialer tab: why no contact is offered (or the next contact of the queue, with its Call button), a number to
 * call, the caller ID to call from when there are several, and the keypad (tones down the line on a live call).
 */
export function DialerTab({ dialer }: { dialer: BrowserDialer }) {
  const { active, chosen, walk, target, onCall, setup, queue } = dialer;
  const timeZone = useTimeZone();
  const timeOf = (iso: string) =>
    new Date(iso).toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit', timeZone });
  const restart = useRestartQueue();
  const { number, setNumber } = dialer;
  const submitNumber = (event: FormEvent) => {
    event.preventDefault();
    if (!number.trim()) return void toast.error('No number entered');
    void dialer.dial({ name: number.trim(), phone: number.trim() });
  };
  return (
    <>
      {!active && !chosen && (
        <WalkNotice
          deleted={walk.deleted}
          finished={walk.finished}
          heldElsewhere={walk.step?.heldElsewhere ?? 0}
          filling={walk.step?.queue.filling != null}
          waiting={walk.step !== undefined && !walk.contact}
          waitingFor={walk.waiting && !walk.contact ? waitingText(walk.waiting, timeOf) : null}
          restarting={restart.isPending}
          onRestart={() => queue && restart.mutate(queue.id)}
        />
      )}
      {target?.contactId && !active && (
        <div className="flex items-center gap-3 rounded-md border border-border p-3 text-sm">
          <div className="min-w-0">
            <p className="text-xs text-muted-foreground">Next contact</p>
            <p className="truncate font-medium">{target.name}</p>
            <p className="text-muted-foreground">
              {target.phone ? formatPhoneForDisplay(target.phone) : 'No phone number'}
            </p>
          </div>
          <Button className="ml-auto" onClick={() => void dialer.dial(target)}>
            <Phone /> Call {target.name}
          </Button>
        </div>
      )}
      <form className="flex gap-2" onSubmit={submitNumber}>
        <Label htmlFor="dialer-number" className="sr-only">
          Phone number
        </Label>
        <Input
          id="dialer-number"
          type="tel"
          placeholder="Phone number"
          value={number}
          onChange={(e) => setNumber(e.target.value)}
        />
        {onCall ? (
          <Button type="button" variant="destructive" onClick={dialer.endCall}>
            <PhoneOff /> Hang up
          </Button>
        ) : (
          <Button type="submit">
            <Phone /> Call
          </Button>
        )}
      </form>
      {(setup.data?.callerIds.length ?? 0) > 1 && (
        <div className="flex items-center gap-2">
          <Label htmlFor="dialer-from" className="shrink-0">
            Call from
          </Label>
          <NativeSelect
            id="dialer-from"
            value={dialer.from ?? callerIdToSend(setup.data) ?? ''}
            onChange={(e) => dialer.setFrom(e.target.value || null)}
          >
            {choosesNearestCallerId(setup.data) && (
              <option value="">Nearest the contact (local presence)</option>
            )}
            {setup.data?.callerIds.map((c) => (
              <option key={c.id} value={c.numberE164}>
                {formatPhoneForDisplay(c.numberE164)}
                {c.label ? ` (${c.label})` : ''}
              </option>
            ))}
          </NativeSelect>
        </div>
      )}
      <DialerKeypad onDigit={(d) => (onCall ? phone.sendDigits(d) : setNumber((n) => n + d))} />
      {onCall && dialer.device.sentDigits && (
        <p className="text-sm text-muted-foreground" aria-label="Digits sent">
          Sent: <span className="font-mono">{dialer.device.sentDigits}</span>
        </p>
      )}
    </>
  );
}
