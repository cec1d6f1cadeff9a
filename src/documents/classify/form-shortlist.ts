/**
 * The form of a document whose pages the reader does not know (a text, Markdown, HTML or
 * DOCX file: one page of unknown size) is not seen, it is assumed: layout.ts describes it as
 * "A single page." with the traits of its lines, and a criterion about slides or a large
 * sheet matches that sentence on every such file as well as on a real one (record 0537: the
 * device manuals and program guides read as slide decks). Its layout evidence then only
 * reorders the categories its words leave close: a category more than FORM_SHORTLIST behind
 * the best in content (its semantic, lexical and opening parts) keeps at most the lowest
 * layout part among the close ones. The same for every category and request; a document of
 * known pages (PDF, image) keeps its layout evidence whole.
 */
import type { CategoryEvidence, CriterionEvidence } from './evidence.js';
import { categoryScore, FUSION } from './fusion.js';

/** Content gap past which an unpaged document's layout evidence is capped (record 0537). */
export const FORM_SHORTLIST = 0.06;

/** A category's layout part of its score (categoryScore's layout terms). */
function layoutPart(evidence: CategoryEvidence): number {
  const { criterion, label } = FUSION;
  if (evidence.criteria.length === 0)
    return (criterion.layout + label.layout) * evidence.label.layout;
  const mean =
    evidence.criteria.reduce((sum, entry) => sum + entry.layout, 0) / evidence.criteria.length;
  return criterion.layout * mean + label.layout * evidence.label.layout;
}

/**
 * `evidence` with the layout evidence of the categories further than `gap` behind the best
 * in content lowered, each of its statements alike, so that its layout part is at most the
 * lowest among the close categories (the rule above; categoryScore and Deep Classify's
 * second pass read the lowered evidence).
 */
export function layoutWithinContent(
  evidence: readonly CategoryEvidence[],
  gap = FORM_SHORTLIST,
): CategoryEvidence[] {
  if (evidence.length < 2) return [...evidence];
  const layouts = evidence.map(layoutPart);
  const contents = evidence.map((category, c) => categoryScore(category) - layouts[c]);
  const best = Math.max(...contents);
  const close = contents.flatMap((content, c) => (best - content <= gap ? [c] : []));
  const bound = Math.min(...close.map((c) => layouts[c]));
  // Every statement's layout lowered by `shift` lowers the layout part by shift x this.
  const perShift = FUSION.criterion.layout + FUSION.label.layout;
  return evidence.map((category, c) => {
    const cut = close.includes(c) ? 0 : layouts[c] - bound;
    if (cut <= 0) return category;
    const lower = (entry: CriterionEvidence) => ({
      ...entry,
      layout: entry.layout - cut / perShift,
    });
    return { ...category, label: lower(category.label), criteria: category.criteria.map(lower) };
  });
}
