import { Injectable } from '@nestjs/common';
import { ProcessingError } from '../jobs/job.types.js';
import {
  CategoryConfidence,
  ClassificationOutcome,
  ClassificationRunner,
  ClassificationTaskInput,
  groupOf,
} from './classification-runner.js';

const STOPWORDS = new Set(
  'a an and are as at be by for from has have in is it of on or that the this to with contains document'.split(
    ' ',
  ),
);

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 1 && !STOPWORDS.has(w));
}

/**
 * INTERIM in-process runner for UTF-8 text inputs until the documents/classify library
 * lands: pages split on form feeds, a criterion is "high" when most of its words occur in
 * the text. Only the job layer's contract matters here.
 */
@Injectable()
export class PlainTextClassificationRunner implements ClassificationRunner {
  async run(input: ClassificationTaskInput): Promise<ClassificationOutcome> {
    const pages: string[] = [];
    for (const doc of input.documents) {
      if (
        Buffer.from(doc.bytes.subarray(0, 5)).toString('latin1') === '%PDF-' ||
        doc.bytes.includes(0)
      ) {
        throw new ProcessingError(
          'UNSUPPORTED_DOCUMENT',
          `Cannot read ${doc.fileName} as text`,
          422,
        );
      }
      pages.push(...new TextDecoder().decode(doc.bytes).split('\f'));
    }
    const text = new Set(words(`${pages.join(' ')} ${input.documentMetadata ?? ''}`));
    const categories: CategoryConfidence[] = input.classificationSchema.map(
      ({ category, criteria }) => {
        const rated = criteria.map((criterion) => {
          const terms = words(criterion);
          const hits = terms.filter((t) => text.has(t)).length;
          const high = terms.length > 0 && hits * 2 >= terms.length;
          return { criterion, confidence: high ? ('high' as const) : ('low' as const) };
        });
        const high = rated.filter((r) => r.confidence === 'high').length;
        return {
          category,
          confidence: rated.length ? high / rated.length : 0,
          criteria_confidence: rated,
        };
      },
    );
    const best = categories.reduce<CategoryConfidence | null>(
      (top, c) => (top === null || c.confidence > top.confidence ? c : top),
      null,
    );
    const category = best?.category ?? 'unknown';
    return {
      category,
      categories,
      numPages: pages.length,
      totalPages: pages.length,
      fileType: 'txt',
      ...(input.categoryGroups ? { grouping: groupOf(category, input.categoryGroups) } : {}),
    };
  }
}
