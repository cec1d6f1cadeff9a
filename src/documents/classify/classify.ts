import type { CategoryScore, ClassifyInput, ClassifyOutput, PageText } from './classify.types.js';
import { categoryConfidence, chooseCategory, HIGH_CONFIDENCE } from './confidence.js';
import { scoreDeep } from './deep.classifier.js';
import { scoreDefault } from './default.classifier.js';
import { clipLongWords } from './long-words.js';
import { compileSchema } from './schema.compiler.js';
import { warmUpAnalysis } from './analysis.js';
import { warmUpTextAnalysis } from './text-analysis.js';
import { relatedWords } from './wordnet.synonyms.js';

export { HIGH_CONFIDENCE } from './confidence.js';

/** Loads language models, lexicons and WordNet now, so the first request is not slow. */
export function warmUpClassifier(): void {
  warmUpTextAnalysis();
  warmUpAnalysis();
  relatedWords('invoice');
}

function pageText(page: PageText): string {
  return typeof page === 'string' ? page : page.text;
}

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

/**
 * Classifies the text of a document's pages into one category of the schema. Pure and
 * deterministic: plain data in, plain data out, so it runs the same inline and in a worker
 * thread. Ties are broken by content, never by the order of the schema (see confidence.ts).
 */
export function classify(input: ClassifyInput): ClassifyOutput {
  const schema = input.classificationSchema;
  const scores = scoreCategories(input);
  const best = chooseCategory(
    scores,
    schema.map((entry) => entry.category),
  );
  const category = best >= 0 ? schema[best].category : null;

  const output: ClassifyOutput = {
    result: { category },
    response_confidence: {
      categories: schema.map((entry, index) => {
        const criteria_confidence = entry.criteria.map((criterion, i) => ({
          criterion,
          confidence:
            scores[index].criteria[i] >= HIGH_CONFIDENCE ? ('high' as const) : ('low' as const),
        }));
        return {
          category: entry.category,
          confidence: categoryConfidence(scores, index, best),
          criteria_confidence,
        };
      }),
    },
    usage: { num_pages: input.pages.length, num_categories: schema.length },
  };
  if (input.categoryGroups) {
    output.extra_metadata = { grouping: groupOf(category, input.categoryGroups) };
  }
  return output;
}

/**
 * The model's score of each category of the schema, in schema order, before the choice
 * and the confidence are derived from them (evaluation trials read them too).
 */
export function scoreCategories(input: ClassifyInput): CategoryScore[] {
  const schema = input.classificationSchema;
  if (schema.length === 0) return [];
  // Every text the model reads is clipped to linear-time words (see clipLongWords).
  const pages = input.pages.map((page) => clipLongWords(pageText(page)));
  const metadata = clipLongWords(input.documentMetadata?.trim() ?? '') || undefined;
  const clipped = schema.map((entry) => ({
    ...entry,
    category: clipLongWords(entry.category),
    criteria: entry.criteria.map(clipLongWords),
  }));
  const fast = compileSchema(clipped, false);
  return (input.model ?? 'default') === 'accurate'
    ? scoreDeep(compileSchema(clipped, true), fast, pages, metadata)
    : scoreDefault(fast, pages, metadata);
}
