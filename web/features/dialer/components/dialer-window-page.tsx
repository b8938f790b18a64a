import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { CheckCircle2, LogOut, Phone, PhoneOff, RotateCcw, Users } from 'lucide-react';
import { isFinished } from '#domain/calls/call-status.ts';
import { DEFAULT_QUEUE_ID, QUEUE_MESSAGES } from '#domain/contacts/queue.schema.ts';
import { formatPhoneForDisplay } from '#domain/contacts/phone.ts';
import { WALK_MESSAGES, waitingText } from '#domain/dialer/queue-walk.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs.tsx';
import { useTimeZone } from '../../auth/public.ts';
import { ImportContactsDialog } from '../../contact-import/public.ts';
import { ContactSelectorDialog, toBulkSelection } from '../../contacts/public.ts';
import {
  ActiveCallPanel,
  IncomingCalls,
  useActiveCall,
  useCall,
  useCallAction,
  useHangUp,
} from '../../calls/public.ts';
import {
  addedToQueueText,
  useAddToQueue,
  tabWalker,
  useQueues,
  useQueueWalk,
  useRestartQueue,
} from '../../queues/public.ts';
import { DIAL_MODE_LABELS, DialModeSchema, type DialMode } from '#domain/dialer/parallel-dialing.schema.ts';
import { useDialingSettings, useParallelState, useRoundControl } from '../api/parallel-queries.ts';
import { ParallelDialer } from './parallel-dialer.tsx';
import { DIALER_WINDOW_CLOSED, isUpdateContactsMessage } from './dialer-window-messages.ts';
import { useImportedJoinQueue } from './use-imported-join-queue.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The pop-out dialers /dialer-window and /simple-dialer-window (decision 000 "pop-out session"):
 * signed in by the same session cookie as the app (no tokens travel in messages). They walk a queue (?queue=, else
 * All Synced Contacts) like the browser dialer: the contact card, the remaining count ('Last contact' on the last
 * one), Call Contact / End Call, Mark as Completed, Save & Exit, and the two empty states. The full window also has
 * Import Contacts (from the CRM with the contact selector, or a file). The opener's update-contacts messages add
 * their contactIds to the queue; the window tells its opener when it closes.
 */
export function DialerWindowPage({ simple = false }: { simple?: boolean }) {
  const [params] = useSearchParams();
  const queues = useQueues(true);
  const fromAddress = params.get('queue');
  const listed =
    queues.data?.find((q) => q.id === fromAddress) ??
    queues.data?.find((q) => q.queueId === DEFAULT_QUEUE_ID);
  // A queue named in the address is walked at once, without waiting for the list (which only gives its name).
  const queue = listed ?? (fromAddress && UUID.test(fromAddress) ? { id: fromAddress, name: '' } : undefined);
  const queueId = queue?.id ?? null;
  // mutate is stable across renders (TanStack Query): the message listener is not re-added on every render.
  const { mutate: addToQueue } = useAddToQueue();

  useEffect(() => {
    document.title = `${simple ? 'Dialer' : 'Browser Dialer'} · CallCRM`;
    const closed = () =>
      (window.opener as Window | null)?.postMessage({ type: DIALER_WINDOW_CLOSED }, window.location.origin);
    window.addEventListener('pagehide', closed);
    return () => window.removeEventListener('pagehide', closed);
  }, [simple]);

  useEffect(() => {
    const receive = (event: MessageEvent) => {
      // Only this app's own windows, and only the window that opened this one, may send contacts.
      if (event.origin !== window.location.origin || event.source !== window.opener) return;
      if (!queueId || !isUpdateContactsMessage(event.data)) return;
      addToQueue(
        { queueId, selection: { ids: event.data.contactIds } },
        {
          onSuccess: (result) =>
            toast.success('Contacts added', { description: `${result.added} added to the queue.` }),
          onError: (error) => toast.error(QUEUE_MESSAGES.addFailed, { description: error.message }),
        },
      );
    };
    window.addEventListener('message', receive);
    return () => window.removeEventListener('message', receive);
  }, [queueId, addToQueue]);

  if (queues.isError && !queue)
    return (
      <p role="alert" className="p-6">
        {queues.error.message}
      </p>
    );
  if (!queue) return <Spinner />;

  const dialer = <CampaignDialer queueId={queue.id} queueName={queue.name || '…'} />;
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col gap-4 p-4">
      <h1 className="text-lg font-semibold">{simple ? 'Dialer' : 'Browser Dialer'}</h1>
      {simple ? (
        dialer
      ) : (
        <Tabs defaultValue="dialer">
          <TabsList className="w-full">
            <TabsTrigger value="import">Import Contacts</TabsTrigger>
            <TabsTrigger value="dialer">Campaign Dialer</TabsTrigger>
          </TabsList>
          <TabsContent value="import">
            <ImportTab queueId={queue.id} />
          </TabsContent>
          <TabsContent value="dialer">{dialer}</TabsContent>
        </Tabs>
      )}
    </main>
  );
}

