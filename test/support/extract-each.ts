import type { JsonSchema } from '../../src/documents/extract/extract-schema.js';
import { extractDocument } from '../../src/documents/extract/extract.operation.js';
import { loadLayoutDocument } from '../../src/documents/parse/layout.loader.js';
import { makeDocx } from './documents.js';

/**
 * Extract over `lines` written as a text file and as a DOCX, each by default extract and by
 * deep: four results, in that order.
 */
export async function extractEach(
  lines: string[],
  schema: JsonSchema,
  name = 'document',
): Promise<Record<string, unknown>[]> {
  const results: Record<string, unknown>[] = [];
  for (const [bytes, file] of [
    [Buffer.from(lines.join('\n')), `${name}.txt`],
    [await makeDocx(lines), `${name}.docx`],
  ] as const) {
    const document = await loadLayoutDocument(bytes, file);
    for (const deepEngine of [undefined, 'fuzzy-synonyms-described' as const])
      results.push(
        extractDocument(document, schema, { engine: 'label-typed', deepEngine, citations: false })
          .result,
      );
  }
  return results;
}
