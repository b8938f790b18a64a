import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Webhook } from 'lucide-react';
import {
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENTS,
  type WebhookEventType,
} from '#domain/webhooks/webhook-delivery.ts';
import type { WebhookEndpoint } from '#domain/webhooks/webhook-endpoint.schema.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { problemOf } from '../../../lib/api-client.ts';
import {
  fetchWebhookSecret,
  useAddWebhook,
  useChangeWebhook,
  useDeleteWebhook,
  useWebhookEndpoints,
} from '../api/webhooks.ts';
import { WebhookLog } from './webhook-log.tsx';

function EndpointItem({ endpoint }: { endpoint: WebhookEndpoint }) {
  const change = useChangeWebhook();
  const remove = useDeleteWebhook();
  const [secret, setSecret] = useState<string | null>(null);
  const [showLog, setShowLog] = useState(false);
  const label = endpoint.description || endpoint.url;
  return (
    <li className="flex flex-col gap-2 rounded-md border border-border p-3" aria-label={`Endpoint ${label}`}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <div className="min-w-0">
          <p className="font-medium">{endpoint.description || 'Endpoint'}</p>
          <p className="break-all font-mono text-xs text-muted-foreground">{endpoint.url}</p>
        </div>
        <span className={endpoint.enabled ? 'text-emerald-500' : 'text-destructive'}>
          {endpoint.enabled ? 'On' : 'Off'}
        </span>
      </div>
      <p className="text-muted-foreground">
        {endpoint.events.map((e) => WEBHOOK_EVENT_LABELS[e]).join(' · ')}
      </p>
      {endpoint.disabledReason && (
        <p role="alert" className="text-destructive">
          Turned off: {endpoint.disabledReason}
        </p>
      )}
      {secret && (
        <div className="flex flex-wrap gap-2">
          <Input
            aria-label="Signing secret"
            readOnly
            value={secret}
            className="min-w-0 flex-1 font-mono text-xs"
          />
          <Button
            variant="outline"
            onClick={() =>
              void navigator.clipboard
                .writeText(secret)
                .then(() => toast.success('Signing secret copied'))
                .catch(() => toast.error('Could not copy', { description: 'Select it and copy it by hand.' }))
            }
          >
            Copy secret
          </Button>
        </div>
      )}
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" size="sm" onClick={() => setShowLog((v) => !v)}>
          {showLog ? 'Hide deliveries' : 'Deliveries'}
        </Button>
        {!secret && (
          <Button
            variant="outline"
            size="sm"
            onClick={() =>
              void fetchWebhookSecret(endpoint.id)
                .then((answer) => setSecret(answer.secret))
                .catch((error: Error) =>
                  toast.error('Could not show the secret', { description: error.message }),
                )
            }
          >
            Show signing secret
          </Button>
        )}
        <Button
          variant="outline"
          size="sm"
          disabled={change.isPending}
          onClick={() =>
            change.mutate(
              { id: endpoint.id, change: { enabled: !endpoint.enabled } },
              {
                onSuccess: () =>
                  toast.success(endpoint.enabled ? 'Endpoint turned off' : 'Endpoint turned on'),
                onError: (error) => toast.error('Could not change it', { description: error.message }),
              },
            )
          }
        >
          {endpoint.enabled ? 'Turn off' : 'Turn on'}
        </Button>
        <Button
          variant="outline"
          size="sm"
          disabled={remove.isPending}
          onClick={() => {
            setShowLog(false);
            remove.mutate(endpoint.id, {
              onSuccess: () => toast.success('Endpoint deleted'),
              onError: (error) => toast.error('Could not delete it', { description: error.message }),
            });
          }}
        >
          Delete
        </Button>
      </div>
      {showLog && <WebhookLog endpointId={endpoint.id} />}
    </li>
  );
}

/**
 * Settings → Integrations → Webhooks (decision 035): endpoints that receive the chosen events as signed HTTP POSTs
 * (Standard Webhooks), each with its signing secret, on/off state and delivery log.
 */
export function WebhooksCard() {
  const endpoints = useWebhookEndpoints();
  const add = useAddWebhook();
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<WebhookEventType[]>([...WEBHOOK_EVENTS]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate(
      { url, description, events },
      {
        onSuccess: () => {
          setUrl('');
          setDescription('');
          toast.success('Webhook endpoint added', {
            description: 'Its signing secret is under Show signing secret.',
          });
        },
      },
    );
  };

  return (
    <Card role="region" aria-label="Webhooks" className="mt-4">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Webhook className="size-5" /> Webhooks
        </CardTitle>
        <CardDescription>
          Send events to your own server as they happen: an HTTP POST of JSON, signed the Standard Webhooks
          way (headers webhook-id, webhook-timestamp and webhook-signature, with the endpoint&apos;s secret).
          A failed delivery is tried again for 24 hours with the same webhook-id; each contact&apos;s events
          arrive in order; an endpoint that fails for 3 days is turned off.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4 text-sm">
        {endpoints.isPending ? (
          <Spinner />
        ) : endpoints.isError ? (
          <p role="alert" className="text-destructive">
            {endpoints.error.message}
          </p>
        ) : endpoints.data.endpoints.length === 0 ? (
          <p className="text-muted-foreground">No endpoints yet.</p>
        ) : (
          <ul className="flex flex-col gap-3">
            {endpoints.data.endpoints.map((endpoint) => (
              <EndpointItem key={endpoint.id} endpoint={endpoint} />
            ))}
          </ul>
        )}
        <form onSubmit={submit} className="flex flex-col gap-3" aria-label="Add a webhook endpoint">
          <div className="flex flex-wrap gap-2">
            <div className="flex min-w-64 flex-[2] flex-col gap-1">
              <Label htmlFor="webhook-url">Endpoint address</Label>
              <Input
                id="webhook-url"
                value={url}
                placeholder="https://example.com/hooks/callcrm"
                className="font-mono text-xs"
                onChange={(e) => setUrl(e.target.value)}
              />
            </div>
            <div className="flex min-w-40 flex-1 flex-col gap-1">
              <Label htmlFor="webhook-description">Description</Label>
              <Input
                id="webhook-description"
                value={description}
                maxLength={200}
                placeholder="e.g. Data warehouse"
                onChange={(e) => setDescription(e.target.value)}
              />
            </div>
          </div>
          <fieldset className="flex flex-wrap gap-x-4 gap-y-2">
            <legend className="mb-1 font-medium">Events</legend>
            {WEBHOOK_EVENTS.map((type) => (
              <label key={type} className="flex items-center gap-2">
                <input
                  type="checkbox"
                  className="size-4 accent-primary"
                  checked={events.includes(type)}
                  onChange={(e) =>
                    setEvents(e.target.checked ? [...events, type] : events.filter((t) => t !== type))
                  }
                />
                {WEBHOOK_EVENT_LABELS[type]}
              </label>
            ))}
          </fieldset>
          {add.isError && (
            <p role="alert" className="text-destructive">
              {problemOf(add.error)}
            </p>
          )}
          <div>
            <Button type="submit" disabled={add.isPending || url.trim() === '' || events.length === 0}>
              Add endpoint
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
