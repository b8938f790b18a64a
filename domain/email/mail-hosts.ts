/**
 * Which mail servers users may configure (SMTP_ALLOWED_HOSTS). Off by default: self-hosters often relay through a
 * server on their own network. When an operator sets a list, a user's mail server must be one of its names, or
 * under one of its `*.domain` wildcards; names compare without case or a trailing dot. Limiting hosts keeps users
 * from making this server connect to addresses of the operator's network on their behalf.
 */
export function isAllowedMailHost(host: string, allowed: readonly string[] | null): boolean {
  if (!allowed || allowed.length === 0) return true;
  const name = host.trim().toLowerCase().replace(/\.$/, '');
  return allowed.some((entry) => {
    const rule = entry.trim().toLowerCase().replace(/\.$/, '');
    if (rule.startsWith('*.')) return name.endsWith(rule.slice(1)) && name.length > rule.length - 1;
    return name === rule;
  });
}

export const mailHostNotAllowed = (allowed: readonly string[]) =>
  `This server sends mail only through these mail servers: ${allowed.join(', ')}. Ask your administrator to add yours.`;
