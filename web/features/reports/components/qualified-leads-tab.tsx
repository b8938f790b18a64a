import { useState } from 'react';
import { Link } from 'react-router';
import { Globe, Mail, Phone, RefreshCw } from 'lucide-react';
import { QUALIFIED_LEADS_ERROR } from '#domain/reports/qualified-leads.schema.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card, CardContent } from '../../../components/ui/card.tsx';
import { SearchInput } from '../../../components/ui/search-input.tsx';
import { ShowMoreItem } from '../../../components/ui/show-more-item.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { formatMoment } from '../../../lib/dates.ts';
import { useDebouncedSearch } from '../../../lib/use-debounced.ts';
import { useQualifiedLeads } from '../api/report-queries.ts';

/** The qualified leads scroll area is 600px high. */
const SCROLL_HEIGHT = 'h-[600px]';

/** Only web addresses become links; anything else stays text. */
const safeWebsite = (website: string) => {
  const href = /^https?:\/\//i.test(website) ? website : `https://${website}`;
  try {
    return ['http:', 'https:'].includes(new URL(href).protocol) ? href : null;
  } catch {
    return null;
  }
};

/**
 * The Qualified Leads tab: every qualified call of the user, newest first, searched on the
 * server over the contact's name, company and e-mail and the call's notes; Refresh; cards in a 600px scroll area.
 */
export function QualifiedLeadsTab() {
  const [typed, setTyped] = useState('');
  const search = useDebouncedSearch(typed);
  const leads = useQualifiedLeads(search);
  const rows = leads.data?.pages.flatMap((p) => p.leads) ?? [];
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center gap-2">
        <SearchInput
          className="flex-1"
          aria-label="Search qualified leads"
          placeholder="Search by name, company, e-mail or notes"
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
        />
        <Button variant="outline" onClick={() => void leads.refetch()} disabled={leads.isFetching}>
          <RefreshCw className={leads.isFetching ? 'animate-spin' : undefined} /> Refresh
        </Button>
      </div>
      {leads.isPending ? (
        <Spinner />
      ) : leads.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {QUALIFIED_LEADS_ERROR}: {leads.error.message || 'Please try again'}
        </p>
      ) : rows.length === 0 ? (
        <p className="rounded-md border border-dashed border-border p-8 text-center text-sm text-muted-foreground">
          {search ? 'No qualified leads match this search.' : 'No qualified leads yet.'}
        </p>
      ) : (
        <div className={`${SCROLL_HEIGHT} overflow-y-auto rounded-md border border-border`}>
          <ul aria-label="Qualified leads" className="flex flex-col gap-3 p-3">
            {rows.map((lead) => {
              const website = lead.website ? safeWebsite(lead.website) : null;
              return (
                <li key={lead.dispositionId}>
                  <Card>
                    <CardContent className="flex flex-col gap-2 pt-4">
                      <div className="flex flex-wrap items-baseline gap-2">
                        <h3 className="font-semibold">
                          {lead.contactId && lead.name ? (
                            <Link to={`/contacts/${lead.contactId}`} className="hover:underline">
                              {lead.name}
                            </Link>
                          ) : (
                            (lead.name ?? 'Deleted contact')
                          )}
                        </h3>
                        {lead.company && (
                          <span className="text-sm text-muted-foreground">{lead.company}</span>
                        )}
                        <time dateTime={lead.calledAt} className="ml-auto text-sm text-muted-foreground">
                          {formatMoment(lead.calledAt)}
                        </time>
                      </div>
                      <div className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-muted-foreground">
                        {lead.email && (
                          <span className="flex items-center gap-1">
                            <Mail className="size-3.5" aria-hidden /> {lead.email}
                          </span>
                        )}
                        {lead.phone && (
                          <span className="flex items-center gap-1">
                            <Phone className="size-3.5" aria-hidden /> {lead.phone}
                          </span>
                        )}
                        {lead.website && (
                          <span className="flex items-center gap-1">
                            <Globe className="size-3.5" aria-hidden />
                            {website ? (
                              <a
                                href={website}
                                target="_blank"
                                rel="noreferrer noopener"
                                className="hover:underline"
                              >
                                {lead.website}
                              </a>
                            ) : (
                              lead.website
                            )}
                          </span>
                        )}
                      </div>
                      {lead.notes && <p className="text-sm whitespace-pre-wrap">{lead.notes}</p>}
                    </CardContent>
                  </Card>
                </li>
              );
            })}
            <ShowMoreItem
              hasNextPage={leads.hasNextPage}
              isFetchingNextPage={leads.isFetchingNextPage}
              fetchNextPage={leads.fetchNextPage}
            />
          </ul>
        </div>
      )}
    </div>
  );
}
