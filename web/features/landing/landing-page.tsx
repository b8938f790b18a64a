import { Link } from 'react-router';
import { BarChart3, PhoneCall, Users } from 'lucide-react';
import { Button } from '../../components/ui/button.tsx';
import { Brand } from '../../components/brand.tsx';
import { ThemeToggle } from '../theme/public.ts';

const FEATURES = [
  {
    icon: PhoneCall,
    title: 'Efficient calling',
    text: 'Click-to-call, a browser phone and a power dialer that walks your call queue.',
  },
  {
    icon: Users,
    title: 'Contact management',
    text: 'Every contact, cold lead and call outcome in one place, searchable in an instant.',
  },
  {
    icon: BarChart3,
    title: 'Campaign tools',
    text: 'E-mail campaigns, sequences and SMS, with reports on how each calling day went.',
  },
];

/** /: the public landing page. */
export function LandingPage() {
  return (
    <div className="flex min-h-screen flex-col">
      <header className="flex h-14 items-center gap-6 border-b border-border px-4">
        <Brand />
        <nav aria-label="Site" className="hidden gap-4 text-sm text-muted-foreground sm:flex">
          <a href="#home" className="hover:text-foreground">
            Home
          </a>
          <a href="#services" className="hover:text-foreground">
            Services
          </a>
          <a href="#agents" className="hover:text-foreground">
            Agents
          </a>
        </nav>
        <div className="ml-auto flex items-center gap-2">
          <ThemeToggle />
          <Button asChild variant="ghost" size="sm">
            <Link to="/auth">Login</Link>
          </Button>
          <Button asChild size="sm">
            <Link to="/auth">Sign Up</Link>
          </Button>
        </div>
      </header>
      <section
        id="home"
        style={{ height: 500 }}
        className="flex flex-col items-center justify-center gap-6 bg-gradient-to-b from-primary/15 to-transparent px-4 text-center"
      >
        <h1 className="max-w-3xl text-4xl font-bold tracking-tight md:text-5xl">
          The sales CRM built around calling
        </h1>
        <p className="max-w-2xl text-lg text-muted-foreground">
          Keep your contacts, call them from the browser, record what happened and see how your calling day
          went. Open source and self-hosted.
        </p>
        <Button asChild size="lg">
          <Link to="/auth">Get Started</Link>
        </Button>
      </section>
      <section id="services" className="mx-auto grid max-w-5xl gap-6 px-4 py-16 md:grid-cols-3">
        {FEATURES.map(({ icon: Icon, title, text }) => (
          <div key={title} className="rounded-lg border border-border p-6">
            <Icon className="mb-3 size-8 text-primary" aria-hidden />
            <h2 className="mb-2 text-lg font-semibold">{title}</h2>
            <p className="text-sm text-muted-foreground">{text}</p>
          </div>
        ))}
      </section>
      <section id="agents" className="bg-muted px-4 py-16 text-center">
        <h2 className="mb-3 text-2xl font-bold">Ready to make your next call count?</h2>
        <p className="mb-6 text-muted-foreground">
          Create an account; an administrator approves it and your team is dialing.
        </p>
        <Button asChild size="lg">
          <Link to="/auth">Sign Up</Link>
        </Button>
      </section>
      <footer className="border-t border-border px-4 py-6 text-center text-sm text-muted-foreground">
        CallCRM: open-source sales CRM built around calling.
      </footer>
    </div>
  );
}
