import { Link, useNavigate } from 'react-router';
import { ArrowDown, ArrowUp, ArrowUpDown, MoreHorizontal } from 'lucide-react';
import { isSendableAddress } from '#domain/email/email.schema.ts';
import type { ContactListItem, ContactSort } from '#domain/contacts/contact-list.schema.ts';
import { formatPhoneForDisplay } from '#domain/contacts/phone.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '../../../components/ui/dropdown-menu.tsx';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '../../../components/ui/table.tsx';
import { formatLastCalled } from '../../../lib/dates.ts';
import { StatusBadge } from './status-badge.tsx';

type SortState = { sort: ContactSort; dir: 'asc' | 'desc' };

function SortHeader({
  label,
  column,
  sort,
  onSort,
}: {
  label: string;
  column: ContactSort;
  sort: SortState;
  onSort: (c: ContactSort) => void;
}) {
  const active = sort.sort === column;
  const Icon = !active ? ArrowUpDown : sort.dir === 'asc' ? ArrowUp : ArrowDown;
  return (
    <TableHead aria-sort={active ? (sort.dir === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <button
        type="button"
        className="inline-flex items-center gap-1 hover:text-foreground"
        onClick={() => onSort(column)}
      >
        {label} <Icon className="size-3.5" aria-hidden />
      </button>
    </TableHead>
  );
}

/** The selectable contact table: a checkbox per row, and one for the page. */
export function ContactsTable(props: {
  contacts: ContactListItem[];
  selected: ReadonlySet<string>;
  allMatching: boolean;
  onToggle: (id: string) => void;
  onTogglePage: (checked: boolean) => void;
  sort: SortState;
  onSort: (column: ContactSort) => void;
  onDelete: (contact: ContactListItem) => void;
  onEmail: (contact: ContactListItem) => void;
  onCall: (contact: ContactListItem) => void;
}) {
  const navigate = useNavigate();
  const pageSelected =
    props.contacts.length > 0 && props.contacts.every((c) => props.allMatching || props.selected.has(c.id));
  return (
    <Table aria-label="Contacts">
      <TableHeader>
        <TableRow>
          <TableHead className="w-10">
            <input
              type="checkbox"
              className="size-4 accent-primary"
              aria-label="Select all on this page"
              checked={pageSelected}
              onChange={(e) => props.onTogglePage(e.target.checked)}
            />
          </TableHead>
          <SortHeader label="Name" column="name" sort={props.sort} onSort={props.onSort} />
          <SortHeader label="Last Called" column="lastCallDate" sort={props.sort} onSort={props.onSort} />
          <TableHead>Phone</TableHead>
          <TableHead>Company</TableHead>
          <TableHead>Tags</TableHead>
          <TableHead>Status</TableHead>
          <TableHead className="w-12">Actions</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {props.contacts.map((c) => {
          const name = `${c.firstName} ${c.lastName}`;
          const canEmail = isSendableAddress(c.email);
          return (
            <TableRow
              key={c.id}
              data-state={props.allMatching || props.selected.has(c.id) ? 'selected' : undefined}
            >
              <TableCell>
                <input
                  type="checkbox"
                  className="size-4 accent-primary"
                  aria-label={`Select ${name}`}
                  checked={props.allMatching || props.selected.has(c.id)}
                  onChange={() => props.onToggle(c.id)}
                />
              </TableCell>
              <TableCell className="font-medium">
                <Link to={`/contacts/${c.id}`} className="hover:underline">
                  {name}
                </Link>
                {c.isColdLead && (
                  <Badge variant="outline" className="ml-2">
                    Cold lead
                  </Badge>
                )}
              </TableCell>
              <TableCell className="whitespace-nowrap text-muted-foreground">
                {formatLastCalled(c.lastCallDate)}
              </TableCell>
              <TableCell className="whitespace-nowrap">{formatPhoneForDisplay(c.phone)}</TableCell>
              <TableCell>{c.company}</TableCell>
              <TableCell>
                <div className="flex flex-wrap gap-1">
                  {c.tags.map((t) => (
                    <Badge key={t} variant="secondary">
                      {t}
                    </Badge>
                  ))}
                </div>
              </TableCell>
              <TableCell>
                <StatusBadge status={c.status} />
              </TableCell>
              <TableCell>
                <DropdownMenu>
                  <DropdownMenuTrigger asChild>
                    <Button variant="ghost" size="icon" aria-label={`Actions for ${name}`}>
                      <MoreHorizontal />
                    </Button>
                  </DropdownMenuTrigger>
                  <DropdownMenuContent>
                    <DropdownMenuItem onSelect={() => void navigate(`/contacts/${c.id}/edit`)}>
                      Edit
                    </DropdownMenuItem>
                    {c.phone && <DropdownMenuItem onSelect={() => props.onCall(c)}>Call</DropdownMenuItem>}
                    {canEmail && (
                      <DropdownMenuItem onSelect={() => props.onEmail(c)}>Send Email</DropdownMenuItem>
                    )}
                    <DropdownMenuItem className="text-destructive" onSelect={() => props.onDelete(c)}>
                      Delete
                    </DropdownMenuItem>
                  </DropdownMenuContent>
                </DropdownMenu>
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}
