/**
 * Why pages of a split bundle go wrong, counted by kind: a whole document given another
 * section (the section of a neighbour in the bundle, or another), pages of a document cut
 * off from it (at its start, its end, or inside), pages with little text, and wrong pages per
 * language and per document length. Read once on the holdout bundles, it says which kinds
 * to fix on the development documents.
 */
export interface KindMember {
  category: string;
  language: string;
  pages: number;
}

export type WrongPageKinds = Record<string, number>;

const SHORT_PAGE = 300;
const LONG_DOCUMENT = 8;

function add(kinds: WrongPageKinds, key: string, value = 1): void {
  kinds[key] = (kinds[key] ?? 0) + value;
}

/**
 * Adds the wrong pages of one bundle to `kinds`. `sectionOf(page)` is the category the split
 * gave the 1-based page (undefined when none or several), `text(page)` the page's text.
 */
export function countWrongPages(
  kinds: WrongPageKinds,
  members: readonly KindMember[],
  sectionOf: (page: number) => string | undefined,
  text: (page: number) => string,
): void {
  let start = 1;
  members.forEach((member, index) => {
    const pages = Array.from({ length: member.pages }, (_, i) => start + i);
    const wrong = pages.filter((page) => sectionOf(page) !== member.category);
    const long = member.pages >= LONG_DOCUMENT ? 'long' : 'short';
    add(kinds, 'pages', member.pages);
    add(kinds, `pages ${member.language}`, member.pages);
    add(kinds, `pages ${long} documents`, member.pages);
    add(kinds, `wrong ${member.language}`, wrong.length);
    add(kinds, `wrong ${long} documents`, wrong.length);
    const neighbours = [members[index - 1]?.category, members[index + 1]?.category];
    if (wrong.length === member.pages) {
      const given = sectionOf(pages[0]);
      const asNeighbour = given !== undefined && neighbours.includes(given);
      add(kinds, asNeighbour ? 'whole as a neighbour' : 'whole as another', wrong.length);
      if (member.category === members[index - 1]?.category)
        add(kinds, 'whole after same category', wrong.length);
    } else {
      for (const page of wrong) {
        const atStart = pages.slice(0, pages.indexOf(page) + 1).every((p) => wrong.includes(p));
        const atEnd = pages.slice(pages.indexOf(page)).every((p) => wrong.includes(p));
        add(kinds, atStart ? 'cut at start' : atEnd ? 'cut at end' : 'cut inside');
      }
    }
    for (const page of wrong) {
      add(kinds, page === start ? 'wrong first pages' : 'wrong later pages');
      if (text(page).trim().length < SHORT_PAGE) add(kinds, 'wrong short pages');
    }
    start += member.pages;
  });
}

/** One line per kind, sorted by name. */
export function formatKinds(kinds: WrongPageKinds): string {
  return Object.keys(kinds)
    .sort()
    .map((key) => `    ${key}: ${kinds[key]}`)
    .join('\n');
}
