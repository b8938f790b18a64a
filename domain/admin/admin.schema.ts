import { z } from 'zod';
import { RoleSchema } from '../auth/roles.ts';
import { ProfileSchema } from '../profiles/profile.schema.ts';

export const AdminStatsSchema = z.object({
  totalUsers: z.number().int(),
  pendingApproval: z.number().int(),
  /** users with role user or admin */
  approvedUsers: z.number().int(),
  deniedUsers: z.number().int(),
  deactivatedUsers: z.number().int(),
});
export type AdminStats = z.infer<typeof AdminStatsSchema>;

export const PendingUsersResponseSchema = z.object({ users: z.array(ProfileSchema) });

export const AccountStatusFilterSchema = z.enum(['all', 'approved', 'pending', 'denied', 'deactivated']);
export type AccountStatusFilter = z.infer<typeof AccountStatusFilterSchema>;

export const ListAccountsQuerySchema = z.object({
  search: z.string().trim().max(200).optional(),
  status: AccountStatusFilterSchema.default('all'),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});
export type ListAccountsQuery = z.input<typeof ListAccountsQuerySchema>;
export const ACCOUNTS_PAGE_SIZE = 50;

export const AccountsPageSchema = z.object({
  users: z.array(ProfileSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type AccountsPage = z.infer<typeof AccountsPageSchema>;

export const UserIdParamsSchema = z.object({ userId: z.uuid('Invalid user id') });

export const ChangeRoleInputSchema = z.object({ role: z.enum(['user', 'admin']) });
export type ChangeRoleInput = z.infer<typeof ChangeRoleInputSchema>;
export const AssignableRoleSchema = RoleSchema.extract(['user', 'admin']);

export const SystemOutboxSchema = z.object({
  messages: z.array(
    z.object({
      id: z.string(),
      kind: z.string(),
      to: z.string(),
      subject: z.string(),
      text: z.string(),
      createdAt: z.string(),
    }),
  ),
});
export type SystemOutbox = z.infer<typeof SystemOutboxSchema>;

export const ResetLinkResponseSchema = z.object({ url: z.string(), expiresAt: z.string() });

export const DiagnosticsSchema = z.object({
  databaseReachable: z.boolean(),
  serverVersion: z.string(),
  migrationLevel: z.string().nullable(),
  migrationsApplied: z.number().int(),
  rowCounts: z.array(z.object({ table: z.string(), rows: z.number().int() })),
  checkedAt: z.string(),
});
export type Diagnostics = z.infer<typeof DiagnosticsSchema>;

/** The last admin can never be demoted or deactivated. */
export function wouldRemoveLastAdmin(input: {
  targetRole: string;
  targetDeactivated: boolean;
  activeAdminCount: number;
  change: 'demote' | 'deactivate';
}): boolean {
  const targetIsActiveAdmin = input.targetRole === 'admin' && !input.targetDeactivated;
  return targetIsActiveAdmin && input.activeAdminCount <= 1;
}
