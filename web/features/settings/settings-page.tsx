import { Link, useSearchParams } from 'react-router';
import { Moon, Sun } from 'lucide-react';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs.tsx';
import { useTheme } from '../theme/public.ts';
import { NotificationSettingsCard } from '../notifications/public.ts';
import { EmailConfigurationCard, EmailTemplatesCard } from '../email/public.ts';
import { PhoneSettingsCard } from '../calls/public.ts';
import { SendingLimitCard } from '../campaigns/public.ts';
import { CallingHoursCard } from '../consent/public.ts';
import { CallRecordingCard, VoicemailDropsCard, VoicemailGreetingCard } from '../recordings/public.ts';
import { CalendarFeedCard } from '../calendar/public.ts';
import { ApiKeysCard } from '../api-keys/public.ts';
import { SlackCard } from '../slack/public.ts';
import { HubspotCard } from '../hubspot/public.ts';
import { SalesforceCard } from '../salesforce/public.ts';
import { WebhooksCard } from '../webhooks/public.ts';
import { PasswordCard } from './password-card.tsx';
import { ProfileCard } from './profile-card.tsx';

const SETTINGS_TABS = ['profile', 'email', 'phone', 'notifications', 'appearance', 'integrations'];

/**
 * /settings: Profile, Email, Phone, Notifications, Appearance and Integrations (the callbacks calendar feed, Slack,
 * HubSpot, Salesforce, API keys, webhooks, the API reference). The open tab is in the address (?tab=email), so other
 * screens can link to it.
 */
export function SettingsPage() {
  const { theme, setTheme } = useTheme();
  const [searchParams, setSearchParams] = useSearchParams();
  const tab = SETTINGS_TABS.includes(searchParams.get('tab') ?? '') ? searchParams.get('tab')! : 'profile';
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-bold tracking-tight">Settings</h1>
      <Tabs value={tab} onValueChange={(next) => setSearchParams({ tab: next }, { replace: true })}>
        <TabsList className="flex-wrap">
          <TabsTrigger value="profile">Profile</TabsTrigger>
          <TabsTrigger value="email">Email</TabsTrigger>
          <TabsTrigger value="phone">Phone</TabsTrigger>
          <TabsTrigger value="notifications">Notifications</TabsTrigger>
          <TabsTrigger value="appearance">Appearance</TabsTrigger>
          <TabsTrigger value="integrations">Integrations</TabsTrigger>
        </TabsList>
        <TabsContent value="profile">
          <div className="flex flex-col gap-4">
            <ProfileCard />
            <PasswordCard />
          </div>
        </TabsContent>
        <TabsContent value="email" className="flex flex-col gap-4">
          <EmailConfigurationCard />
          <EmailTemplatesCard />
          <SendingLimitCard kind="email" />
          <p className="text-sm text-muted-foreground">
            E-mails written while no mail server was configured are kept in your{' '}
            <Link to="/outbox" className="text-primary hover:underline">
              outbox
            </Link>
            .
          </p>
        </TabsContent>
        <TabsContent value="phone" className="flex flex-col gap-4">
          <PhoneSettingsCard />
          <VoicemailGreetingCard />
          <VoicemailDropsCard />
          <CallRecordingCard />
          <CallingHoursCard />
          <SendingLimitCard kind="sms" />
        </TabsContent>
        <TabsContent value="notifications">
          <NotificationSettingsCard />
        </TabsContent>
        <TabsContent value="appearance">
          <Card>
            <CardHeader>
              <CardTitle>Appearance</CardTitle>
              <CardDescription>
                Choose a theme. It is stored in this browser; dark is the default.
              </CardDescription>
            </CardHeader>
            <CardContent className="flex gap-2" role="radiogroup" aria-label="Theme">
              <Button
                variant={theme === 'light' ? 'default' : 'outline'}
                role="radio"
                aria-checked={theme === 'light'}
                onClick={() => setTheme('light')}
              >
                <Sun /> Light
              </Button>
              <Button
                variant={theme === 'dark' ? 'default' : 'outline'}
                role="radio"
                aria-checked={theme === 'dark'}
                onClick={() => setTheme('dark')}
              >
                <Moon /> Dark
              </Button>
            </CardContent>
          </Card>
        </TabsContent>
        <TabsContent value="integrations">
          <CalendarFeedCard />
          <SlackCard />
          <HubspotCard />
          <SalesforceCard />
          <ApiKeysCard />
          <WebhooksCard />
          <Card className="mt-4">
            <CardHeader>
              <CardTitle>API</CardTitle>
              <CardDescription>
                Script the CRM yourself: every route of this server, what it takes and what it answers,
                generated from the checks the server runs. Scripts send one of your API keys (above); the
                reference page itself uses your signed-in session.
              </CardDescription>
            </CardHeader>
            <CardContent className="flex flex-wrap gap-2">
              <Button variant="outline" asChild>
                <a href="/api-docs/" target="_blank" rel="noreferrer">
                  Open the API reference
                </a>
              </Button>
              <Button variant="ghost" asChild>
                <a href="/api/openapi.json" download="callcrm-openapi.json">
                  Download OpenAPI document
                </a>
              </Button>
            </CardContent>
          </Card>
        </TabsContent>
      </Tabs>
    </div>
  );
}
