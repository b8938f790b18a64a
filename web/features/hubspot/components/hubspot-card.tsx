import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Building2 } from 'lucide-react';
import type { DuplicateMode } from '#domain/contacts/contact-import.ts';
import type { HubSpotConnection } from '#domain/hubspot/hubspot.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { problemOf } from '../../../lib/api-client.ts';
import { formatMoment } from '../../../lib/dates.ts';
import {
  useConnectHubspot,
  useDisconnectHubspot,
  useHubspot,
  useHubspotChoices,
  useImportFromHubspot,
} from '../api/hubspot.ts';

function Choice(props: {
  label: string;
  checked: boolean;
  disabled?: boolean;
  onChange: (on: boolean) => void;
}) {
  return (
    <label className="flex items-center gap-2">
      <input
        type="checkbox"
        className="size-4 accent-primary"
        checked={props.checked}
        disabled={props.disabled}
        onChange={(e) => props.onChange(e.target.checked)}
      />
      {props.label}
    </label>
  );
}

const LOG_CALLS = 'Log each call in HubSpot, with its outcome and notes';
const CREATE_MISSING = 'Create the contact in HubSpot when none has its e-mail or phone';

function Connected({ connection }: { connection: HubSpotConnection }) {
  const choices = useHubspotChoices();
  const importer = useImportFromHubspot();
  const disconnect = useDisconnectHubspot();
  const [duplicates, setDuplicates] = useState<DuplicateMode>('skip');
  const change = (next: { logCalls?: boolean; createMissing?: boolean }) =>
    choices.mutate(next, {
      onSuccess: () => toast.success('HubSpot settings saved'),
      onError: (error) => toast.error('Could not save', { description: error.message }),
    });
  const running = connection.importStatus === 'running';
  return (
    <>
      <div className="flex flex-col gap-1">
        <p>
          Connected to HubSpot account <span className="font-medium">{connection.portalId}</span>
          {connection.accountDomain ? ` (${connection.accountDomain})` : ''} since{' '}
          {formatMoment(connection.connectedAt)}.
        </p>
        <p className="text-muted-foreground">
          {connection.callsLogged > 0 && connection.lastLoggedAt
            ? `${connection.callsLogged.toLocaleString('en-US')} ${connection.callsLogged === 1 ? 'call' : 'calls'} logged; the last ${formatMoment(connection.lastLoggedAt)}.`
            : 'No call logged yet.'}
        </p>
        {connection.lastError && (
          <p role="alert" className="text-destructive">
            Last failure{connection.lastErrorAt ? ` (${formatMoment(connection.lastErrorAt)})` : ''}:{' '}
            {connection.lastError}
          </p>
        )}
      </div>
      <div className="flex flex-col gap-2">
        <Choice
          label={LOG_CALLS}
          checked={connection.logCalls}
          disabled={choices.isPending}
          onChange={(logCalls) => change({ logCalls })}
        />
        <Choice
          label={CREATE_MISSING}
          checked={connection.createMissing}
          disabled={choices.isPending || !connection.logCalls}
          onChange={(createMissing) => change({ createMissing })}
        />
      </div>
      <div
        className="flex flex-col gap-2 rounded-md border border-border p-3"
        aria-label="Import from HubSpot"
      >
        <p className="font-medium">Import contacts from HubSpot</p>
        <p className="text-muted-foreground">
          Every HubSpot contact with an e-mail or phone number becomes a contact here (name, e-mail, phone,
          company, job title, website) and joins your default queue.
        </p>
        <div className="flex flex-wrap items-center gap-2">
          <Label htmlFor="hubspot-duplicates">Contacts you already have</Label>
          <select
            id="hubspot-duplicates"
            className="rounded-md border border-input bg-background px-2 py-1"
            value={duplicates}
            onChange={(e) => setDuplicates(e.target.value as DuplicateMode)}
          >
            <option value="skip">Skip them</option>
            <option value="update">Update them from HubSpot</option>
          </select>
          <Button
            disabled={running || importer.isPending}
            onClick={() =>
              importer.mutate(duplicates, {
                onSuccess: () => toast.success('Import from HubSpot started'),
                onError: (error) => toast.error('Could not start the import', { description: error.message }),
              })
            }
          >
            {running ? 'Importing…' : 'Import contacts'}
          </Button>
        </div>
        {connection.importStatus && connection.importStatus !== 'running' && (
          <p
            role={connection.importStatus === 'failed' ? 'alert' : 'status'}
            className={connection.importStatus === 'failed' ? 'text-destructive' : 'text-muted-foreground'}
          >
            {connection.importStatus === 'failed' ? 'Last import failed' : 'Last import'}
            {connection.importAt ? ` (${formatMoment(connection.importAt)})` : ''}: {connection.importSummary}
          </p>
        )}
      </div>
      <div>
        <Button
          variant="outline"
          disabled={disconnect.isPending}
          onClick={() =>
            disconnect.mutate(undefined, {
              onSuccess: () => toast.success('HubSpot disconnected'),
              onError: (error) => toast.error('Could not disconnect', { description: error.message }),
            })
          }
        >
          Disconnect
        </Button>
      </div>
    </>
  );
}

