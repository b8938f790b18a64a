import { suggestedDisposition } from '#domain/calls/answered-by.ts';
import { LogOut } from 'lucide-react';
import { SKIP_REASON_TEXT } from '#domain/dialer/queue-walk.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '../../../components/ui/dialog.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs.tsx';
import { Textarea } from '../../../components/ui/textarea.tsx';
import { DispositionForm, phone, type PhoneSnapshot } from '../../calls/public.ts';
import { DialerContactsTab } from './dialer-contacts-tab.tsx';
import { DialerInCallBar } from './dialer-in-call-bar.tsx';
import { DialerTab } from './dialer-tab.tsx';
import { useBrowserDialer, type DialerTab as Tab } from './use-browser-dialer.ts';

const STATUS_LABEL: Record<PhoneSnapshot['status'], string> = {
  disconnected: 'Connecting…',
  ready: 'Ready',
  'on-call': 'On call',
  error: 'Phone error',
};

/**
 * The browser dialer: connection status, 'Queue: N remaining', the Dialer, Notes, Contacts and Disposition tabs,
 * END CALL, the in-call panel and Save & Exit. It walks a call queue on the server: saving a disposition completes
 * the contact and the next one is served; contacts that cannot be called are skipped with the reason; 'Queue
 * completed' at the end. Closing it lets go of the held contact as Save & Exit does, without the toast.
 */
export function BrowserDialerModal(props: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The queue to walk; the default queue when null. */
  queue: { id: string; name: string } | null;
}) {
  const dialer = useBrowserDialer(props.open, props.queue, props.onOpenChange);
  const { device, provider, queue, walk, active, onCall } = dialer;
  return (
    <Dialog open={props.open} onOpenChange={dialer.close}>
      <DialogContent
        className="flex h-[700px] max-w-2xl flex-col gap-3"
        aria-describedby="dialer-description"
      >
        <div className="flex flex-wrap items-center gap-3 pr-8">
          <DialogTitle>Browser Dialer</DialogTitle>
          <Badge
            variant={
              device.status === 'error' ? 'destructive' : device.status === 'ready' ? 'default' : 'secondary'
            }
            aria-label="Phone status"
          >
            {STATUS_LABEL[device.status]}
          </Badge>
          <span className="text-sm text-muted-foreground" aria-label="Queue">
            Queue: {walk.remaining?.toLocaleString() ?? '…'} remaining
          </span>
          {queue && (
            <span className="truncate text-sm font-medium" aria-label="Walking">
              {queue.name}
            </span>
          )}
          <Button
            size="sm"
            variant="outline"
            className="ml-auto"
            disabled={onCall || !walk.step}
            onClick={() => dialer.close(false, { saved: true })}
          >
            <LogOut /> Save &amp; Exit
          </Button>
          {device.status === 'error' && provider && (
            <Button
              size="sm"
              variant="outline"
              onClick={() => {
                phone.reset();
                void phone.start(provider);
              }}
            >
              Reconnect
            </Button>
          )}
        </div>
        <DialogDescription id="dialer-description" className="sr-only">
          Call numbers and contacts from the browser, and record what happened.
        </DialogDescription>
        {provider === 'simulator' && (
          <p className="text-xs text-muted-foreground">
            Built-in simulator: no audio, and no real phone rings. The outcome follows the number (README).
          </p>
        )}
        <p className="text-xs text-muted-foreground">
          This dialer calls one contact at a time. To ring several at once, choose Parallel in the Pop-out
          Dialer.
        </p>
        <DialerInCallBar dialer={dialer} />
        <Tabs
          value={dialer.tab}
          onValueChange={(v) => dialer.setTab(v as Tab)}
          className="flex min-h-0 flex-1 flex-col"
        >
          <TabsList>
            <TabsTrigger value="dialer">Dialer</TabsTrigger>
            <TabsTrigger value="notes">Notes</TabsTrigger>
            <TabsTrigger value="contacts">Contacts</TabsTrigger>
            <TabsTrigger value="disposition">Disposition</TabsTrigger>
          </TabsList>
          <TabsContent value="dialer" className="flex flex-col gap-3 overflow-y-auto">
            <DialerTab dialer={dialer} />
          </TabsContent>
          <TabsContent value="notes" className="flex flex-col gap-2">
            <Label htmlFor="dialer-notes">Notes</Label>
            <Textarea
              id="dialer-notes"
              rows={10}
              value={dialer.notes}
              onChange={(e) => dialer.setNotes(e.target.value)}
              placeholder="Notes for this call; they are saved with the disposition."
            />
          </TabsContent>
          <TabsContent value="contacts" className="flex min-h-0 flex-col gap-3">
            <DialerContactsTab
              queueId={queue?.id}
              total={walk.step?.queue.total ?? null}
              callDisabled={onCall}
              onCall={(who) => {
                dialer.setChosen(who);
                dialer.setTab('dialer');
                void dialer.dial(who);
              }}
            />
            {walk.skipped.length > 0 && (
              <section aria-label="Skipped contacts" className="text-sm">
                <p className="font-medium">Skipped</p>
                <ul className="max-h-24 overflow-y-auto text-muted-foreground">
                  {walk.skipped.map((s) => (
                    <li key={s.contactId}>
                      {s.name}: {SKIP_REASON_TEXT[s.reason]}
                    </li>
                  ))}
                </ul>
              </section>
            )}
          </TabsContent>
          <TabsContent value="disposition" className="overflow-y-auto">
            {active?.target.contactId ? (
              <DispositionForm
                key={active.call.id}
                contactId={active.target.contactId}
                callId={active.call.id}
                durationSeconds={dialer.seconds}
                notes={dialer.notes}
                onNotesChange={dialer.setNotes}
                onChosen={dialer.setDispositionChosen}
                suggested={suggestedDisposition(dialer.call?.answeredBy)}
                onSaved={dialer.finishContact}
                queueId={queue?.id}
              />
            ) : (
              <p className="text-sm text-muted-foreground">
                {active
                  ? 'A number without a contact: no disposition to record.'
                  : 'Call a contact to record what happened.'}
              </p>
            )}
          </TabsContent>
        </Tabs>
      </DialogContent>
    </Dialog>
  );
}