function ImportTab({ queueId }: { queueId: string }) {
  const [selecting, setSelecting] = useState(false);
  const add = useAddToQueue();
  const joinQueue = useImportedJoinQueue();
  return (
    <div className="flex flex-col gap-3">
      <p className="text-sm text-muted-foreground">Bring contacts into the queue this window is calling.</p>
      <Button variant="outline" onClick={() => setSelecting(true)}>
        <Users /> Import from CRM
      </Button>
      <ImportContactsDialog
        trigger={<Button variant="outline">Import from Device</Button>}
        onImported={(report) => joinQueue(queueId, report)}
      />
      {selecting && (
        <ContactSelectorDialog
          open
          onOpenChange={setSelecting}
          initial={null}
          onConfirm={(selection) =>
            add.mutate(
              { queueId, selection: toBulkSelection(selection) },
              {
                onSuccess: (result) =>
                  toast.success('Contacts added', {
                    description: addedToQueueText(result),
                  }),
                onError: (error) => toast.error(QUEUE_MESSAGES.addFailed, { description: error.message }),
              },
            )
          }
        />
      )}
    </div>
  );
}

/** The queue's dialing: Power (one contact at a time, as the spec's dialer) or Parallel (several lines at once). */
function CampaignDialer({ queueId, queueName }: { queueId: string; queueName: string }) {
  const [walker] = useState(tabWalker);
  const state = useParallelState(queueId, walker);
  const settings = useDialingSettings(queueId, walker);
  const { pause } = useRoundControl(queueId, walker);
  const active = useActiveCall();
  const mode = state.data?.settings.mode;
  const choose = async (next: DialMode) => {
    try {
      // A round ringing is paused before going back to Power (a round lets go of the power walk's contact itself).
      if (next === 'power') await pause.mutateAsync();
      await settings.mutateAsync({ mode: next, capPercent: state.data?.settings.capPercent ?? null });
    } catch (error) {
      toast.error('Could not change the dialing mode', { description: (error as Error).message });
    }
  };
  return (
    <div className="flex flex-col gap-3">
      <div role="group" aria-label="Dialing mode" className="flex gap-1">
        {DialModeSchema.options.map((m) => (
          <Button
            key={m}
            size="sm"
            variant={mode === m ? 'default' : 'outline'}
            aria-pressed={mode === m}
            disabled={!mode || active !== null || settings.isPending}
            onClick={() => void choose(m)}
          >
            {DIAL_MODE_LABELS[m]}
          </Button>
        ))}
      </div>
      {mode === 'parallel' ? (
        <>
          <p className="text-sm text-muted-foreground">
            Queue: <span className="font-medium text-foreground">{queueName}</span>
          </p>
          <ParallelDialer queueId={queueId} walker={walker} />
          <Button
            variant="outline"
            disabled={active !== null}
            onClick={() =>
              void pause
                .mutateAsync()
                .then(() => window.close())
                .catch((error: Error) =>
                  toast.error('Could not save progress', { description: error.message }),
                )
            }
          >
            <LogOut /> Save &amp; Exit
          </Button>
        </>
      ) : mode === 'power' ? (
        <PowerDialer queueId={queueId} queueName={queueName} />
      ) : (
        <Spinner />
      )}
    </div>
  );
}

