/** The first group (in the object's key order) listing `category`, else `ungrouped`. */
export function groupOf(
  category: string | null,
  groups: Readonly<Record<string, readonly string[]>>,
): string {
  if (category !== null) {
    for (const [group, members] of Object.entries(groups)) {
      if (members.includes(category)) return group;
    }
  }
  return 'ungrouped';
}
