import { toast } from 'sonner';
import type { NotificationSettings } from '#domain/notifications/notification.schema.ts';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useClickedSetting } from '../../../lib/use-clicked-setting.ts';
import { useSession } from '../../auth/public.ts';
import { useNotificationSettings, useSaveNotificationSettings } from '../api/notifications-queries.ts';

type Row = {
  title: string;
  what: string;
  app: keyof NotificationSettings;
  email: keyof NotificationSettings;
  adminOnly?: boolean;
};

const ROWS: Row[] = [
  {
    title: 'Callbacks due',
    what: 'When the day and time you set for a call-back arrives.',
    app: 'callbacksApp',
    email: 'callbacksEmail',
  },
  {
    title: 'Missed calls',
    what: 'When a call to one of your numbers rings out with nobody answering.',
    app: 'missedCallsApp',
    email: 'missedCallsEmail',
  },
  {
    title: 'Campaigns',
    what: 'When an e-mail or SMS campaign finishes, or pauses itself because of an error.',
    app: 'campaignsApp',
    email: 'campaignsEmail',
  },
  {
    title: 'Integrations',
    what: 'When a webhook endpoint is turned off because every delivery to it failed for 3 days, or HubSpot refuses the connection.',
    app: 'integrationsApp',
    email: 'integrationsEmail',
  },
  {
    title: 'New sign-ups',
    what: 'When a new account is waiting for your approval.',
    app: 'signupsApp',
    email: 'signupsEmail',
    adminOnly: true,
  },
];

/**
 * Settings → Notifications: what the product tells you, each on or off in the app and by e-mail, saved on
 * the server at once. E-mail needs the instance's mail server (SYSTEM_SMTP_URL); without one the card says so.
 */
export function NotificationSettingsCard() {
  const settings = useNotificationSettings();
  const save = useSaveNotificationSettings();
  const isAdmin = useSession().data?.role === 'admin';
  const clicked = useClickedSetting(settings.data?.settings);
  if (settings.isPending) return <Spinner />;
  if (settings.isError) {
    return (
      <p role="alert" className="text-sm text-destructive">
        Could not load notification settings: {settings.error.message}
      </p>
    );
  }
  const { emailAvailable } = settings.data;
  const current = clicked.shown ?? settings.data.settings;
  const toggle = (key: keyof NotificationSettings, on: boolean) => {
    const next = { ...current, [key]: on };
    save.mutate(next, {
      onSuccess: () => toast.success('Notification settings saved'),
      onError: (error) => toast.error('Error saving notification settings', { description: error.message }),
      onSettled: clicked.click(next),
    });
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>Notifications</CardTitle>
        <CardDescription>
          In the app, notifications appear under the bell at the top of every screen.
          {emailAvailable
            ? ' By e-mail, they go to your sign-in address.'
            : ' E-mail notifications need a mail server for this installation (SYSTEM_SMTP_URL); none is set, so they are shown in the app only.'}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <table className="w-full text-sm" aria-label="Notification settings">
          <thead>
            <tr className="text-left text-muted-foreground">
              <th className="py-2 font-medium">Notify me about</th>
              <th className="w-24 py-2 text-center font-medium">In the app</th>
              <th className="w-24 py-2 text-center font-medium">By e-mail</th>
            </tr>
          </thead>
          <tbody>
            {ROWS.filter((row) => !row.adminOnly || isAdmin).map((row) => (
              <tr key={row.title} className="border-t border-border">
                <td className="py-3">
                  <p className="font-medium">{row.title}</p>
                  <p className="text-xs text-muted-foreground">{row.what}</p>
                </td>
                <td className="text-center">
                  <input
                    type="checkbox"
                    className="size-4 accent-primary"
                    aria-label={`${row.title} in the app`}
                    checked={current[row.app]}
                    disabled={save.isPending}
                    onChange={(e) => toggle(row.app, e.target.checked)}
                  />
                </td>
                <td className="text-center">
                  <input
                    type="checkbox"
                    className="size-4 accent-primary"
                    aria-label={`${row.title} by e-mail`}
                    checked={emailAvailable && current[row.app] && current[row.email]}
                    disabled={save.isPending || !emailAvailable || !current[row.app]}
                    onChange={(e) => toggle(row.email, e.target.checked)}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </CardContent>
    </Card>
  );
}
