import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { MessageSquare } from 'lucide-react';
import { SLACK_EVENT_LABELS, SLACK_EVENTS, type SlackEvent } from '#domain/slack/slack-messages.ts';
import { DisconnectButton, LastFailure } from '../../../components/integrations/connection-parts.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { problemOf } from '../../../lib/api-client.ts';
import { formatMoment } from '../../../lib/dates.ts';
import { useDisconnectSlack, useSaveSlack, useSlack, useTestSlack } from '../api/slack.ts';

function EventChoices(props: {
  chosen: SlackEvent[];
  onChange: (next: SlackEvent[]) => void;
  disabled: boolean;
}) {
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 font-medium">Post when</legend>
      {SLACK_EVENTS.map((event) => (
        <label key={event} className="flex items-center gap-2">
          <input
            type="checkbox"
            className="size-4 accent-primary"
            checked={props.chosen.includes(event)}
            disabled={props.disabled}
            onChange={(e) =>
              props.onChange(
                e.target.checked ? [...props.chosen, event] : props.chosen.filter((c) => c !== event),
              )
            }
          />
          {SLACK_EVENT_LABELS[event]}
        </label>
      ))}
    </fieldset>
  );
}

/**
 * Settings → Integrations → Slack (decision 034): paste an incoming webhook, choose what is posted, send a test
 * message, disconnect. The card says where messages go, when the last one went, and Slack's own words when one did
 * not.
 */
export function SlackCard() {
  const slack = useSlack();
  const save = useSaveSlack();
  const test = useTestSlack();
  const disconnect = useDisconnectSlack();
  const [webhookUrl, setWebhookUrl] = useState('');
  const [draft, setDraft] = useState<SlackEvent[] | null>(null);
  const connection = slack.data?.slack ?? null;
  const chosen = draft ?? connection?.events ?? [...SLACK_EVENTS];

  const connect = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(
      { webhookUrl, events: chosen },
      {
        onSuccess: () => {
          setWebhookUrl('');
          setDraft(null);
          toast.success('Slack connected', { description: 'Send a test message to see it arrive.' });
        },
      },
    );
  };

  return (
    <Card role="region" aria-label="Slack" className="mt-4">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <MessageSquare className="size-5" /> Slack
        </CardTitle>
        <CardDescription>
          Tell a Slack channel when a lead is qualified (with a link to the contact), a campaign finishes or
          pauses on an error, or a call is missed. In Slack: Apps → Incoming Webhooks → Add to Slack, choose
          the channel, and copy the Webhook URL here. Mattermost and other chats that take Slack&apos;s
          incoming webhooks work the same way.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4 text-sm">
        {slack.isPending ? (
          <Spinner />
        ) : slack.isError ? (
          <p role="alert" className="text-destructive">
            {slack.error.message}
          </p>
        ) : connection ? (
          <>
            <div className="flex flex-col gap-1">
              <p>
                Connected: posting to <span className="font-mono text-xs">{connection.destination}</span>{' '}
                since {formatMoment(connection.connectedAt)}.
              </p>
              <p className="text-muted-foreground">
                {connection.lastSentAt
                  ? `Last message sent ${formatMoment(connection.lastSentAt)}.`
                  : 'No message sent yet.'}
              </p>
              <LastFailure error={connection.lastError} at={connection.lastErrorAt} />
            </div>
            <EventChoices chosen={chosen} onChange={setDraft} disabled={save.isPending} />
            <div className="flex flex-wrap gap-2">
              <Button
                disabled={save.isPending || draft === null}
                onClick={() =>
                  save.mutate(
                    { events: chosen },
                    {
                      onSuccess: () => {
                        setDraft(null);
                        toast.success('Slack events saved');
                      },
                      onError: (error) => toast.error('Could not save', { description: error.message }),
                    },
                  )
                }
              >
                Save events
              </Button>
              <Button
                variant="outline"
                disabled={test.isPending}
                onClick={() =>
                  test.mutate(undefined, {
                    onSuccess: () => toast.success('Test message sent to Slack'),
                    onError: (error) =>
                      toast.error('Slack did not take the message', { description: error.message }),
                  })
                }
              >
                Send test message
              </Button>
              <DisconnectButton service="Slack" disconnect={disconnect} />
            </div>
          </>
        ) : (
          <form onSubmit={connect} className="flex flex-col gap-3" aria-label="Connect Slack">
            <div className="flex flex-col gap-1">
              <Label htmlFor="slack-webhook">Incoming webhook address</Label>
              <Input
                id="slack-webhook"
                value={webhookUrl}
                placeholder="https://hooks.slack.com/services/…"
                className="font-mono text-xs"
                onChange={(e) => setWebhookUrl(e.target.value)}
              />
            </div>
            <EventChoices chosen={chosen} onChange={setDraft} disabled={save.isPending} />
            {save.isError && (
              <p role="alert" className="text-destructive">
                {problemOf(save.error)}
              </p>
            )}
            <div>
              <Button type="submit" disabled={save.isPending || webhookUrl.trim() === ''}>
                Connect Slack
              </Button>
            </div>
          </form>
        )}
      </CardContent>
    </Card>
  );
}
