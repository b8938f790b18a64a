import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { Cloud } from 'lucide-react';
import {
  SALESFORCE_OBJECTS,
  type SalesforceConnection,
  type SalesforceObject,
} from '#domain/salesforce/salesforce.ts';
import {
  CallsLogged,
  Choice,
  CrmImport,
  DisconnectButton,
  LastFailure,
} from '../../../components/integrations/connection-parts.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { formatMoment } from '../../../lib/dates.ts';
import { useClickedSetting } from '../../../lib/use-clicked-setting.ts';
import {
  useDisconnectSalesforce,
  useImportFromSalesforce,
  useSalesforce,
  useSalesforceChoices,
  useStartSalesforceSignIn,
} from '../api/salesforce.ts';

const LOG_CALLS = 'Log each call in Salesforce as a completed Task, with its outcome and notes';
const OBJECT_LABELS: Record<SalesforceObject, string> = {
  Lead: 'Leads (not converted)',
  Contact: 'Contacts',
};

function Connected({ connection }: { connection: SalesforceConnection }) {
  const choices = useSalesforceChoices();
  const importer = useImportFromSalesforce();
  const disconnect = useDisconnectSalesforce();
  const [objects, setObjects] = useState<SalesforceObject[]>([...SALESFORCE_OBJECTS]);
  const logCalls = useClickedSetting(connection.logCalls);
  return (
    <>
      <div className="flex flex-col gap-1">
        <p>
          Connected to Salesforce as <span className="font-medium">{connection.username}</span>
          {connection.displayName ? ` (${connection.displayName})` : ''}, org{' '}
          <span className="font-mono text-xs">{connection.organizationId}</span> at{' '}
          <span className="font-mono text-xs">{connection.instanceUrl}</span>, since{' '}
          {formatMoment(connection.connectedAt)}.
        </p>
        <CallsLogged count={connection.callsLogged} lastAt={connection.lastLoggedAt} />
        <LastFailure error={connection.lastError} at={connection.lastErrorAt} />
      </div>
      <Choice
        label={LOG_CALLS}
        checked={logCalls.shown}
        disabled={choices.isPending}
        onChange={(on) =>
          choices.mutate(
            { logCalls: on },
            {
              onSuccess: () => toast.success('Salesforce settings saved'),
              onError: (error) => toast.error('Could not save', { description: error.message }),
              onSettled: logCalls.click(on),
            },
          )
        }
      />
      <CrmImport
        service="Salesforce"
        description="Each chosen record with an e-mail or phone number becomes a contact here (name, e-mail, phone, company or account, title, website) and joins your default queue."
        state={connection}
        pending={importer.isPending}
        disabled={objects.length === 0}
        start={(duplicates) =>
          importer.mutate(
            { duplicates, objects },
            {
              onSuccess: () => toast.success('Import from Salesforce started'),
              onError: (error) => toast.error('Could not start the import', { description: error.message }),
            },
          )
        }
      >
        <div className="flex flex-wrap gap-4" role="group" aria-label="What to import">
          {SALESFORCE_OBJECTS.map((object) => (
            <Choice
              key={object}
              label={OBJECT_LABELS[object]}
              checked={objects.includes(object)}
              onChange={(on) =>
                setObjects((now) => SALESFORCE_OBJECTS.filter((o) => (o === object ? on : now.includes(o))))
              }
            />
          ))}
        </div>
      </CrmImport>
      <div>
        <DisconnectButton service="Salesforce" disconnect={disconnect} />
      </div>
    </>
  );
}

/** Says once how the sign-in that brought the browser back here ended, and takes it out of the address. */
function useSignInOutcome(): string | null {
  const [searchParams, setSearchParams] = useSearchParams();
  const [failure, setFailure] = useState<string | null>(null);
  const seen = useRef(false);
  useEffect(() => {
    const connected = searchParams.get('salesforce') === 'connected';
    const error = searchParams.get('salesforceError');
    if (seen.current || (!connected && error === null)) return;
    seen.current = true;
    if (connected) toast.success('Salesforce connected');
    setFailure(error);
    const next = new URLSearchParams(searchParams);
    next.delete('salesforce');
    next.delete('salesforceError');
    setSearchParams(next, { replace: true });
  }, [searchParams, setSearchParams]);
  return failure;
}

/**
 * Settings → Integrations → Salesforce (decision 037): sign in to Salesforce through the server's connected app
 * (OAuth with PKCE), log each call as a completed Task on the matching Contact or Lead, import Leads and Contacts,
 * disconnect. The card says whom it is connected as, how the last import went and Salesforce's own words when
 * something failed; without a connected app set up by the operator it says so and offers nothing to click.
 */
export function SalesforceCard() {
  const salesforce = useSalesforce();
  const start = useStartSalesforceSignIn();
  const [logCalls, setLogCalls] = useState(true);
  const failure = useSignInOutcome();
  const answer = salesforce.data;

  const signIn = () =>
    start.mutate(
      { logCalls },
      {
        onSuccess: ({ url }) => window.location.assign(url),
        onError: (error) =>
          toast.error('Could not start the Salesforce sign-in', { description: error.message }),
      },
    );

  return (
    <Card role="region" aria-label="Salesforce" className="mt-4">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Cloud className="size-5" /> Salesforce
        </CardTitle>
        <CardDescription>
          Keep Salesforce as your CRM of record: every call you save here is logged as a completed Task on the
          Contact, else the open Lead, with the same e-mail or phone, and Leads and Contacts can be imported.
          You sign in to Salesforce and allow access; this app never sees your Salesforce password.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4 text-sm">
        {failure && (
          <p role="alert" className="text-destructive">
            {failure}
          </p>
        )}
        {salesforce.isPending ? (
          <Spinner />
        ) : salesforce.isError ? (
          <p role="alert" className="text-destructive">
            {salesforce.error.message}
          </p>
        ) : answer?.salesforce ? (
          <Connected connection={answer.salesforce} />
        ) : !answer?.configured ? (
          <div className="flex flex-col gap-1 text-muted-foreground" role="note">
            <p>
              Salesforce is not set up on this server. Its operator creates a connected app in Salesforce
              (Setup → App Manager → New Connected App, OAuth scopes &quot;api&quot; and
              &quot;refresh_token&quot;, PKCE allowed) with this callback URL:
            </p>
            <p className="font-mono text-xs text-foreground">{answer?.redirectUri}</p>
            <p>
              and sets SALESFORCE_CLIENT_ID and SALESFORCE_CLIENT_SECRET to its consumer key and secret (see
              the README).
            </p>
          </div>
        ) : (
          <div className="flex flex-col gap-3">
            <Choice label={LOG_CALLS} checked={logCalls} onChange={setLogCalls} />
            <div>
              <Button onClick={signIn} disabled={start.isPending}>
                Connect Salesforce
              </Button>
            </div>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