/**
 * Settings → Integrations → HubSpot (decision 036): connect with a private app's access token, log each call on
 * the matching HubSpot contact, import HubSpot's contacts, disconnect. The card says which account it reaches, how
 * the last import went and HubSpot's own words when something failed.
 */
export function HubspotCard() {
  const hubspot = useHubspot();
  const connect = useConnectHubspot();
  const [token, setToken] = useState('');
  const [logCalls, setLogCalls] = useState(true);
  const [createMissing, setCreateMissing] = useState(false);
  const connection = hubspot.data?.hubspot ?? null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    connect.mutate(
      { token, logCalls, createMissing },
      {
        onSuccess: () => {
          setToken('');
          toast.success('HubSpot connected');
        },
      },
    );
  };

  return (
    <Card role="region" aria-label="HubSpot" className="mt-4">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Building2 className="size-5" /> HubSpot
        </CardTitle>
        <CardDescription>
          Keep HubSpot as your CRM of record: every call you save here is logged on the HubSpot contact with
          the same e-mail or phone, and HubSpot&apos;s contacts can be imported. In HubSpot: Settings →
          Integrations → Private Apps → Create a private app with the scopes crm.objects.contacts.read and
          crm.objects.contacts.write, then copy its access token here.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4 text-sm">
        {hubspot.isPending ? (
          <Spinner />
        ) : hubspot.isError ? (
          <p role="alert" className="text-destructive">
            {hubspot.error.message}
          </p>
        ) : connection ? (
          <Connected connection={connection} />
        ) : (
          <form onSubmit={submit} className="flex flex-col gap-3" aria-label="Connect HubSpot">
            <div className="flex flex-col gap-1">
              <Label htmlFor="hubspot-token">Private app access token</Label>
              <Input
                id="hubspot-token"
                type="password"
                autoComplete="off"
                value={token}
                placeholder="pat-na1-…"
                className="font-mono text-xs"
                onChange={(e) => setToken(e.target.value)}
              />
            </div>
            <Choice label={LOG_CALLS} checked={logCalls} onChange={setLogCalls} />
            <Choice
              label={CREATE_MISSING}
              checked={createMissing}
              disabled={!logCalls}
              onChange={setCreateMissing}
            />
            {connect.isError && (
              <p role="alert" className="text-destructive">
                {problemOf(connect.error)}
              </p>
            )}
            <div>
              <Button type="submit" disabled={connect.isPending || token.trim() === ''}>
                Connect HubSpot
              </Button>
            </div>
          </form>
        )}
      </CardContent>
    </Card>
  );
}
