import type {
  CategoryScore,
  ClassifyInput,
  ClassifyModel,
  ClassifyOutput,
  PageText,
} from './classify.types.js';
import { scoreDeep } from './deep.classifier.js';
import { scoreDefault } from './default.classifier.js';
import { compileSchema } from './schema.compiler.js';
import { warmUpAnalysis } from './analysis.js';
import { warmUpTextAnalysis } from './text-analysis.js';
import { relatedWords } from './wordnet.synonyms.js';

/** A criterion matched at least this strongly is rated `high`. */
export const HIGH_CONFIDENCE = 0.5;

/** Loads language models, lexicons and WordNet now, so the first request is not slow. */
export function warmUpClassifier(): void {
  warmUpTextAnalysis();
  warmUpAnalysis();
  relatedWords('invoice');
}

function pageText(page: PageText): string {
  return typeof page === 'string' ? page : page.text;
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
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
 * thread. Ties go to the category listed first.
 */
export function classify(input: ClassifyInput): ClassifyOutput {
  const model: ClassifyModel = input.model ?? 'default';
  const schema = input.classificationSchema;
  const pages = input.pages.map(pageText);
  const metadata = input.documentMetadata?.trim() || undefined;

  let scores: CategoryScore[] = [];
  if (schema.length > 0) {
    const compiled = compileSchema(schema, model === 'accurate');
    scores =
      model === 'accurate'
        ? scoreDeep(compiled, pages, metadata)
        : scoreDefault(compiled, pages, metadata);
  }

  let best = -1;
  scores.forEach((score, index) => {
    if (best < 0 || score.score > scores[best].score) best = index;
  });
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
        const high = criteria_confidence.filter((c) => c.confidence === 'high').length;
        return {
          category: entry.category,
          confidence: entry.criteria.length === 0 ? 0 : round(high / entry.criteria.length),
          criteria_confidence,
        };
      }),
    },
    usage: { num_pages: pages.length, num_categories: schema.length },
  };
  if (input.categoryGroups) {
    output.extra_metadata = { grouping: groupOf(category, input.categoryGroups) };
  }
  return output;
}