function PowerDialer({ queueId, queueName }: { queueId: string; queueName: string }) {
  const walk = useQueueWalk(queueId);
  const timeZone = useTimeZone();
  const restart = useRestartQueue();
  const active = useActiveCall();
  const live = useCall(active?.call.id ?? null);
  const call = live.data ?? active?.call ?? null;
  const onCall = call !== null && !isFinished(call.status);
  const callContact = useCallAction();
  const hangUp = useHangUp();
  const contact = walk.contact;

  if (walk.isPending) return <Spinner />;
  if (walk.deleted)
    return (
      <p role="alert" className="text-sm">
        {WALK_MESSAGES.deleted}
      </p>
    );
  const total = walk.step?.queue.total ?? 0;
  return (
    <div className="flex flex-col gap-3">
      <p className="text-sm text-muted-foreground">
        Queue: <span className="font-medium text-foreground">{queueName}</span>
      </p>
      {total === 0 ? (
        <div className="rounded-md border border-dashed border-border p-6 text-center text-sm">
          <p>{WALK_MESSAGES.empty}</p>
          <a href="/contacts" target="_blank" rel="noopener" className="text-primary hover:underline">
            Add Contacts
          </a>
        </div>
      ) : walk.finished && !contact ? (
        <div className="flex flex-col items-center gap-3 rounded-md border border-border p-6 text-center text-sm">
          <p>{WALK_MESSAGES.allCalled}</p>
          <Button variant="outline" disabled={restart.isPending} onClick={() => restart.mutate(queueId)}>
            <RotateCcw /> Start over
          </Button>
        </div>
      ) : !contact && walk.waiting ? (
        <p role="status" className="text-sm">
          {waitingText(walk.waiting, (iso) =>
            new Date(iso).toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit', timeZone }),
          )}
        </p>
      ) : !contact ? (
        <p className="text-sm text-muted-foreground">
          The contacts left are being called from another tab or device.
        </p>
      ) : (
        <section
          aria-label="Current contact"
          className="flex flex-col gap-2 rounded-md border border-border p-4"
        >
          <p className="text-lg font-semibold">
            {contact.firstName} {contact.lastName}
          </p>
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
            <dt className="text-muted-foreground">E-mail</dt>
            <dd className="truncate">{contact.email || '—'}</dd>
            <dt className="text-muted-foreground">Phone</dt>
            <dd>{contact.phone ? formatPhoneForDisplay(contact.phone) : '—'}</dd>
            <dt className="text-muted-foreground">Company</dt>
            <dd className="truncate">{contact.company || '—'}</dd>
            <dt className="text-muted-foreground">Title</dt>
            <dd className="truncate">{contact.title || '—'}</dd>
          </dl>
          <p className="text-sm text-muted-foreground" aria-label="Remaining calls">
            {walk.remaining !== null && walk.remaining > 1 ? `${walk.remaining} remaining` : 'Last contact'}
          </p>
          <div className="flex flex-wrap gap-2">
            {onCall && call ? (
              <Button
                variant="destructive"
                disabled={hangUp.isPending}
                onClick={() =>
                  hangUp.mutate(call.id, {
                    onError: (error) => toast.error('Could not end the call', { description: error.message }),
                  })
                }
              >
                <PhoneOff /> End Call
              </Button>
            ) : (
              <Button
                disabled={active !== null}
                onClick={() =>
                  callContact({
                    contactId: contact.id,
                    name: `${contact.firstName} ${contact.lastName}`,
                    phone: contact.phone ?? '',
                    company: contact.company,
                    queueId,
                  })
                }
              >
                <Phone /> Call Contact
              </Button>
            )}
            <Button
              variant="outline"
              disabled={onCall}
              onClick={() =>
                void walk
                  .markCompleted(contact.id)
                  .catch((error: Error) => toast.error('Error', { description: error.message }))
              }
            >
              <CheckCircle2 /> Mark as Completed
            </Button>
          </div>
        </section>
      )}
      <ActiveCallPanel inline />
      <IncomingCalls enabled />
      <Button
        variant="outline"
        disabled={onCall}
        onClick={() =>
          void walk
            .saveAndExit()
            .then(() => window.close())
            .catch((error: Error) => toast.error('Could not save progress', { description: error.message }))
        }
      >
        <LogOut /> Save &amp; Exit
      </Button>
    </div>
  );
}
