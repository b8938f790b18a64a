import { describe, expect, it } from 'vitest';
import { filterProjects, NO_PROJECT_FILTER, type ProjectFilter } from './project.schema.ts';

const project = (
  name: string,
  client: string | null,
  status: 'active' | 'planning',
  type: 'calling' | 'sms',
) => ({
  name,
  client,
  description: `${name} for ${client ?? 'nobody'}`,
  status,
  type,
});
const projects = [
  project('Spring Outreach', 'Acme Corp', 'active', 'calling'),
  project('Renewals', 'Globex', 'planning', 'sms'),
  project('Winter Push', null, 'active', 'sms'),
];
const names = (filter: Partial<ProjectFilter>) =>
  filterProjects(projects, { ...NO_PROJECT_FILTER, ...filter }).map((p) => p.name);

describe('narrowing the project cards', () => {
  it.each([
    ['no filter keeps every project, in order', {}, ['Spring Outreach', 'Renewals', 'Winter Push']],
    ['a word of the name, any case', { search: 'RENEW' }, ['Renewals']],
    ['a word of the client', { search: 'acme' }, ['Spring Outreach']],
    ['a word of the description', { search: 'nobody' }, ['Winter Push']],
    ['every word must be found', { search: 'spring globex' }, []],
    ['extra spaces are ignored', { search: '  push   winter ' }, ['Winter Push']],
    ['a status', { status: 'active' as const }, ['Spring Outreach', 'Winter Push']],
    ['a type', { type: 'sms' as const }, ['Renewals', 'Winter Push']],
    [
      'status, type and search together',
      { status: 'active' as const, type: 'sms' as const, search: 'w' },
      ['Winter Push'],
    ],
    ['nothing matching', { search: 'zebra' }, []],
  ])('%s', (_what, filter, expected) => {
    expect(names(filter)).toEqual(expected);
  });
});
