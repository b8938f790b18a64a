export const MAX_TAGS = 50;
export const MAX_TAG_LENGTH = 50;

/**
 * Tags are split on commas, trimmed, empties dropped; duplicates keep their first spelling.
 * Semicolons separate too: the export joins tags with them, so a tag never contains either.
 */
export function parseTags(input: string): string[] {
  const seen = new Set<string>();
  const tags: string[] = [];
  for (const raw of input.split(/[,;]/)) {
    const tag = raw.trim();
    if (!tag || seen.has(tag.toLowerCase())) continue;
    seen.add(tag.toLowerCase());
    tags.push(tag);
  }
  return tags;
}
