import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Building2 } from 'lucide-react';
import type { HubSpotConnection } from '#domain/hubspot/hubspot.ts';
import {
  CallsLogged,
  Choice,
  CrmImport,
  DisconnectButton,
  LastFailure,
} from '../../../components/integrations/connection-parts.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { problemOf } from '../../../lib/api-client.ts';
import { formatMoment } from '../../../lib/dates.ts';
import { useClickedSetting } from '../../../lib/use-clicked-setting.ts';
import {
  useConnectHubspot,
  useDisconnectHubspot,
  useHubspot,
  useHubspotChoices,
  useImportFromHubspot,
} from '../api/hubspot.ts';

const LOG_CALLS = 'Log each call in HubSpot, with its outcome and notes';
const CREATE_MISSING = 'Create the contact in HubSpot when none has its e-mail or phone';

function Connected({ connection }: { connection: HubSpotConnection }) {
  const choices = useHubspotChoices();
  const importer = useImportFromHubspot();
  const disconnect = useDisconnectHubspot();
  const clicked = useClickedSetting({
    logCalls: connection.logCalls,
    createMissing: connection.createMissing,
  });
  const change = (next: { logCalls?: boolean; createMissing?: boolean }) =>
    choices.mutate(next, {
      onSuccess: () => toast.success('HubSpot settings saved'),
      onError: (error) => toast.error('Could not save', { description: error.message }),
      onSettled: clicked.click({ ...clicked.shown, ...next }),
    });
  return (
    <>
      <div className="flex flex-col gap-1">
        <p>
          Connected to HubSpot account <span className="font-medium">{connection.portalId}</span>
          {connection.accountDomain ? ` (${connection.accountDomain})` : ''} since{' '}
          {formatMoment(connection.connectedAt)}.
        </p>
        <CallsLogged count={connection.callsLogged} lastAt={connection.lastLoggedAt} />
        <LastFailure error={connection.lastError} at={connection.lastErrorAt} />
      </div>
      <div className="flex flex-col gap-2">
        <Choice
          label={LOG_CALLS}
          checked={clicked.shown.logCalls}
          disabled={choices.isPending}
          onChange={(logCalls) => change({ logCalls })}
        />
        <Choice
          label={CREATE_MISSING}
          checked={clicked.shown.createMissing}
          disabled={choices.isPending || !clicked.shown.logCalls}
          onChange={(createMissing) => change({ createMissing })}
        />
      </div>
      <CrmImport
        service="HubSpot"
        description="Every HubSpot contact with an e-mail or phone number becomes a contact here (name, e-mail, phone, company, job title, website) and joins your default queue."
        state={connection}
        pending={importer.isPending}
        start={(duplicates) =>
          importer.mutate(duplicates, {
            onSuccess: () => toast.success('Import from HubSpot started'),
            onError: (error) => toast.error('Could not start the import', { description: error.message }),
          })
        }
      />
      <div>
        <DisconnectButton service="HubSpot" disconnect={disconnect} />
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
